/**
 * The compare-and-write rules shared by every backend. Each function runs against a synchronous
 * view of the current state (inside the backend's transaction), checks its condition, and on success
 * allocates exactly one revision and applies its events. Failed checks write nothing. (Multi-key
 * transactions are in txn-ops.ts; these single-key paths stay separate because they are the hot ones.)
 */
import { KvLeaseNotFoundError } from './errors.js';
import type { CreateResult, DeleteResult, KeyValue, KvEvent, SwapResult } from './types.js';

export interface KvWriteTarget {
  /** The key's current state, including writes applied earlier in the same batch. */
  get(key: string): KeyValue | undefined;
  /** Whether a live lease with this id exists. */
  hasLease(id: number): boolean;
  /** Allocates the next revision (one per successful write or transaction). */
  nextRevision(): number;
  /** Records the event in current state and history (revision is `event.kv.modRevision`). */
  apply(event: KvEvent): void;
}

const EMPTY = new Uint8Array(0);

/** Throws KvLeaseNotFoundError unless `lease` is 0 (none) or a live lease. */
export function requireLease(target: KvWriteTarget, lease: number): void {
  if (lease !== 0 && !target.hasLease(lease)) throw new KvLeaseNotFoundError(lease);
}

/** The event deleting `current` at `rev`. */
export function deletion(current: KeyValue, rev: number): KvEvent {
  const kv: KeyValue = { key: current.key, value: EMPTY, createRevision: 0, modRevision: rev, lease: 0 };
  return { type: 'delete', kv, prevKv: current };
}

export function createKey(
  target: KvWriteTarget,
  key: string,
  value: Uint8Array,
  lease: number,
): CreateResult {
  const current = target.get(key);
  if (current !== undefined) return { ok: false, current };
  requireLease(target, lease);
  const rev = target.nextRevision();
  const kv: KeyValue = { key, value, createRevision: rev, modRevision: rev, lease };
  target.apply({ type: 'put', kv });
  return { ok: true, kv };
}

export function updateKey(
  target: KvWriteTarget,
  key: string,
  value: Uint8Array,
  expectedModRevision: number,
  lease: number,
): SwapResult {
  const current = target.get(key);
  if (current === undefined) return { ok: false };
  if (current.modRevision !== expectedModRevision) return { ok: false, current };
  requireLease(target, lease);
  const rev = target.nextRevision();
  const kv: KeyValue = { key, value, createRevision: current.createRevision, modRevision: rev, lease };
  target.apply({ type: 'put', kv, prevKv: current });
  return { ok: true, kv, prevKv: current };
}

export function deleteKey(target: KvWriteTarget, key: string, expectedModRevision?: number): DeleteResult {
  const current = target.get(key);
  if (current === undefined) return { ok: false };
  if (expectedModRevision !== undefined && current.modRevision !== expectedModRevision) {
    return { ok: false, current };
  }
  const rev = target.nextRevision();
  target.apply(deletion(current, rev));
  return { ok: true, revision: rev, prevKv: current };
}

/**
 * Deletes those of `keys` that exist, all at one new revision (lease revocation, like etcd); writes
 * nothing and allocates no revision when none exists.
 */
export function deleteKeys(target: KvWriteTarget, keys: readonly string[]): void {
  let rev = 0;
  for (const key of keys) {
    const current = target.get(key);
    if (current === undefined) continue;
    if (rev === 0) rev = target.nextRevision();
    target.apply(deletion(current, rev));
  }
}
