/**
 * RBAC in `nanokube serve`: the authorizer over an in-memory index that storage watches keep
 * current (rbac-policy.ts), the bootstrap policy created and reconciled before serving
 * (rbac-bootstrap.ts), the escalation checks of the four RBAC stores (given the server's
 * authorizer and RBAC's rule resolver as callbacks), and the `--authorization-mode` authorizers.
 */
import type { ResourceInfo } from '../../apis/resource.js';
import { bootstrapPolicy } from '../../apis/rbac/v1/bootstrap-policy.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { alwaysAllowAuthorizer, alwaysDenyAuthorizer } from '../../auth/builtin-authorizers.js';
import { rbacAuthorizer } from '../../auth/rbac/authorizer.js';
import type { RbacAuthorizer } from '../../auth/rbac/authorizer.js';
import { RbacPolicyIndex } from '../../auth/rbac/policy-index.js';
import { RoleRefError, aggregateMessage } from '../../auth/rbac/rule-resolver.js';
import { goQuote } from '../../machinery/field/errors.js';
import type { WriteHooks } from '../../registry/generic/hooks.js';
import type { GenericStore } from '../../registry/generic/store.js';
import { escalationHooks } from '../../registry/resources/rbac/escalation.js';
import type { ObjectStore } from '../../storage/interfaces.js';
import type { Logger } from '../../util/log.js';
import { parseAuthorizationModes } from './authorization-modes.js';
import { ensureRbacBootstrapPolicy } from './rbac-bootstrap.js';
import { followRbacPolicy } from './rbac-policy.js';

export interface Rbac {
  readonly authorizer: RbacAuthorizer;
  /** Creates/reconciles the bootstrap policy (when the RBAC kinds are served), then follows storage. */
  bootstrap(stores: ReadonlyMap<string, GenericStore>): Promise<void>;
  /** The index has listed every kind (after the bootstrap policy was written). */
  readonly ready: Promise<void>;
  readonly done: Promise<void>;
}

export function startRbac(o: {
  readonly storage: ObjectStore;
  readonly signal: AbortSignal;
  readonly log: Logger;
}): Rbac {
  const index = new RbacPolicyIndex();
  let started!: (f: { ready: Promise<void>; done: Promise<void> }) => void;
  const follower = new Promise<{ ready: Promise<void>; done: Promise<void> }>(
    (resolve) => (started = resolve),
  );
  return {
    authorizer: rbacAuthorizer(index),
    async bootstrap(stores) {
      const get = (resource: string): GenericStore | undefined =>
        stores.get(`rbac.authorization.k8s.io/${resource}`);
      const clusterRoles = get('clusterroles');
      const clusterRoleBindings = get('clusterrolebindings');
      const roles = get('roles');
      const roleBindings = get('rolebindings');
      try {
        if (clusterRoles && clusterRoleBindings && roles && roleBindings) {
          await ensureRbacBootstrapPolicy(
            { clusterRoles, clusterRoleBindings, roles, roleBindings },
            bootstrapPolicy(),
          );
        }
      } finally {
        started(followRbacPolicy({ storage: o.storage, index, signal: o.signal, log: o.log }));
      }
    },
    ready: follower.then((f) => f.ready),
    done: follower.then((f) => f.done),
  };
}

/** The authorizers of `--authorization-mode` (validated as the flag is); `node` is built on first use. */
export function authorizersFor(
  modes: readonly string[],
  o: { readonly rbac: Authorizer; readonly node: () => Authorizer },
): Authorizer[] {
  return parseAuthorizationModes(modes.join(',')).map((m) => {
    switch (m) {
      case 'RBAC':
        return o.rbac;
      case 'Node':
        return o.node();
      case 'AlwaysAllow':
        return alwaysAllowAuthorizer();
      case 'AlwaysDeny':
        return alwaysDenyAuthorizer();
    }
  });
}

const rbacResources = new Set(['roles', 'clusterroles', 'rolebindings', 'clusterrolebindings'] as const);
type RbacResource = 'roles' | 'clusterroles' | 'rolebindings' | 'clusterrolebindings';
const isRbacResource = (r: string): r is RbacResource => rbacResources.has(r as RbacResource);

/** The escalation checks of an RBAC store (undefined for other resources). */
export function rbacEscalationHooks(
  info: ResourceInfo,
  authorizer: Authorizer,
  rbac: RbacAuthorizer,
): WriteHooks | undefined {
  if (info.group !== 'rbac.authorization.k8s.io' || !isRbacResource(info.resource)) return undefined;
  return escalationHooks(info.resource, {
    allowed: async (q) =>
      (
        await authorizer.authorize({
          ...q,
          isResourceRequest: true,
          path: '',
          apiVersion: '*',
          subresource: '',
        })
      ).decision === 'allow',
    rulesFor: (user, namespace) => {
      const r = rbac.resolver.rulesFor(user, namespace);
      const errors = r.errors.map(asRegistryError);
      return { rules: r.rules, error: errors.length > 0 ? aggregateMessage(errors) : '' };
    },
    roleRefRules: (ref, namespace) => {
      try {
        return rbac.resolver.roleRefRules(ref, namespace);
      } catch (err) {
        throw err instanceof Error ? asRegistryError(err) : err;
      }
    },
  });
}

/**
 * Upstream's escalation checks resolve roles through the RBAC registries, so a missing role is the
 * store's NotFound (`clusterroles.rbac.authorization.k8s.io "x" not found`), not the authorizer's
 * lister text (`clusterrole.rbac…`).
 */
function asRegistryError(err: Error): Error {
  if (!(err instanceof RoleRefError) || err.missing === undefined) return err;
  const { resource, name } = err.missing;
  return new Error(`${resource}.rbac.authorization.k8s.io ${goQuote(name)} not found`);
}
