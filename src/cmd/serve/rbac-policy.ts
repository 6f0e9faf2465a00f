/**
 * Keeps the RBAC authorizer's in-memory index (auth/rbac/policy-index.ts) current from storage:
 * each of the four kinds is listed, then watched from the list's revision (relisted after a
 * broken watch), as upstream's informers feed its listers. `ready` resolves once every kind has
 * been listed, so the server can wait for the bootstrap policy before it serves.
 */
import { bindingViewOf, roleViewOf } from '../../apis/rbac/v1/evaluation.js';
import type { RbacKind, RbacPolicyIndex } from '../../auth/rbac/policy-index.js';
import type { KubeObject } from '../../machinery/object.js';
import { resourcePrefix } from '../../registry/generic/keys.js';
import type { ObjectStore } from '../../storage/interfaces.js';
import { followPrefix } from './follow-prefix.js';
import type { Logger } from '../../util/log.js';

const kinds: readonly [RbacKind, string][] = [
  ['ClusterRole', 'clusterroles'],
  ['ClusterRoleBinding', 'clusterrolebindings'],
  ['Role', 'roles'],
  ['RoleBinding', 'rolebindings'],
];

function apply(index: RbacPolicyIndex, kind: RbacKind, obj: KubeObject, deleted: boolean): void {
  const ns = obj.metadata.namespace ?? '';
  const name = obj.metadata.name ?? '';
  switch (kind) {
    case 'Role':
      return deleted ? index.deleteRole(ns, name) : index.setRole(roleViewOf(obj));
    case 'ClusterRole':
      return deleted ? index.deleteClusterRole(name) : index.setClusterRole(roleViewOf(obj));
    case 'RoleBinding':
      return deleted ? index.deleteRoleBinding(ns, name) : index.setRoleBinding(bindingViewOf(obj));
    case 'ClusterRoleBinding':
      return deleted ? index.deleteClusterRoleBinding(name) : index.setClusterRoleBinding(bindingViewOf(obj));
  }
}

export interface RbacFollower {
  /** Every kind has been listed once. */
  readonly ready: Promise<void>;
  /** Ends when `signal` aborts. */
  readonly done: Promise<void>;
}

export function followRbacPolicy(o: {
  readonly storage: ObjectStore;
  readonly index: RbacPolicyIndex;
  readonly signal: AbortSignal;
  readonly log: Logger;
}): RbacFollower {
  const followers = kinds.map(([kind, resource]) =>
    followPrefix({
      storage: o.storage,
      prefix: resourcePrefix({ group: 'rbac.authorization.k8s.io', resource }),
      signal: o.signal,
      log: o.log,
      what: `rbac: following ${resource}`,
      reset: () => o.index.clear(kind),
      apply: (obj, deleted) => apply(o.index, kind, obj, deleted),
    }),
  );
  return {
    ready: Promise.all(followers.map((f) => f.listed)).then(() => undefined),
    done: Promise.all(followers.map((f) => f.done)).then(() => undefined),
  };
}
