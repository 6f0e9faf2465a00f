/** apiservices.apiregistration.k8s.io (upstream kube-aggregator pkg/registry/apiservice, v0.27). */
import { apiServiceInfo } from '../../../apis/apiregistration/v1/resources.js';
import { validateAPIService, validateAPIServiceStatus } from '../../../apis/apiregistration/v1/validation.js';
import type { KubeObject } from '../../../machinery/object.js';
import type { JsonObject } from '../../../util/json.js';
import type { RegistryResource } from '../../resource.js';
import type { RESTStrategy } from '../../strategy.js';
import { apiServiceTable } from '../../printers/apiservice.js';
import { defineStatusStrategy, defineStrategy } from '../../strategies/base.js';

/** metav1.Now() as it serializes: RFC 3339 in UTC, whole seconds. */
function nowTimestamp(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** NewLocalAvailableAPIServiceCondition: local APIServices are available from the start. */
export function localAvailableCondition(now: string = nowTimestamp()): JsonObject {
  return {
    type: 'Available',
    status: 'True',
    lastTransitionTime: now,
    reason: 'Local',
    message: 'Local APIServices are always available',
  };
}

function isLocal(obj: KubeObject): boolean {
  const spec = obj['spec'];
  return typeof spec !== 'object' || spec === null || Array.isArray(spec) || spec['service'] === undefined;
}

/**
 * Status is reset on create (a local APIService gets its Available condition) and kept on update;
 * no generation; updates need a resourceVersion.
 */
const strategy = defineStrategy({
  namespaced: false,
  nameValidation: 'pathSegment',
  hasStatus: true,
  allowUnconditionalUpdate: false,
  validate: (_ctx, obj) => validateAPIService(obj),
  validateUpdate: (_ctx, obj) => validateAPIService(obj),
  prepareForCreate(_ctx, obj) {
    if (isLocal(obj)) obj['status'] = { conditions: [localAvailableCondition()] };
  },
});

/**
 * apiservices/status: the spec, labels, annotations, finalizers and owner references are put back;
 * other metadata changes are kept, as upstream's status strategy does.
 */
const statusStrategy: RESTStrategy = {
  ...defineStatusStrategy(strategy, {
    validateUpdate: (_ctx, obj) => validateAPIServiceStatus(obj),
    metadata: ['labels', 'annotations', 'finalizers', 'ownerReferences'],
  }),
  prepareForUpdate(_ctx, obj, old) {
    const spec = old['spec'];
    if (spec === undefined) delete obj['spec'];
    else obj['spec'] = spec;
    const meta = obj.metadata;
    const kept = old.metadata;
    if (kept.labels === undefined) delete meta.labels;
    else meta.labels = kept.labels;
    if (kept.annotations === undefined) delete meta.annotations;
    else meta.annotations = kept.annotations;
    if (kept.finalizers === undefined) delete meta.finalizers;
    else meta.finalizers = kept.finalizers;
    if (kept.ownerReferences === undefined) delete meta.ownerReferences;
    else meta.ownerReferences = kept.ownerReferences;
  },
};

export const apiServices: RegistryResource = {
  info: apiServiceInfo,
  strategy,
  statusStrategy,
  table: apiServiceTable,
};
