/**
 * Upstream's AES transformers (pkg/storage/value/encrypt/aes) over node:crypto.
 * GCM: 12-byte random nonce, then the sealed data (ciphertext and 16-byte tag), the storage key
 * as additional authenticated data. CBC: 16-byte random IV, then the PKCS#7-padded ciphertext (no
 * authentication, no authenticated data).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { FromStorage, Transformer } from '../transformer.js';
import { TransformError } from '../transformer.js';

const gcmNonceSize = 12;
const gcmTagSize = 16;
const blockSize = 16;

type GcmAlgorithm = 'aes-128-gcm' | 'aes-192-gcm' | 'aes-256-gcm';
type CbcAlgorithm = 'aes-128-cbc' | 'aes-192-cbc' | 'aes-256-cbc';

/** Key length in bits, as Go's aes.NewCipher accepts them (16, 24 or 32 bytes). */
function keyBits(key: Uint8Array): 128 | 192 | 256 {
  if (key.byteLength === 16) return 128;
  if (key.byteLength === 24) return 192;
  if (key.byteLength === 32) return 256;
  // Go's aes.KeySizeError.
  throw new TransformError(`crypto/aes: invalid key size ${key.byteLength}`);
}

/** Produces a GCM nonce; upstream's KMS v2 DEKs use random bytes plus a counter. */
export type NonceSource = (nonce: Uint8Array) => void;

const randomNonce: NonceSource = (nonce) => {
  nonce.set(randomBytes(nonce.byteLength));
};

export class GcmTransformer implements Transformer {
  readonly #key: Buffer;
  readonly #algorithm: GcmAlgorithm;
  readonly #nonce: NonceSource;

  constructor(key: Uint8Array, nonce: NonceSource = randomNonce) {
    this.#algorithm = `aes-${keyBits(key)}-gcm`;
    this.#key = Buffer.from(key);
    this.#nonce = nonce;
  }

  fromStorage(data: Uint8Array, authenticatedData: Uint8Array): Promise<FromStorage> {
    if (data.byteLength < gcmNonceSize) {
      return Promise.reject(new TransformError('the stored data was shorter than the required size'));
    }
    const sealed = data.subarray(gcmNonceSize);
    if (sealed.byteLength < gcmTagSize) {
      return Promise.reject(new TransformError('cipher: message authentication failed'));
    }
    try {
      const decipher = createDecipheriv(this.#algorithm, this.#key, data.subarray(0, gcmNonceSize), {
        authTagLength: gcmTagSize,
      });
      decipher.setAAD(authenticatedData);
      decipher.setAuthTag(sealed.subarray(sealed.byteLength - gcmTagSize));
      const out = Buffer.concat([
        decipher.update(sealed.subarray(0, sealed.byteLength - gcmTagSize)),
        decipher.final(),
      ]);
      return Promise.resolve({ data: out, stale: false });
    } catch {
      return Promise.reject(new TransformError('cipher: message authentication failed'));
    }
  }

  toStorage(data: Uint8Array, authenticatedData: Uint8Array): Promise<Uint8Array> {
    const nonce = new Uint8Array(gcmNonceSize);
    this.#nonce(nonce);
    const cipher = createCipheriv(this.#algorithm, this.#key, nonce, { authTagLength: gcmTagSize });
    cipher.setAAD(authenticatedData);
    const body = Buffer.concat([cipher.update(data), cipher.final()]);
    return Promise.resolve(Buffer.concat([nonce, body, cipher.getAuthTag()]));
  }
}

export class CbcTransformer implements Transformer {
  readonly #key: Buffer;
  readonly #algorithm: CbcAlgorithm;

  constructor(key: Uint8Array) {
    this.#algorithm = `aes-${keyBits(key)}-cbc`;
    this.#key = Buffer.from(key);
  }

  fromStorage(data: Uint8Array): Promise<FromStorage> {
    if (data.byteLength < blockSize) {
      return Promise.reject(new TransformError('the stored data was shorter than the required size'));
    }
    const body = data.subarray(blockSize);
    if (body.byteLength % blockSize !== 0) {
      return Promise.reject(new TransformError('the stored data is not a multiple of the block size'));
    }
    const decipher = createDecipheriv(this.#algorithm, this.#key, data.subarray(0, blockSize));
    decipher.setAutoPadding(false);
    const result = Buffer.concat([decipher.update(body), decipher.final()]);
    const pad = result.byteLength === 0 ? 0 : result[result.byteLength - 1]!;
    const size = result.byteLength - pad;
    if (pad === 0 || pad > result.byteLength) {
      return Promise.reject(new TransformError('invalid PKCS7 data (empty or not padded)'));
    }
    for (let i = 0; i < pad; i++) {
      if (result[size + i] !== pad) return Promise.reject(new TransformError('invalid padding on input'));
    }
    return Promise.resolve({ data: result.subarray(0, size), stale: false });
  }

  toStorage(data: Uint8Array): Promise<Uint8Array> {
    const pad = blockSize - (data.byteLength % blockSize);
    const iv = randomBytes(blockSize);
    const cipher = createCipheriv(this.#algorithm, this.#key, iv);
    cipher.setAutoPadding(false);
    const padded = Buffer.concat([data, Buffer.alloc(pad, pad)]);
    return Promise.resolve(Buffer.concat([iv, cipher.update(padded), cipher.final()]));
  }
}
