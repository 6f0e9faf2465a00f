/**
 * The pod-template-hash as upstream v1.27 controller.ComputeHash: FNV-32a over go-spew's `%#v` of
 * the PodTemplateSpec (see spew.ts), then, when the Deployment has a collisionCount, 8 more bytes
 * (the count as a little-endian uint32 and four zero bytes); the decimal Sum32 is encoded with
 * rand.SafeEncodeString.
 */
import type { JsonObject } from '../../util/json.js';
import { spewPodTemplateSpec } from './spew.js';

const fnvOffset = 0x811c9dc5;
const fnvPrime = 0x01000193;

/** FNV-1a, 32 bits, continuing from `h`. */
export function fnv32a(bytes: Uint8Array, h: number = fnvOffset): number {
  let x = h;
  for (const b of bytes) {
    x ^= b;
    x = Math.imul(x, fnvPrime) >>> 0;
  }
  return x >>> 0;
}

/** Upstream rand.SafeEncodeString's alphabet (no vowels, no look-alike digits). */
const alphanums = 'bcdfghjklmnpqrstvwxz2456789';

/** Upstream rand.SafeEncodeString: each character mapped to alphanums[code % 27]. */
export function safeEncodeString(s: string): string {
  let out = '';
  for (const ch of s) out += alphanums[ch.codePointAt(0)! % alphanums.length]!;
  return out;
}

/** Upstream controller.ComputeHash(template, collisionCount). */
export function computeHash(template: JsonObject, collisionCount?: number): string {
  let h = fnv32a(Buffer.from(spewPodTemplateSpec(template), 'utf8'));
  if (collisionCount !== undefined) {
    const extra = new Uint8Array(8);
    new DataView(extra.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv32a(extra, h);
  }
  return safeEncodeString(String(h));
}
