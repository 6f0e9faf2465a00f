/**
 * NamespaceLifecycle (validating): no new content in a missing or terminating namespace, and the
 * immortal namespaces cannot be deleted.
 */
import { apiErrors, StatusError } from '../machinery/errors.js';
import type { KubeObject } from '../machinery/object.js';
import type { AdmissionDependencies } from './dependencies.js';
import type { AdmissionPlugin } from './plugin.js';

export interface LifecycleAttributes {
  readonly operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  readonly resource: { readonly group: string; readonly resource: string; readonly namespaced: boolean };
  readonly namespace: string;
  readonly name: string;
}

const immortal = new Set(['default', 'kube-system', 'kube-public']);

export function namespaceLifecycle(getNamespace: (name: string) => Promise<KubeObject | undefined>) {
  return async (a: LifecycleAttributes): Promise<void> => {
    const gr = { group: a.resource.group, resource: a.resource.resource };
    if (a.operation === 'DELETE' && a.resource.group === '' && a.resource.resource === 'namespaces') {
      if (immortal.has(a.name)) throw apiErrors.forbidden(gr, a.name, 'this namespace may not be deleted');
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
      const message = `unable to create new content in namespace ${a.namespace} because it is being terminated`;
      const err = apiErrors.forbidden(gr, a.name, message);
      throw new StatusError(403, 'Forbidden', err.message, {
        ...err.status.details,
        causes: [{ reason: 'NamespaceTerminating', message, field: 'metadata.namespace' }],
      });
    }
  };
}

/** NamespaceLifecycle as a plugin of the chain (validating; reads namespaces from the cache, then storage). */
export function namespaceLifecyclePlugin(deps: AdmissionDependencies): AdmissionPlugin {
  const namespaces = { group: '', resource: 'namespaces' };
  const check = namespaceLifecycle(
    async (name) =>
      (await deps.lookup.get(namespaces, '', name)) ?? (await deps.lookup.getLive?.(namespaces, '', name)),
  );
  return {
    name: 'NamespaceLifecycle',
    operations: new Set(['CREATE', 'UPDATE', 'DELETE']),
    validate: check,
  };
}
