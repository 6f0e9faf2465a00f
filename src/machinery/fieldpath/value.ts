/**
 * The JSON values structured-merge-diff orders and prints in field paths: its order (numbers,
 * strings, booleans, lists, maps, null), Go's byte-wise string order, and encoding/json's text
 * (HTML characters escaped) for `k:` and `v:` path elements.
 */

export type FieldValue = null | boolean | number | string | readonly FieldValue[] | FieldMap;
export interface FieldMap {
  readonly [key: string]: FieldValue;
}

const beyondBmpRange = /[\uD800-\uFFFF]/;

/** Go's strings.Compare: UTF-8 byte order, which is code point order (not UTF-16 unit order). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  // UTF-16 order is code point order unless a surrogate meets a unit of U+E000..U+FFFF.
  if (!beyondBmpRange.test(a) && !beyondBmpRange.test(b)) return a < b ? -1 : 1;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Only surrogates (code points above U+FFFF) sort differently from UTF-16 units.
    if ((x >= 0xd800 && x <= 0xdfff) || (y >= 0xd800 && y <= 0xdfff)) {
      const cx = a.codePointAt(i)!;
      const cy = b.codePointAt(i)!;
      if (cx !== cy) return cx < cy ? -1 : 1;
      continue;
    }
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

function rank(v: FieldValue): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (v === null) return 5;
  return 4;
}

/** structured-merge-diff's value.Compare. */
export function compareValues(a: FieldValue, b: FieldValue): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
      return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
    case 1:
      return compareStrings(a as string, b as string);
    case 2:
      return a === b ? 0 : a === false ? -1 : 1;
    case 3: {
      const x = a as readonly FieldValue[];
      const y = b as readonly FieldValue[];
      for (let i = 0; ; i++) {
        if (i >= x.length && i >= y.length) return 0;
        if (i >= x.length) return -1;
        if (i >= y.length) return 1;
        const c = compareValues(x[i]!, y[i]!);
        if (c !== 0) return c;
      }
    }
    case 4: {
      // Lexical over the sorted keys of both maps.
      const x = a as FieldMap;
      const y = b as FieldMap;
      const keys = [...new Set([...Object.keys(x), ...Object.keys(y)])].sort(compareStrings);
      const lx = Object.keys(x).length;
      const ly = Object.keys(y).length;
      if (lx === 0 && ly === 0) return 0;
      let i = 0;
      for (const k of keys) {
        let c: number;
        if (i === lx) c = -1;
        else if (i === ly) c = 1;
        else if (!(k in x)) c = 1;
        else if (!(k in y)) c = -1;
        else c = compareValues(x[k]!, y[k]!);
        i++;
        if (c !== 0) return c;
      }
      return 0;
    }
    default:
      return 0;
  }
}

export function equalValues(a: FieldValue, b: FieldValue): boolean {
  return compareValues(a, b) === 0;
}

const escapes: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/** A string as Go's encoding/json writes it (HTML-safe). */
export function goJsonString(s: string): string {
  return `"${s.replace(/["\\\n\r\t<>&\u2028\u2029\u0000-\u001f]/g, (c) => escapes[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

/** A value as encoding/json writes it: map keys sorted, HTML characters escaped. */
export function goJson(v: FieldValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return goJsonString(v);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFloat(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[${v.map(goJson).join(',')}]`;
  const m = v as FieldMap;
  const keys = Object.keys(m).sort(compareStrings);
  return `{${keys.map((k) => `${goJsonString(k)}:${goJson(m[k]!)}`).join(',')}}`;
}

/** encoding/json's float text: shortest form, exponent only below 1e-6 or from 1e21. */
function goFloat(f: number): string {
  const abs = Math.abs(f);
  if (abs !== 0 && (abs < 1e-6 || abs >= 1e21)) {
    return f.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  }
  return String(f);
}
