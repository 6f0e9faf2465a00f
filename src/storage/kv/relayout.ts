/**
 * Moves keys from one prefix to another inside a store (`nanokube serve` bringing a data dir
 * written with nanokube's first key layout to kube-apiserver's, see registry/generic/keys.ts).
 * Each key moves in one transaction with its old copy's deletion, compared on its revision, so a
 * crash half-way leaves every object in exactly one place and the next start moves the rest.
 * Values are written through the store given: under encryption at rest they are decrypted with
 * the old key and sealed again with the new one (the key is authenticated data). Leases stay.
 */
import type { KeyValue, KvStore } from './types.js';
import { prefixEnd } from './types.js';

export interface KeyMove {
  /** Every key under this prefix… */
  readonly from: string;
  /** …moves to the same place under this one. */
  readonly to: string;
}

/** Keys moved per transaction. */
const batch = 64;

/**
 * Applies `moves` and answers how many keys moved. Keys are read a page at a time at the revision
 * before the first write, so memory stays bounded and a move never sees keys a move wrote, even
 * where a target lies under a source (services → services/specs).
 */
export async function moveKeys(
  kv: KvStore,
  moves: readonly KeyMove[],
  o: { readonly signal?: AbortSignal; readonly pageSize?: number } = {},
): Promise<number> {
  const at = await kv.currentRevision();
  const pageSize = o.pageSize ?? 512;
  let moved = 0;
  for (const move of moves) {
    const end = prefixEnd(move.from);
    for (let start = move.from; ;) {
      const page = await kv.range({ key: start, end, limit: pageSize, ...(at > 0 ? { revision: at } : {}) });
      moved += await moveBatches(kv, move, page.kvs, o.signal);
      const last = page.kvs[page.kvs.length - 1];
      if (!page.more || last === undefined) break;
      start = `${last.key}\u0000`;
    }
  }
  return moved;
}

/** Moves `kvs` (as read at one revision) in transactions of `batch` keys. */
async function moveBatches(
  kv: KvStore,
  move: KeyMove,
  kvs: readonly KeyValue[],
  signal: AbortSignal | undefined,
): Promise<number> {
  let moved = 0;
  for (let i = 0; i < kvs.length; i += batch) {
    signal?.throwIfAborted();
    const chunk = kvs.slice(i, i + batch);
    const r = await kv.txn({
      compare: chunk.flatMap((k) => [
        { key: k.key, target: 'mod' as const, operator: '=' as const, value: k.modRevision },
        {
          key: move.to + k.key.slice(move.from.length),
          target: 'create' as const,
          operator: '=' as const,
          value: 0,
        },
      ]),
      success: chunk.flatMap((k) => [
        {
          type: 'put' as const,
          key: move.to + k.key.slice(move.from.length),
          value: k.value,
          ...(k.lease !== 0 ? { lease: k.lease } : {}),
        },
        { type: 'delete' as const, key: k.key },
      ]),
    });
    if (!r.succeeded)
      throw new Error(
        `moving keys from ${move.from} to ${move.to}: a key changed meanwhile or its new place is taken`,
      );
    moved += chunk.length;
  }
  return moved;
}
