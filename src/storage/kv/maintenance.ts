/**
 * Background upkeep shared by the backends: periodic compaction and lease expiry. Timers are
 * unref()ed so they never keep the process alive, and `stop()` clears them.
 */

export interface MaintenanceSettings {
  /** How often to compact; 0 disables periodic compaction (default 5 minutes, like kube-apiserver). */
  readonly compactionIntervalMs?: number;
  /**
   * Revisions always kept behind the current one (default 1000). Each run compacts to the older of
   * "the revision seen at the previous run" and "current minus this", so at least one interval of
   * history and at least this many revisions stay readable.
   */
  readonly compactionRetainRevisions?: number;
  /** How often expired leases are looked for (default 250 ms). */
  readonly leaseCheckIntervalMs?: number;
  /**
   * Milliseconds since the epoch that lease expiry is measured in (default Date.now): a
   * cluster on a manual clock expires Event TTLs when its clock is advanced.
   */
  readonly now?: () => number;
}

export interface MaintenanceHooks {
  readonly currentRevision: () => number;
  readonly compactedRevision: () => number;
  readonly compact: (revision: number) => Promise<void>;
  /** Revokes every lease whose expiry is at or before `nowMs`. */
  readonly expireLeases: (nowMs: number) => Promise<void>;
  /** Background failures are reported here instead of crashing the process. */
  readonly onError: (error: unknown) => void;
}

export const DEFAULT_COMPACTION_INTERVAL_MS = 5 * 60 * 1000;
export const DEFAULT_COMPACTION_RETAIN_REVISIONS = 1000;
export const DEFAULT_LEASE_CHECK_INTERVAL_MS = 250;

export interface Maintenance {
  stop(): void;
}

export function startMaintenance(settings: MaintenanceSettings, hooks: MaintenanceHooks): Maintenance {
  const timers: NodeJS.Timeout[] = [];
  const compactEvery = settings.compactionIntervalMs ?? DEFAULT_COMPACTION_INTERVAL_MS;
  const retain = settings.compactionRetainRevisions ?? DEFAULT_COMPACTION_RETAIN_REVISIONS;
  if (compactEvery > 0) {
    let previousRun = hooks.currentRevision();
    timers.push(
      setInterval(() => {
        const current = hooks.currentRevision();
        const target = Math.min(previousRun, current - retain);
        previousRun = current;
        if (target > hooks.compactedRevision()) hooks.compact(target).catch(hooks.onError);
      }, compactEvery),
    );
  }
  const leaseEvery = settings.leaseCheckIntervalMs ?? DEFAULT_LEASE_CHECK_INTERVAL_MS;
  if (leaseEvery > 0) {
    timers.push(
      setInterval(() => {
        hooks.expireLeases((settings.now ?? Date.now)()).catch(hooks.onError);
      }, leaseEvery),
    );
  }
  for (const timer of timers) timer.unref();
  return {
    stop(): void {
      for (const timer of timers) clearInterval(timer);
    },
  };
}
