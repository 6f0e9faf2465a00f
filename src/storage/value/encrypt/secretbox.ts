/**
 * Upstream's secretbox transformer (NaCl XSalsa20-Poly1305, pkg/storage/value/encrypt/secretbox):
 * a 24-byte random nonce, then the box (16-byte tag and ciphertext). No authenticated data.
 */
import { randomBytes } from 'node:crypto';
import { secretbox } from '@noble/ciphers/salsa.js';
import type { FromStorage, Transformer } from '../transformer.js';
import { TransformError } from '../transformer.js';

const nonceSize = 24;
const overhead = 16;

export class SecretboxTransformer implements Transformer {
  readonly #key: Uint8Array;

  constructor(key: Uint8Array) {
    if (key.byteLength !== 32)
      throw new TransformError(`expected key size 32 for secretbox provider, got ${key.byteLength}`);
    this.#key = Uint8Array.from(key);
  }

  fromStorage(data: Uint8Array): Promise<FromStorage> {
    if (data.byteLength < overhead + nonceSize) {
      return Promise.reject(new TransformError('the stored data was shorter than the required size'));
    }
    try {
      const out = secretbox(this.#key, data.slice(0, nonceSize)).open(data.slice(nonceSize));
      return Promise.resolve({ data: out, stale: false });
    } catch {
      // Upstream's message for a box that does not open.
      return Promise.reject(new TransformError('output array was not large enough for encryption'));
    }
  }

  toStorage(data: Uint8Array): Promise<Uint8Array> {
    const nonce = Uint8Array.from(randomBytes(nonceSize));
    const box = secretbox(this.#key, nonce).seal(Uint8Array.from(data));
    return Promise.resolve(Buffer.concat([nonce, box]));
  }
}
