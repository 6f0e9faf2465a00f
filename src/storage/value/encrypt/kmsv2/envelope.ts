/**
 * KMS v2 envelope encryption (upstream kmsv2.envelopeTransformer, v1.27): objects are sealed with
 * AES-GCM under a data encryption key (DEK) the server generated; the plugin encrypted the DEK once
 * (`Encrypt`), and the stored EncryptedObject carries the encrypted DEK and the plugin's key ID.
 * Reads look the DEK up in a cache keyed by (encrypted DEK, key ID, annotations) and ask the plugin
 * to `Decrypt` it only on a miss. A value written under another key ID than the plugin's current
 * one reads as stale, so updates rewrite it under the current key.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '../../../../util/clock.js';
import type { FromStorage, Transformer } from '../../transformer.js';
import { TransformError } from '../../transformer.js';
import { GcmTransformer } from '../aes.js';
import type { NonceSource } from '../aes.js';
import { decodeEncryptedObject, dekCacheKey, encodeEncryptedObject } from './encrypted-object.js';
import type { EncryptedObject } from './encrypted-object.js';
import type { KmsService } from './grpc-service.js';

/** The DEK writes use, as the latest successful Status/Encrypt left it. */
export interface DekState {
  readonly transformer: Transformer;
  readonly encryptedDEK: Uint8Array;
  readonly keyID: string;
  readonly annotations: ReadonlyMap<string, Uint8Array>;
  readonly uid: string;
  /** Writes are refused after this (ms since the epoch); reads are not. */
  readonly expiresAt: number;
  readonly cacheKey: string;
}

/** Returns the current state or throws why there is none. */
export type StateFunc = () => DekState;

/** Upstream's DEK cache TTL. */
const cacheTTLms = 24 * 60 * 60 * 1000;

/** Go's time.Format(time.RFC3339) in UTC. */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Upstream's expiring cache of decrypting transformers, keyed by the DEK cache key. */
class DekCache {
  readonly #entries = new Map<string, { readonly transformer: Transformer; readonly until: number }>();
  readonly #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  get(key: string): Transformer | undefined {
    const e = this.#entries.get(key);
    if (e === undefined) return undefined;
    if (this.#clock.now() >= e.until) {
      this.#entries.delete(key);
      return undefined;
    }
    return e.transformer;
  }

  set(key: string, transformer: Transformer): void {
    const now = this.#clock.now();
    for (const [k, e] of this.#entries) if (now >= e.until) this.#entries.delete(k);
    this.#entries.set(key, { transformer, until: now + cacheTTLms });
  }

  get size(): number {
    return this.#entries.size;
  }
}

export class EnvelopeTransformer implements Transformer {
  readonly #service: KmsService;
  readonly #state: StateFunc;
  readonly #cache: DekCache;
  readonly #clock: Clock;
  readonly #pending = new Map<string, Promise<Transformer>>();

  constructor(options: { readonly service: KmsService; readonly state: StateFunc; readonly clock: Clock }) {
    this.#service = options.service;
    this.#state = options.state;
    this.#clock = options.clock;
    this.#cache = new DekCache(options.clock);
  }

  /** DEKs held for reads (for tests and metrics). */
  get cachedDEKs(): number {
    return this.#cache.size;
  }

  async fromStorage(data: Uint8Array, authenticatedData: Uint8Array): Promise<FromStorage> {
    const obj = decodeEncryptedObject(data);
    const state = this.#state();
    const key = dekCacheKey(obj.encryptedDEK, obj.keyID, obj.annotations);
    const transformer = this.#cache.get(key) ?? (await this.#decryptDek(key, obj));
    const out = await transformer.fromStorage(obj.encryptedData, authenticatedData);
    return { data: out.data, stale: out.stale || obj.keyID !== state.keyID };
  }

  /** Asks the plugin for a DEK once, however many reads miss the cache for it at the same time. */
  #decryptDek(key: string, obj: EncryptedObject): Promise<Transformer> {
    const pending = this.#pending.get(key);
    if (pending !== undefined) return pending;
    const p = this.#service
      .decrypt(randomUUID(), { ciphertext: obj.encryptedDEK, keyId: obj.keyID, annotations: obj.annotations })
      .then(
        (dek) => {
          const t = new GcmTransformer(dek);
          this.#cache.set(key, t);
          return t;
        },
        (err: unknown) => {
          throw new TransformError(
            `failed to decrypt DEK, error: ${err instanceof Error ? err.message : String(err)}`,
          );
        },
      )
      .finally(() => this.#pending.delete(key));
    this.#pending.set(key, p);
    return p;
  }

  async toStorage(data: Uint8Array, authenticatedData: Uint8Array): Promise<Uint8Array> {
    const state = this.#state();
    const now = this.#clock.now();
    if (now > state.expiresAt) {
      throw new TransformError(
        `EDEK with keyID "${state.keyID}" expired at ${rfc3339(state.expiresAt)} (current time is ${rfc3339(now)})`,
      );
    }
    this.#cache.set(state.cacheKey, state.transformer);
    const encryptedData = await state.transformer.toStorage(data, authenticatedData);
    return encodeEncryptedObject({
      keyID: state.keyID,
      encryptedDEK: state.encryptedDEK,
      encryptedData,
      annotations: state.annotations,
    });
  }
}

/**
 * Upstream NewGCMTransformerWithUniqueKeyUnsafe's nonces: 4 random bytes, then a little-endian
 * counter starting above 1e9, so one DEK never repeats a nonce.
 */
function counterNonce(): NonceSource {
  const zero = 1_000_000_000n;
  let counter = zero;
  return (nonce) => {
    counter += 1n;
    if (counter > 0xffffffffffffffffn)
      throw new TransformError('aes-gcm detected nonce overflow - cryptographic wear out has occurred');
    const random = nonce.byteLength - 8;
    nonce.set(randomBytes(random), 0);
    Buffer.from(nonce.buffer, nonce.byteOffset, nonce.byteLength).writeBigUInt64LE(counter, random);
  };
}

/** A new DEK sealed by the plugin (upstream GenerateTransformer). */
export async function generateDek(
  service: KmsService,
  uid: string,
): Promise<{
  transformer: Transformer;
  keyID: string;
  encryptedDEK: Uint8Array;
  annotations: ReadonlyMap<string, Uint8Array>;
  cacheKey: string;
}> {
  const key = randomBytes(32);
  const transformer = new GcmTransformer(key, counterNonce());
  let resp;
  try {
    resp = await service.encrypt(uid, key);
  } catch (err) {
    throw new TransformError(
      `failed to encrypt DEK, error: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  // Any non-empty data passes validation; the rest is the plugin's answer.
  encodeEncryptedObject({
    keyID: resp.keyId,
    encryptedDEK: resp.ciphertext,
    encryptedData: new Uint8Array([0]),
    annotations: resp.annotations,
  });
  return {
    transformer,
    keyID: resp.keyId,
    encryptedDEK: resp.ciphertext,
    annotations: resp.annotations,
    cacheKey: dekCacheKey(resp.ciphertext, resp.keyId, resp.annotations),
  };
}
