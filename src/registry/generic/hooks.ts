/**
 * Write hooks: per-store code that runs around a write and may do I/O, for what must change in
 * the same transaction as the object (an allocator's state: a Service's ClusterIP and ports), and
 * for checks a store makes of a write before validating it (RBAC's escalation prevention).
 * `checkWrite` runs after mutating admission and before the strategy prepares and validates the
 * object (where upstream's policy-based RBAC storage checks), dry runs included; it throws to
 * refuse. A `before*` hook runs after validation and admission, once per attempt of the write (a write
 * retried after a conflict asks again), so it must only compute: what it returns is committed with
 * the object or not at all. `afterWrite` runs once, when the write committed or finally failed
 * (e.g. to release what a dry run or an external system reserved); it must not throw. Dry runs
 * call the hooks with `dryRun` set and commit nothing.
 */
import type { KubeObject } from '../../machinery/object.js';
import type { UserInfo } from '../../machinery/user.js';
import type { SideWrites } from '../../storage/interfaces.js';

export interface HookContext {
  readonly namespace: string;
  readonly dryRun: boolean;
  readonly user: UserInfo;
}

export interface WriteOutcome {
  readonly operation: 'CREATE' | 'UPDATE' | 'DELETE';
  readonly ok: boolean;
  /** The object as written (create, update) or as it was (delete), when the write committed. */
  readonly object?: KubeObject;
  readonly error?: unknown;
}

/** A create or update as `checkWrite` sees it. */
export interface WriteCheck {
  readonly operation: 'CREATE' | 'UPDATE';
  /** The name the request addressed: the URL's, or '' for a create by POST. */
  readonly requestName: string;
  /** The object as it will be prepared and validated (after mutating admission). */
  readonly obj: KubeObject;
  /** The stored object an update starts from (absent when the update creates). */
  readonly old?: KubeObject;
}

export interface WriteHooks {
  readonly checkWrite?: (ctx: HookContext, write: WriteCheck) => Promise<void>;
  readonly beforeCreate?: (ctx: HookContext, obj: KubeObject) => Promise<SideWrites | undefined>;
  readonly beforeUpdate?: (
    ctx: HookContext,
    obj: KubeObject,
    old: KubeObject,
  ) => Promise<SideWrites | undefined>;
  readonly beforeDelete?: (ctx: HookContext, old: KubeObject) => Promise<SideWrites | undefined>;
  readonly afterWrite?: (ctx: HookContext, outcome: WriteOutcome) => Promise<void>;
}
