/** Key ranges in etcd's form, normalized once so every backend and watcher agrees on membership. */

/** A half-open key interval `[start, end)`; `end === null` means unbounded above. */
export interface KeySpan {
  readonly start: string;
  readonly end: string | null;
}

/**
 * Turns etcd-style `(key, end?)` into a span: no `end` selects exactly `key` (whose successor is
 * `key + "\0"`); an `end` of "\0" means every key at or after `key`.
 */
export function keySpan(key: string, end?: string): KeySpan {
  if (end === undefined) return { start: key, end: key + '\u0000' };
  if (end === '\u0000') return { start: key, end: null };
  return { start: key, end };
}

export function spanHas(span: KeySpan, key: string): boolean {
  return key >= span.start && (span.end === null || key < span.end);
}
