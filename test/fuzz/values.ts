/** Random JSON values and strings: the wrong types, extreme numbers and odd texts fields get. */
import type { Prng } from './prng.js';
import type { Json, JsonMap } from './targets.js';

/** Strings that stress names, quantities, selectors, times and paths. */
export const oddStrings: readonly string[] = [
  '',
  ' ',
  'a',
  'A',
  '-',
  '.',
  '..',
  '../../etc/passwd',
  '/',
  'a/b',
  'a%2Fb',
  'ünïcødé',
  '\u0000',
  '\u0007bell',
  '\ud800',
  '\uffff',
  '😀',
  'a'.repeat(64),
  'a'.repeat(254),
  'a'.repeat(300),
  '1Qi',
  '1e400',
  '-1',
  '0',
  '9223372036854775808',
  'NaN',
  'Infinity',
  '100m',
  '1.5Gi',
  '2024-13-45T99:99:99Z',
  '2024-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  'null',
  'true',
  '{}',
  '[]',
  '$patch',
  'k8s.io/a',
  'x=y,z!=w',
  'a in (b, c',
  '*',
  'self.x == 1',
  '\r\n',
  '<script>',
  '%',
  '${HOME}',
];

export const oddNumbers: readonly number[] = [
  0, -0, -1, 1, 0.5, -0.5, 2147483647, 2147483648, -2147483649, 9007199254740991, 9007199254740992, 1e21,
  1e308, -1e308, 5e-324,
];

/** Number texts JSON.stringify cannot write (for text-level bodies). */
export const oddNumberTexts: readonly string[] = [
  '1e400',
  '-1e400',
  '-0',
  '99999999999999999999999999999',
  '-99999999999999999999999999999',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775809',
  '1.0',
  '1E2',
  '0.0000000000000000000000001',
  '1e-400',
  '18446744073709551616',
];

export function randomString(rng: Prng): string {
  return rng.weighted<() => string>([
    [6, () => rng.pick(oddStrings)],
    [2, () => rng.string(rng.int(1, 20))],
    [1, () => rng.string(rng.int(1000, 70_000))],
    [
      1,
      () =>
        String.fromCodePoint(
          ...Array.from({ length: rng.int(1, 8) }, () => rng.int(0, 0x10ffff)).filter(
            (c) => c < 0xd800 || c > 0xdfff,
          ),
        ),
    ],
  ])();
}

/** A random JSON value, at most `depth` levels deep. */
export function randomValue(rng: Prng, depth = 3): Json {
  return rng.weighted<() => Json>([
    [2, () => null],
    [2, () => rng.chance(0.5)],
    [4, () => rng.pick(oddNumbers)],
    [5, () => randomString(rng)],
    [depth > 0 ? 2 : 0, () => Array.from({ length: rng.int(0, 4) }, () => randomValue(rng, depth - 1))],
    [depth > 0 ? 2 : 0, () => randomMap(rng, depth - 1, rng.int(0, 4))],
  ])();
}

export function randomMap(rng: Prng, depth: number, size: number): JsonMap {
  const out: JsonMap = {};
  for (let i = 0; i < size; i++)
    out[rng.chance(0.5) ? rng.pick(oddStrings) : rng.string(rng.int(1, 12))] = randomValue(rng, depth);
  return out;
}

/** Percent-encodes `s` as UTF-8 (a lone surrogate becomes U+FFFD, where encodeURIComponent throws). */
export function enc(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
