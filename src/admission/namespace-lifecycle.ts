/**
 * NamespaceLifecycle (upstream k8s.io/apiserver pkg/admission/plugin/namespace/lifecycle): no new
 * content in a missing or terminating namespace, and the immortal namespaces cannot be deleted.
 * Upstream's plugin is a mutating one (Admit only), so creates and updates are checked at its place
 * among the mutating steps — before later plugins (ServiceAccount, PodNodeSelector, ...), before
 * the name is generated and before validation. Deletes carry no object and reach only the
 * validating steps here (upstream runs a delete's mutating and validating steps back to back).
 */
import { apiErrors, StatusError } from '../machinery/errors.js';
import type { KubeObject } from '../machinery/object.js';
import type { AdmissionAttributes } from './attributes.js';
import type { AdmissionDependencies } from './dependencies.js';
import { newForbidden } from './new-forbidden.js';
import type { AdmissionPlugin } from './plugin.js';

const immortal = new Set(['default', 'kube-system', 'kube-public']);
/** upstream forceLiveLookupTTL. */
const forceLiveLookupMs = 30_000;

export function namespaceLifecycle(
  getNamespace: (name: string) => Promise<KubeObject | undefined>,
  onNamespaceDelete?: (name: string) => void,
) {
  return async (a: AdmissionAttributes): Promise<void> => {
    const gr = { group: a.resource.group, resource: a.resource.resource };
    if (a.operation === 'DELETE' && a.resource.group === '' && a.resource.resource === 'namespaces') {
      if (immortal.has(a.name)) throw apiErrors.forbidden(gr, a.name, 'this namespace may not be deleted');
      onNamespaceDelete?.(a.name);
      return;
    }
    if (a.operation === 'DELETE' || !a.resource.namespaced || a.namespace === '') return;
    // Access reviews answer without saying whether the namespace exists.
    if (a.resource.group === 'authorization.k8s.io' && a.resource.resource === 'localsubjectaccessreviews')
      return;
    if (a.resource.group === '' && a.resource.resource === 'namespaces') return;
    const ns = await getNamespace(a.namespace);
    if (ns === undefined) throw apiErrors.notFound({ group: '', resource: 'namespaces' }, a.namespace);
    if (a.operation !== 'CREATE') return;
    const phase = (ns['status'] as { phase?: unknown } | undefined)?.phase;
    if (ns.metadata.deletionTimestamp !== undefined || phase === 'Terminating') {
      const err = newForbidden(
        a,
        `unable to create new content in namespace ${a.namespace} because it is being terminated`,
      );
      throw new StatusError(403, 'Forbidden', err.message, {
        ...err.status.details,
        causes: [
          {
            reason: 'NamespaceTerminating',
            message: `namespace ${a.namespace} is being terminated`,
            field: 'metadata.namespace',
          },
        ],
      });
    }
  };
}

/** NamespaceLifecycle as a plugin of the chain (reads namespaces from the cache, then storage). */
export function namespaceLifecyclePlugin(deps: AdmissionDependencies): AdmissionPlugin {
  const namespaces = { group: '', resource: 'namespaces' };
  // Namespaces deleted in the last 30 s are read from storage, not the cache, so a create racing
  // the deletion sees it Terminating (upstream's forceLiveLookupCache).
  const forceLive = new Map<string, number>();
  const liveUntil = (name: string): boolean => {
    const until = forceLive.get(name);
    if (until === undefined) return false;
    if (until > deps.now()) return true;
    forceLive.delete(name);
    return false;
  };
  const check = namespaceLifecycle(
    async (name) => {
      if (liveUntil(name) && deps.lookup.getLive !== undefined) {
        return await deps.lookup.getLive(namespaces, '', name);
      }
      return (
        (await deps.lookup.get(namespaces, '', name)) ?? (await deps.lookup.getLive?.(namespaces, '', name))
      );
    },
    (name) => {
      const now = deps.now();
      for (const [n, until] of forceLive) if (until <= now) forceLive.delete(n);
      forceLive.set(name, now + forceLiveLookupMs);
    },
  );
  return {
    name: 'NamespaceLifecycle',
    operations: new Set(['CREATE', 'UPDATE', 'DELETE']),
    admit: check,
    validate: (a) => (a.operation === 'DELETE' ? check(a) : undefined),
  };
}
