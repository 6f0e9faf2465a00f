import { KvCompactedError, KvFutureRevisionError } from './errors.js';

/**
 * Resolves the revision a read is served at: 0/absent means `current`; a revision above `current`
 * or below the compaction point is rejected as etcd does.
 */
export function readRevision(requested: number | undefined, current: number, compacted: number): number {
  if (requested === undefined || requested <= 0) return current;
  if (requested > current) throw new KvFutureRevisionError(requested, current);
  if (requested < compacted) throw new KvCompactedError(requested, compacted);
  return requested;
}

/** Watches must start strictly after the compaction point, since that history is gone. */
export function checkWatchStart(startRevision: number, compacted: number): void {
  if (startRevision > 0 && startRevision <= compacted) {
    throw new KvCompactedError(startRevision, compacted);
  }
}
