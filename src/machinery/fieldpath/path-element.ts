/**
 * One step of a field path (structured-merge-diff's PathElement): a struct or map field by name,
 * a list-map item by its key fields, a set item by its value, or a list item by index; their
 * order, their text in conflict messages (`.spec`, `[name="c"]`, `[=v]`, `[0]`) and their FieldsV1
 * keys (`f:spec`, `k:{"name":"c"}`, `v:"v"`, `i:0`).
 */
import { compareStrings, compareValues, equalValues, goJson, goJsonString } from './value.js';
import type { FieldValue } from './value.js';

/** A list-map key: the key fields with their values, sorted by name. */
export interface KeyField {
  readonly name: string;
  readonly value: FieldValue;
}

export type PathElement =
  | { readonly field: string }
  | { readonly key: readonly KeyField[] }
  | { readonly value: FieldValue }
  | { readonly index: number };

export type Path = readonly PathElement[];

export const fieldElement = (name: string): PathElement => ({ field: name });
export const indexElement = (index: number): PathElement => ({ index });
export const valueElement = (value: FieldValue): PathElement => ({ value });
/** A key element from its fields in any order. */
export function keyElement(fields: readonly KeyField[]): PathElement {
  return { key: [...fields].sort((a, b) => compareStrings(a.name, b.name)) };
}

function kindOf(e: PathElement): number {
  if ('field' in e) return 0;
  if ('key' in e) return 1;
  if ('value' in e) return 2;
  return 3;
}

function compareKeys(a: readonly KeyField[], b: readonly KeyField[]): number {
  for (let i = 0; ; i++) {
    if (i >= a.length && i >= b.length) return 0;
    if (i >= a.length) return -1;
    if (i >= b.length) return 1;
    const c = compareStrings(a[i]!.name, b[i]!.name);
    if (c !== 0) return c;
    const d = compareValues(a[i]!.value, b[i]!.value);
    if (d !== 0) return d;
  }
}

/** structured-merge-diff's order: field names, then keys, then values, then indexes. */
export function compareElements(a: PathElement, b: PathElement): number {
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (ka !== kb) return ka < kb ? -1 : 1;
  if ('field' in a) return compareStrings(a.field, (b as { field: string }).field);
  if ('key' in a) return compareKeys(a.key, (b as { key: readonly KeyField[] }).key);
  if ('value' in a) return compareValues(a.value, (b as { value: FieldValue }).value);
  const x = a.index;
  const y = (b as { index: number }).index;
  return x < y ? -1 : x > y ? 1 : 0;
}

export function equalElements(a: PathElement, b: PathElement): boolean {
  if ('field' in a) return 'field' in b && a.field === b.field;
  if ('index' in a) return 'index' in b && a.index === b.index;
  if ('value' in a) return 'value' in b && equalValues(a.value, b.value);
  return 'key' in b && compareKeys(a.key, b.key) === 0;
}

const goEscapes: Readonly<Record<string, string>> = {
  '\u0007': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\u000b': '\\v',
  '"': '\\"',
  '\\': '\\\\',
};

/** Go's %q of a string (printable characters kept, control characters escaped). */
function goQuote(s: string): string {
  return `"${s.replace(/[\u0000-\u001f\u007f"\\]/g, (c) => goEscapes[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}"`;
}

/** structured-merge-diff's value.ToString. */
function valueText(v: FieldValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(valueText).join(',')}]`;
  return Object.entries(v)
    .map(([k, x]) => `${k}=${valueText(x)}`)
    .join('');
}

/** The element as conflict messages print it. */
export function elementString(e: PathElement): string {
  if ('field' in e) return `.${e.field}`;
  if ('key' in e) return `[${e.key.map((k) => `${k.name}=${valueText(k.value)}`).join(',')}]`;
  if ('value' in e) return `[=${valueText(e.value)}]`;
  return `[${e.index}]`;
}

export function pathString(p: Path): string {
  return p.map(elementString).join('');
}

/** The FieldsV1 key of an element. */
export function serializeElement(e: PathElement): string {
  if ('field' in e) return `f:${e.field}`;
  if ('key' in e) return `k:{${e.key.map((k) => `${goJsonString(k.name)}:${goJson(k.value)}`).join(',')}}`;
  if ('value' in e) return `v:${goJson(e.value)}`;
  return `i:${e.index}`;
}

/** Thrown for a FieldsV1 key that is not a path element. */
export class PathElementError extends Error {}

/** Upstream's ErrUnknownPathElementType: a key of another kind, which readers skip. */
export class UnknownPathElementType extends PathElementError {
  constructor() {
    super('unknown path element type');
  }
}

/** Reads a FieldsV1 key (structured-merge-diff's DeserializePathElement). */
export function deserializeElement(s: string): PathElement {
  if (s.length < 2) throw new PathElementError('key must be 2 characters long:');
  if (s[1] !== ':') throw new PathElementError(`missing colon: ${s}`);
  const rest = s.slice(2);
  switch (s[0]) {
    case 'f':
      return { field: rest };
    case 'v':
      return { value: parseJson(rest) };
    case 'k': {
      const parsed = parseJson(rest);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        throw new PathElementError(`key must be a JSON object: ${s}`);
      }
      return keyElement(Object.entries(parsed).map(([name, value]) => ({ name, value })));
    }
    case 'i': {
      if (!/^[+-]?\d+$/.test(rest))
        throw new PathElementError(`strconv.Atoi: parsing ${goJsonString(rest)}: invalid syntax`);
      return { index: Number.parseInt(rest, 10) };
    }
    default:
      throw new UnknownPathElementType();
  }
}

function parseJson(text: string): FieldValue {
  try {
    return JSON.parse(text) as FieldValue;
  } catch (err) {
    throw new PathElementError(err instanceof Error ? err.message : String(err));
  }
}
