/**
 * Finds repeated keys in raw JSON text (JSON.parse silently keeps the last one). Paths use the
 * form of upstream strict decoding: object keys joined with ".", array elements as "[i]",
 * e.g. `spec.template.spec.containers[0].name`.
 */

export type PathSegment = string | number;

export interface DuplicateField {
  /** Keys and array indexes from the root to the repeated key (the key included). */
  readonly segments: readonly PathSegment[];
  readonly path: string;
}

export function formatFieldPath(segments: readonly PathSegment[]): string {
  let out = '';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else out += out === '' ? s : `.${s}`;
  }
  return out;
}

/** Index after the JSON string whose opening quote is at `start`. */
function skipString(raw: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const c = raw.charCodeAt(i);
    if (c === 0x22 /* " */) return i + 1;
    if (Number.isNaN(c)) return raw.length;
    i += c === 0x5c /* \ */ ? 2 : 1;
  }
}

/** The key whose opening quote is at `start` and whose string ends before `end`. */
function keyText(raw: string, start: number, end: number): string {
  const text = raw.slice(start, end);
  return text.includes('\\') ? (JSON.parse(text) as string) : text.slice(1, -1);
}

interface Frame {
  readonly object: boolean;
  /** Object: the keys read so far. */
  readonly keys: string[] | undefined;
  /** Object: the same keys as a set, once there are many. */
  set: Set<string> | undefined;
  index: number;
}

/** Objects with more keys than this look keys up in a set rather than the list. */
const listedKeys = 16;

/**
 * Every repeated key in `raw`, in document order, with its structured path. The text must be valid
 * JSON (parse it first); the scan is a single pass without building values (every decoded request
 * body is scanned: values are skipped, not sliced).
 */
export function scanDuplicateFields(raw: string): DuplicateField[] {
  const out: DuplicateField[] = [];
  const stack: Frame[] = [];
  const segments: PathSegment[] = [];
  let top: Frame | undefined;
  let expectKey = false;
  const n = raw.length;
  let i = 0;
  while (i < n) {
    const c = raw.charCodeAt(i);
    switch (c) {
      case 0x20:
      case 0x09:
      case 0x0a:
      case 0x0d:
      case 0x3a /* : */:
        i++;
        continue;
      case 0x2c /* , */:
        if (top !== undefined) {
          if (top.object) {
            expectKey = true;
            segments.pop();
          } else segments[segments.length - 1] = ++top.index;
        }
        i++;
        continue;
      case 0x7b /* { */:
      case 0x5b /* [ */: {
        const object = c === 0x7b;
        top = { object, keys: object ? [] : undefined, set: undefined, index: 0 };
        stack.push(top);
        expectKey = object;
        if (!object) segments.push(0);
        i++;
        continue;
      }
      case 0x7d /* } */:
      case 0x5d /* ] */: {
        const frame = stack.pop();
        // An object with keys pushed its last key; an array always pushed its index.
        if (frame !== undefined && (!frame.object || frame.keys!.length > 0)) segments.pop();
        top = stack[stack.length - 1];
        expectKey = false;
        i++;
        continue;
      }
      case 0x22 /* " */: {
        const next = skipString(raw, i);
        if (expectKey && top?.object === true) {
          const key = keyText(raw, i, next);
          const keys = top.keys!;
          let seen: boolean;
          if (top.set !== undefined) seen = top.set.has(key);
          else seen = keys.includes(key);
          if (seen) out.push({ segments: [...segments, key], path: formatFieldPath([...segments, key]) });
          else {
            keys.push(key);
            if (top.set !== undefined) top.set.add(key);
            else if (keys.length > listedKeys) top.set = new Set(keys);
          }
          segments.push(key);
          expectKey = false;
        }
        i = next;
        continue;
      }
      default:
        // number, true, false, null: skip to the next delimiter
        i++;
        while (i < n) {
          const d = raw.charCodeAt(i);
          if (d === 0x2c || d === 0x7d || d === 0x5d || d === 0x20 || d === 0x09 || d === 0x0a || d === 0x0d)
            break;
          i++;
        }
    }
  }
  return out;
}

/** Paths of the repeated keys in `raw`, e.g. `metadata.name` (no schema filtering). */
export function findDuplicateFields(raw: string): string[] {
  return scanDuplicateFields(raw).map((d) => d.path);
}
