// The CEL strings extension as cel-go v0.12.7 ext/strings.go defines it (the version Kubernetes
// v1.27 includes through library.ExtensionLibs): charAt, indexOf, lastIndexOf, lowerAscii,
// replace, split, substring, trim, upperAscii, join. Positions count code points (Go runes) and
// the error texts are cel-go's. Ours rather than @bufbuild/cel's ext, which follows later
// versions (e.g. split with a limit).
import { celList, celMethod, CelScalar, isCelList, type CelFunc, type CelValue } from '@bufbuild/cel';
import { noSuchOverload } from './errors.js';

const { STRING, INT, DYN } = CelScalar;

function runes(s: string): string[] {
  return Array.from(s);
}

function indexOutOfRange(i: bigint | number): Error {
  return new Error(`index out of range: ${i}`);
}

function charAt(str: string, ind: bigint): string {
  const r = runes(str);
  if (ind < 0n || ind > BigInt(r.length)) throw indexOutOfRange(ind);
  return r[Number(ind)] ?? '';
}

function indexOfOffset(str: string, sub: string, offset: bigint): bigint {
  if (sub === '') return offset;
  const r = runes(str);
  const s = runes(sub);
  if (offset < 0n || offset >= BigInt(r.length)) throw indexOutOfRange(offset);
  for (let i = Number(offset); i < r.length - (s.length - 1); i++) {
    if (s.every((c, j) => r[i + j] === c)) return BigInt(i);
  }
  return -1n;
}

function lastIndexOfOffset(str: string, sub: string, offset: bigint): bigint {
  if (sub === '') return offset;
  const r = runes(str);
  const s = runes(sub);
  if (offset < 0n || offset >= BigInt(r.length)) throw indexOutOfRange(offset);
  let off = Number(offset);
  if (off > r.length - s.length) off = r.length - s.length;
  for (let i = off; i >= 0; i--) {
    if (s.every((c, j) => r[i + j] === c)) return BigInt(i);
  }
  return -1n;
}

function mapAscii(str: string, upper: boolean): string {
  return str.replace(upper ? /[a-z]+/g : /[A-Z]+/g, (m) => (upper ? m.toUpperCase() : m.toLowerCase()));
}

/** Go strings.Replace(s, old, new, n): n < 0 replaces all; an empty `old` matches between runes. */
export function goReplace(str: string, old: string, rep: string, n: bigint): string {
  if (n === 0n || old === rep) return str;
  if (old === '') {
    const r = runes(str);
    let out = '';
    let count = 0n;
    for (let i = 0; i <= r.length; i++) {
      if (n < 0n || count < n) {
        out += rep;
        count++;
      }
      out += r[i] ?? '';
    }
    return out;
  }
  let out = '';
  let from = 0;
  let count = 0n;
  while (n < 0n || count < n) {
    const at = str.indexOf(old, from);
    if (at < 0) break;
    out += str.slice(from, at) + rep;
    from = at + old.length;
    count++;
  }
  return out + str.slice(from);
}

/** Go strings.SplitN: n == 0 gives no substrings, n < 0 all of them, an empty sep splits runes. */
export function goSplitN(str: string, sep: string, n: bigint): string[] {
  if (n === 0n) return [];
  if (sep === '') {
    const r = runes(str);
    if (n < 0n || n >= BigInt(r.length)) return r;
    const k = Number(n);
    return [...r.slice(0, k - 1), r.slice(k - 1).join('')];
  }
  const parts: string[] = [];
  let from = 0;
  while (n < 0n || BigInt(parts.length) < n - 1n) {
    const at = str.indexOf(sep, from);
    if (at < 0) break;
    parts.push(str.slice(from, at));
    from = at + sep.length;
  }
  parts.push(str.slice(from));
  return parts;
}

function substring(str: string, start: bigint, end?: bigint): string {
  const r = runes(str);
  const l = BigInt(r.length);
  if (end === undefined) {
    if (start < 0n || start > l) throw indexOutOfRange(start);
    return r.slice(Number(start)).join('');
  }
  if (start > end) {
    throw new Error(`invalid substring range. start: ${start}, end: ${end}`);
  }
  if (start < 0n || start > l) throw indexOutOfRange(start);
  if (end < 0n || end > l) throw indexOutOfRange(end);
  return r.slice(Number(start), Number(end)).join('');
}

/** Go strings.TrimSpace: unicode.IsSpace (includes U+0085, excludes U+FEFF unlike String.trim). */
const GO_SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000]';
const TRIM = new RegExp(`^${GO_SPACE}+|${GO_SPACE}+$`, 'g');
export function goTrimSpace(str: string): string {
  return str.replace(TRIM, '');
}

function stringItems(list: CelValue): string[] {
  if (!isCelList(list)) throw noSuchOverload();
  const out: string[] = [];
  for (const item of list) {
    if (typeof item !== 'string') throw noSuchOverload();
    out.push(item);
  }
  return out;
}

export const stringsExtension: readonly CelFunc[] = [
  celMethod('charAt', STRING, [INT], STRING, function (i) {
    return charAt(this, i);
  }),
  celMethod('indexOf', STRING, [STRING], INT, function (sub) {
    return indexOfOffset(this, sub, 0n);
  }),
  celMethod('indexOf', STRING, [STRING, INT], INT, function (sub, off) {
    return indexOfOffset(this, sub, off);
  }),
  celMethod('lastIndexOf', STRING, [STRING], INT, function (sub) {
    if (sub === '') return BigInt(runes(this).length);
    return lastIndexOfOffset(this, sub, BigInt(runes(this).length - 1));
  }),
  celMethod('lastIndexOf', STRING, [STRING, INT], INT, function (sub, off) {
    return lastIndexOfOffset(this, sub, off);
  }),
  celMethod('lowerAscii', STRING, [], STRING, function () {
    return mapAscii(this, false);
  }),
  celMethod('upperAscii', STRING, [], STRING, function () {
    return mapAscii(this, true);
  }),
  celMethod('replace', STRING, [STRING, STRING], STRING, function (old, rep) {
    return goReplace(this, old, rep, -1n);
  }),
  celMethod('replace', STRING, [STRING, STRING, INT], STRING, function (old, rep, n) {
    return goReplace(this, old, rep, n);
  }),
  celMethod('split', STRING, [STRING], DYN, function (sep) {
    return celList(goSplitN(this, sep, -1n));
  }),
  celMethod('split', STRING, [STRING, INT], DYN, function (sep, n) {
    return celList(goSplitN(this, sep, n));
  }),
  celMethod('substring', STRING, [INT], STRING, function (start) {
    return substring(this, start);
  }),
  celMethod('substring', STRING, [INT, INT], STRING, function (start, end) {
    return substring(this, start, end);
  }),
  celMethod('trim', STRING, [], STRING, function () {
    return goTrimSpace(this);
  }),
  celMethod('join', DYN, [], STRING, function () {
    return stringItems(this).join('');
  }),
  celMethod('join', DYN, [STRING], STRING, function (sep) {
    return stringItems(this).join(sep);
  }),
];
