/** namespaces: strategy, status and finalize strategies (upstream pkg/registry/core/namespace). */
import { ensureObj, obj, str, strArr } from '../../../apis/core/v1/access.js';
import { namespaceNameLabel } from '../../../apis/core/v1/defaults/namespace.js';
import { namespacesInfo } from '../../../apis/core/v1/resources.js';
import {
  validateNamespace,
  validateNamespaceStatusUpdate,
} from '../../../apis/core/v1/validation/namespace.js';
import type { KubeObject } from '../../../machinery/object.js';
import { namespaceTable } from '../../printers/namespace.js';
import type { RegistryResource } from '../../resource.js';
import type { RESTStrategy } from '../../strategy.js';
import { defineStatusStrategy, defineStrategy } from '../../strategies/base.js';
import { fieldLabelConversion } from '../../../machinery/fields/selector.js';

function setNameLabel(ns: KubeObject): void {
  const name = ns.metadata.name ?? '';
  if (name !== '') ns.metadata.labels = { ...(ns.metadata.labels ?? {}), [namespaceNameLabel]: name };
}

const strategy = defineStrategy({
  namespaced: false,
  nameValidation: 'dns1123Label',
  hasStatus: true,
  prepareForCreate(_ctx, ns) {
    ns['status'] = { phase: 'Active' };
    const spec = ensureObj(ns, 'spec');
    const finalizers = strArr(spec, 'finalizers');
    if (!finalizers.includes('kubernetes')) spec['finalizers'] = [...finalizers, 'kubernetes'];
  },
  prepareForUpdate(_ctx, ns, old) {
    const oldFinalizers = obj(old, 'spec')?.['finalizers'];
    const spec = ensureObj(ns, 'spec');
    if (oldFinalizers === undefined) delete spec['finalizers'];
    else spec['finalizers'] = oldFinalizers;
  },
  validate: (_ctx, ns) => validateNamespace(ns),
  validateUpdate: (_ctx, ns) => validateNamespace(ns),
  canonicalize: setNameLabel,
});

const statusStrategy = defineStatusStrategy(strategy, {
  validateUpdate: (_ctx, ns) => validateNamespaceStatusUpdate(ns),
});

/**
 * The `/finalize` subresource: the status is kept; spec (finalizers) and metadata come from the
 * request (upstream's namespaceFinalizeStrategy resets only the status).
 */
export const namespaceFinalizeStrategy: RESTStrategy = {
  ...strategy,
  prepareForCreate() {},
  prepareForUpdate(_ctx, ns, old) {
    const status = old['status'];
    if (status === undefined) delete ns['status'];
    else ns['status'] = status;
  },
  validateUpdate: (_ctx, ns) => validateNamespace(ns),
  warningsOnUpdate: () => [],
};

export const namespacesResource: RegistryResource = {
  returnDeletedObject: true,
  // Upstream's namespace REST wraps its store without DeleteReturnsDeletedObject: OpenAPI says Status.
  openAPIDeleteReturnsStatus: true,
  info: namespacesInfo,
  strategy,
  statusStrategy,
  table: namespaceTable,
  fieldLabels: fieldLabelConversion(['status.phase', 'metadata.name']),
  selectableFields: (ns) => ({ 'status.phase': str(obj(ns, 'status'), 'phase') ?? '' }),
  subresourceStrategies: { finalize: namespaceFinalizeStrategy },
  // A deleted namespace stays Terminating until the namespace controller has emptied it and
  // removed the `kubernetes` finalizer through /finalize.
  deletionPending: (ns) => strArr(obj(ns, 'spec'), 'finalizers').length > 0,
  beforeDelete(ns) {
    ns['status'] = { ...(obj(ns, 'status') ?? {}), phase: 'Terminating' };
  },
};
