/**
 * JSON bodies damaged at the text level: truncated, garbage bytes inserted, nested thousands of
 * levels deep, duplicate keys, a byte order mark, invalid UTF-8, numbers no float holds, and
 * sizes around the 3 MiB request limit. Each says whether the result can still be valid.
 */
import { bytes, text } from './case.js';
import type { BodyPart, FuzzCase } from './case.js';
import type { Prng } from './prng.js';
import type { JsonMap } from './targets.js';
import { oddNumberTexts } from './values.js';

export interface Body {
  readonly parts: readonly BodyPart[];
  readonly expect: FuzzCase['expect'];
  readonly what: string;
}

/** The request body limit (kube-apiserver's 3 MiB). */
export const maxRequestBytes = 3 * 1024 * 1024;

const invalidUtf8: readonly number[][] = [
  [0xff],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xe2, 0x82],
  [0xf4, 0x90, 0x80, 0x80],
  [0x80],
];

/** `obj` as JSON text with one of `n` places changed (at a string value or a key). */
function splice(s: string, at: number, insert: string, remove = 0): string {
  return s.slice(0, at) + insert + s.slice(at + remove);
}

export function jsonBody(obj: JsonMap): Body {
  return { parts: [text(JSON.stringify(obj))], expect: 'any', what: 'json' };
}

export function damagedJson(rng: Prng, obj: JsonMap): Body {
  const s = JSON.stringify(obj);
  return rng.weighted<() => Body>([
    [
      3,
      () => ({
        parts: [text(s.slice(0, rng.int(1, s.length - 1)))],
        expect: 'invalid',
        what: 'truncated',
      }),
    ],
    [
      3,
      () => ({
        parts: [
          text(
            splice(
              s,
              rng.int(0, s.length),
              rng.pick(['{', '}', '[', ']', ',', ':', '"', '\\', 'x', 'null', ',,', '\u0000', '/*c*/', "'"]),
            ),
          ),
        ],
        expect: 'any',
        what: 'garbage inserted',
      }),
    ],
    [
      2,
      () => {
        // A duplicate of the first key (apiVersion or kind), or of a key in a nested map.
        const key = rng.pick(['"apiVersion"', '"kind"', '"metadata"', '"spec"', '"name"']);
        const at = s.indexOf(key);
        if (at < 0) return { parts: [text(s)], expect: 'any', what: 'no duplicate' };
        const value = rng.pick(['"v1"', '"Other"', '{}', '5', 'null', '[]']);
        return { parts: [text(splice(s, at, `${key}:${value},`))], expect: 'any', what: 'duplicate key' };
      },
    ],
    [
      2,
      () => {
        const bad = rng.pick(invalidUtf8);
        const quote = s.indexOf('"', rng.int(0, s.length - 1));
        const at = quote < 0 ? 1 : quote + 1;
        const pre = Buffer.from(s.slice(0, at), 'utf8');
        const post = Buffer.from(s.slice(at), 'utf8');
        return {
          parts: [bytes(Buffer.concat([pre, Buffer.from(bad), post]))],
          expect: 'any',
          what: 'invalid UTF-8',
        };
      },
    ],
    [1, () => ({ parts: [bytes(Uint8Array.of(0xef, 0xbb, 0xbf)), text(s)], expect: 'any', what: 'BOM' })],
    [
      1,
      () => ({
        parts: [bytes(Uint8Array.of(0xfe, 0xff)), bytes(Buffer.from(s, 'utf16le'))],
        expect: 'any',
        what: 'UTF-16',
      }),
    ],
    [
      2,
      () => {
        // A number no float64 or int64 holds where the schema wants an integer.
        const m = /:(-?\d+(?:\.\d+)?)([,}\]])/.exec(s);
        if (m === null)
          return {
            parts: [text(splice(s, 1, `"n":${rng.pick(oddNumberTexts)},`))],
            expect: 'any',
            what: 'odd number',
          };
        return {
          parts: [text(splice(s, m.index + 1, rng.pick(oddNumberTexts), (m[1] ?? '').length))],
          expect: 'any',
          what: 'odd number',
        };
      },
    ],
    [2, () => deepNesting(rng, s)],
    [1, () => hugeString(rng, s)],
    [1, () => hugeMap(rng, s)],
    [
      2,
      () => ({
        parts: [
          text(
            rng.pick([
              '',
              ' ',
              'null',
              '[]',
              '42',
              '"s"',
              'true',
              '{',
              '}',
              '{}{}',
              '{"a":1}x',
              '\u0000',
              'NaN',
              '{"kind":}',
              '{,}',
            ]),
          ),
        ],
        expect: 'any',
        what: 'not an object',
      }),
    ],
  ])();
}

/** `levels` of objects or lists inside one field of the object. */
function deepNesting(rng: Prng, s: string): Body {
  const levels = rng.pick([100, 1000, 9999, 10_001, 50_000, 200_000]);
  const list = rng.chance(0.5);
  const open = list ? '[' : '{"a":';
  const close = list ? ']' : '}';
  const unbalanced = rng.chance(0.2);
  const at = s.length - 1;
  return {
    parts: [
      text(`${s.slice(0, at)},"deep":`),
      text(open, levels),
      text(list ? '1' : '{}'),
      text(close, unbalanced ? levels - 1 : levels),
      text(s.slice(at)),
    ],
    expect: unbalanced ? 'invalid' : 'any',
    what: `nested ${levels}${unbalanced ? ' unbalanced' : ''}`,
  };
}

/** A string value near or past the request limit. */
function hugeString(rng: Prng, s: string): Body {
  const target = rng.pick([1024 * 1024, maxRequestBytes - 100, maxRequestBytes + 1, maxRequestBytes * 2]);
  const prefix = `{"apiVersion":"v1","kind":"ConfigMap","pad":"`;
  const over = target > maxRequestBytes;
  const rest = `",${s.slice(1)}`;
  const n = Math.max(0, target - prefix.length - rest.length);
  return {
    parts: [text(prefix), text('x', n), text(rest)],
    expect: over ? 'invalid' : 'any',
    what: `huge string ${target}`,
  };
}

/** A map with many keys. */
function hugeMap(rng: Prng, s: string): Body {
  const n = rng.pick([1000, 50_000, 150_000]);
  const entries: string[] = [];
  for (let i = 0; i < n; i++) entries.push(`"k${i}":"v"`);
  const at = s.length - 1;
  return {
    parts: [text(`${s.slice(0, at)},"data":{${entries.join(',')}}${s.slice(at)}`)],
    expect: 'any',
    what: `map of ${n}`,
  };
}
