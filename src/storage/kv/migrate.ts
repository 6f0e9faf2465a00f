/**
 * Copies a whole keyspace from one KvStore into another, empty one: `nanokube storage migrate`.
 * Values move as stored (an encrypted value stays encrypted under the same key path), and keys on
 * a lease get a lease that ends when theirs would have.
 *
 * A store that can restore a snapshot (SQLite, memory) gets every key with its revisions exactly.
 * etcd assigns revisions itself, so into etcd the keys are written one at a time in the order of
 * their modRevision: each object's resourceVersion changes, but their order is kept (what a
 * client comparing two resourceVersions of one list or watch relies on), and no two objects that
 * had different resourceVersions share one.
 */
import type { KvSnapshot, KvStore } from './types.js';
import { prefixEnd } from './types.js';

export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

export interface MigrateOptions {
  /** Stops the copy between keys (the target then holds a prefix of the source, in order). */
  readonly signal?: AbortSignal;
  /** Called after every `every` keys copied one at a time, and once at the end. */
  readonly onProgress?: (copied: number, total: number) => void;
  readonly every?: number;
}

export interface MigrateResult {
  readonly keys: number;
  readonly leases: number;
  /** The source's revision the copy was taken at. */
  readonly fromRevision: number;
  /** The target's revision after the copy. */
  readonly toRevision: number;
  /** True when every key kept its revisions; false when only their order was kept. */
  readonly revisionsKept: boolean;
}

/** Every key of a cluster is under this prefix (in etcd, under `--etcd-prefix` instead). */
const registry = '/registry';

/** Whether `to` holds any key of a cluster (a migration only writes into an empty store). */
async function isEmpty(store: KvStore): Promise<boolean> {
  const r = await store.range({ key: registry, end: prefixEnd(registry), countOnly: true });
  return r.count === 0;
}

export async function migrateKv(from: KvStore, to: KvStore, o: MigrateOptions = {}): Promise<MigrateResult> {
  if (!(await isEmpty(to))) {
    throw new MigrationError('the target already holds keys: migrate only into an empty store');
  }
  const snapshot: KvSnapshot = await from.snapshot();
  const total = snapshot.kvs.length;
  if (to.backend !== 'etcd') {
    const toRevision = await to.restore(snapshot);
    o.onProgress?.(total, total);
    return {
      keys: total,
      leases: snapshot.leases.length,
      fromRevision: snapshot.revision,
      toRevision,
      revisionsKept: true,
    };
  }
  const outside = snapshot.kvs.find((kv) => !kv.key.startsWith(`${registry}/`));
  if (outside !== undefined) {
    throw new MigrationError(
      `key ${JSON.stringify(outside.key)} is outside ${registry}/: it has no place in etcd`,
    );
  }
  // Each lease anew with the time it had left, so its keys go when they would have.
  const leases = new Map<number, number>();
  for (const l of snapshot.leases) {
    const granted = await to.grantLease(Math.max(1, Math.ceil(l.remainingMs / 1000)));
    leases.set(l.id, granted.id);
  }
  const ordered = [...snapshot.kvs].sort((a, b) => a.modRevision - b.modRevision);
  const every = o.every ?? 1000;
  let copied = 0;
  for (const kv of ordered) {
    o.signal?.throwIfAborted();
    const lease = kv.lease === 0 ? undefined : leases.get(kv.lease);
    if (kv.lease !== 0 && lease === undefined) continue; // its lease ended while the copy was taken
    const r = await to.create(kv.key, kv.value, lease !== undefined ? { lease } : {});
    if (!r.ok) throw new MigrationError(`${kv.key} was written in the target while the copy ran`);
    copied++;
    if (copied % every === 0) o.onProgress?.(copied, total);
  }
  o.onProgress?.(copied, total);
  return {
    keys: copied,
    leases: leases.size,
    fromRevision: snapshot.revision,
    toRevision: await to.currentRevision(),
    revisionsKept: false,
  };
}
