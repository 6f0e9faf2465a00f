/**
 * The compare-and-write rules shared by every backend. Each function runs against a synchronous
 * view of the current state (inside the backend's transaction), checks its condition, and on success
 * allocates exactly one revision and applies one event. Failed checks write nothing.
 */
import { KvLeaseNotFoundError } from './errors.js';
import type { CreateResult, DeleteResult, KeyValue, KvEvent, SwapResult } from './types.js';

export interface KvWriteTarget {
  /** The key's current state, including writes applied earlier in the same batch. */
  get(key: string): KeyValue | undefined;
  /** Whether a live lease with this id exists. */
  hasLease(id: number): boolean;
  /** Allocates the next revision (one per successful write). */
  nextRevision(): number;
  /** Records the event in current state and history (revision is `event.kv.modRevision`). */
  apply(event: KvEvent): void;
}

const EMPTY = new Uint8Array(0);

function requireLease(target: KvWriteTarget, lease: number): void {
  if (lease !== 0 && !target.hasLease(lease)) throw new KvLeaseNotFoundError(lease);
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
  const kv: KeyValue = { key, value: EMPTY, createRevision: 0, modRevision: rev, lease: 0 };
  target.apply({ type: 'delete', kv, prevKv: current });
  return { ok: true, revision: rev, prevKv: current };
}
