/**
 * Value transformers (upstream k8s.io/apiserver pkg/storage/value): what turns the bytes the object
 * codec produced into the bytes the key-value store keeps, and back. Encryption at rest is a list
 * of providers each behind its prefix: writes use the first, reads pick the one whose prefix the
 * stored bytes carry, and a read by any but the first reports the value as stale so the next
 * update rewrites it with the first.
 */

export interface FromStorage {
  readonly data: Uint8Array;
  /** The value was not written by the current write provider (or key): rewrite it on update. */
  readonly stale: boolean;
}

/**
 * `authenticatedData` is the storage key's bytes; AEAD providers bind the ciphertext to it, so a
 * value copied to another key does not decrypt.
 */
export interface Transformer {
  fromStorage(data: Uint8Array, authenticatedData: Uint8Array): Promise<FromStorage>;
  toStorage(data: Uint8Array, authenticatedData: Uint8Array): Promise<Uint8Array>;
}

/** A transformation that failed; the message is upstream's. */
export class TransformError extends Error {
  override readonly name = 'TransformError';
}

export interface PrefixTransformer {
  readonly prefix: Uint8Array;
  readonly transformer: Transformer;
}

export function hasPrefix(data: Uint8Array, prefix: Uint8Array): boolean {
  if (data.byteLength < prefix.byteLength) return false;
  for (let i = 0; i < prefix.byteLength; i++) if (data[i] !== prefix[i]) return false;
  return true;
}

export function concatBytes(...parts: readonly Uint8Array[]): Uint8Array {
  return Buffer.concat(parts);
}

/**
 * Upstream `errors.Reduce(errors.NewAggregate(errs))`: one error as itself, several as
 * `[a, b]`.
 */
export function reduceErrors(errs: readonly Error[]): Error | undefined {
  if (errs.length === 0) return undefined;
  if (errs.length === 1) return errs[0];
  return new TransformError(`[${errs.map((e) => e.message).join(', ')}]`);
}

/**
 * Upstream `value.NewPrefixTransformers`: reads try every transformer whose prefix the data
 * carries, in order (an empty prefix, identity, is skipped when it fails); writes use the first.
 */
export class PrefixTransformers implements Transformer {
  readonly #transformers: readonly PrefixTransformer[];
  readonly #noMatch: string;

  constructor(noMatch: string, transformers: readonly PrefixTransformer[]) {
    if (transformers.length === 0) throw new Error('PrefixTransformers needs at least one transformer');
    this.#noMatch = noMatch;
    this.#transformers = transformers;
  }

  async fromStorage(data: Uint8Array, authenticatedData: Uint8Array): Promise<FromStorage> {
    const errs: Error[] = [];
    for (let i = 0; i < this.#transformers.length; i++) {
      const t = this.#transformers[i]!;
      if (!hasPrefix(data, t.prefix)) continue;
      try {
        const out = await t.transformer.fromStorage(data.subarray(t.prefix.byteLength), authenticatedData);
        return { data: out.data, stale: out.stale || i !== 0 };
      } catch (err) {
        if (t.prefix.byteLength === 0) continue;
        errs.push(err instanceof Error ? err : new TransformError(String(err)));
      }
    }
    const reduced = reduceErrors(errs);
    if (reduced !== undefined) throw reduced;
    throw new TransformError(this.#noMatch);
  }

  async toStorage(data: Uint8Array, authenticatedData: Uint8Array): Promise<Uint8Array> {
    const first = this.#transformers[0]!;
    const out = await first.transformer.toStorage(data, authenticatedData);
    return concatBytes(first.prefix, out);
  }
}
