/**
 * NamespaceExists (validating, kube-apiserver v1.27; upstream
 * plugin/pkg/admission/namespace/exists): a create, update or delete in a namespace that does not
 * exist is refused with the NotFound of the namespace (after a live read behind the cache).
 * Cluster-scoped requests and Namespace objects themselves are not checked.
 */
import { apiErrors } from '../machinery/errors.js';
import type { AdmissionDependencies } from './dependencies.js';
import type { AdmissionPlugin } from './plugin.js';
import type { AdmissionOperation } from './attributes.js';

const namespaces = { group: '', resource: 'namespaces' };
const operations: ReadonlySet<AdmissionOperation> = new Set(['CREATE', 'UPDATE', 'DELETE']);

export function namespaceExistsPlugin(deps: AdmissionDependencies): AdmissionPlugin {
  return {
    name: 'NamespaceExists',
    operations,
    async validate(a) {
      if (a.namespace === '' || (a.resource.group === '' && a.resource.kind === 'Namespace')) return;
      if ((await deps.lookup.get(namespaces, '', a.namespace)) !== undefined) return;
      if ((await deps.lookup.getLive?.(namespaces, '', a.namespace)) !== undefined) return;
      throw apiErrors.notFound(namespaces, a.namespace);
    },
  };
}
