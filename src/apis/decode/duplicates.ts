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

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** Reads a JSON string starting at the opening quote; returns [value, index after the closing quote]. */
function readString(raw: string, start: number): [string, number] {
  let i = start + 1;
  let simple = true;
  while (i < raw.length) {
    const c = raw.charCodeAt(i);
    if (c === 0x22) break;
    if (c === 0x5c) {
      simple = false;
      i += 2;
    } else i++;
  }
  const text = raw.slice(start, i + 1);
  return [simple ? text.slice(1, -1) : (JSON.parse(text) as string), i + 1];
}

interface Frame {
  readonly kind: 'object' | 'array';
  readonly seen: Set<string> | undefined;
  index: number;
  /** Object: the key whose value is being read. */
  key: string | undefined;
}

/**
 * Every repeated key in `raw`, in document order, with its structured path. The text must be valid
 * JSON (parse it first); the scan is a single pass without building values.
 */
export function scanDuplicateFields(raw: string): DuplicateField[] {
  const out: DuplicateField[] = [];
  const stack: Frame[] = [];
  const segments: PathSegment[] = [];
  let expectKey = false;
  for (let i = 0; i < raw.length;) {
    const c = raw.charCodeAt(i);
    if (WS.has(c) || c === 0x3a /* : */) {
      i++;
      continue;
    }
    const top = stack[stack.length - 1];
    if (c === 0x2c /* , */) {
      if (top?.kind === 'object') {
        expectKey = true;
        segments.pop();
      } else if (top !== undefined) {
        top.index++;
        segments[segments.length - 1] = top.index;
      }
      i++;
      continue;
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const isObject = c === 0x7b;
      stack.push({
        kind: isObject ? 'object' : 'array',
        seen: isObject ? new Set() : undefined,
        index: 0,
        key: undefined,
      });
      expectKey = isObject;
      if (!isObject) segments.push(0);
      i++;
      continue;
    }
    if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      const frame = stack.pop();
      // An object with keys pushed its last key; an array always pushed its index.
      if (frame?.kind === 'array' || frame?.key !== undefined) segments.pop();
      expectKey = false;
      i++;
      continue;
    }
    if (c === 0x22 /* " */) {
      const [s, next] = readString(raw, i);
      i = next;
      if (expectKey && top?.kind === 'object') {
        if (top.seen!.has(s))
          out.push({ segments: [...segments, s], path: formatFieldPath([...segments, s]) });
        else top.seen!.add(s);
        top.key = s;
        segments.push(s);
        expectKey = false;
      }
      continue;
    }
    // number, true, false, null: skip to the next delimiter
    while (i < raw.length) {
      const d = raw.charCodeAt(i);
      if (d === 0x2c || d === 0x7d || d === 0x5d || WS.has(d)) break;
      i++;
    }
  }
  return out;
}

/** Paths of the repeated keys in `raw`, e.g. `metadata.name` (no schema filtering). */
export function findDuplicateFields(raw: string): string[] {
  return scanDuplicateFields(raw).map((d) => d.path);
}
