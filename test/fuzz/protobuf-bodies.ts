/**
 * Protobuf bodies (`application/vnd.kubernetes.protobuf`): random bytes, the `k8s\0` magic with
 * garbage, valid encodings truncated or with bytes flipped, the envelope of another kind, and
 * length prefixes far past the end.
 */
import { builtinProtobuf } from '../../src/apis/protobuf.js';
import { bytes } from './case.js';
import type { Body } from './bodies.js';
import type { Prng } from './prng.js';
import type { JsonMap } from './targets.js';

const magic = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

function encodeOrNull(obj: JsonMap): Uint8Array | undefined {
  try {
    return builtinProtobuf.encode(obj);
  } catch {
    return undefined;
  }
}

function concat(...parts: Uint8Array[]): Uint8Array {
  return Buffer.concat(parts.map((p) => Buffer.from(p)));
}

export function protobufBody(rng: Prng, obj: JsonMap): Body {
  const valid = encodeOrNull(obj);
  return rng.weighted<() => Body>([
    [2, () => ({ parts: [bytes(rng.bytes(rng.int(0, 200)))], expect: 'invalid', what: 'random bytes' })],
    [
      3,
      () => ({
        parts: [bytes(concat(magic, rng.bytes(rng.int(0, 200))))],
        expect: 'any',
        what: 'magic + garbage',
      }),
    ],
    [
      3,
      () =>
        valid === undefined
          ? { parts: [bytes(magic)], expect: 'invalid', what: 'magic only' }
          : {
              parts: [bytes(valid.subarray(0, rng.int(0, valid.length - 1)))],
              expect: 'any',
              what: 'truncated',
            },
    ],
    [
      3,
      () => {
        if (valid === undefined) return { parts: [bytes(magic)], expect: 'invalid', what: 'magic only' };
        const copy = Uint8Array.from(valid);
        for (let i = rng.int(1, 4); i > 0; i--) {
          const at = rng.int(magic.length, copy.length - 1);
          copy[at] = rng.chance(0.5) ? rng.next() & 0xff : 0xff;
        }
        return { parts: [bytes(copy)], expect: 'any', what: 'bytes flipped' };
      },
    ],
    [
      1,
      () => {
        const other = encodeOrNull({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'fz-other' } });
        return { parts: [bytes(other ?? magic)], expect: 'any', what: 'another kind' };
      },
    ],
    [
      2,
      () => {
        // An envelope whose length prefix claims far more bytes than follow.
        const huge = rng.pick([
          Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x0f),
          Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01),
          Uint8Array.of(0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80),
        ]);
        return {
          parts: [bytes(concat(magic, Uint8Array.of(rng.pick([0x0a, 0x12, 0x1a])), huge, rng.bytes(8)))],
          expect: 'any',
          what: 'length past the end',
        };
      },
    ],
    [
      1,
      () => ({ parts: [bytes(concat(magic, Uint8Array.of(0x12, 0x00)))], expect: 'any', what: 'empty raw' }),
    ],
  ])();
}
