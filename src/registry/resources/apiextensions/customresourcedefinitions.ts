/**
 * customresourcedefinitions.apiextensions.k8s.io (upstream apiextensions-apiserver
 * pkg/registry/customresourcedefinition/strategy.go, v0.27): stored and validated only; serving the
 * custom resources they define is not part of this resource.
 */
import { customResourceDefinitionInfo } from '../../../apis/apiextensions/v1/resources.js';
import {
  validateCustomResourceDefinition,
  validateCustomResourceDefinitionStatusUpdate,
  validateCustomResourceDefinitionUpdate,
} from '../../../apis/apiextensions/v1/validation/crd.js';
import type { CRDValidationHooks } from '../../../apis/apiextensions/v1/validation/crd.js';
import { celValidation, celValidationPending } from '../../../cel/validation/load.js';
import type { KubeObject } from '../../../machinery/object.js';
import { isJsonObject } from '../../../util/json.js';
import type { JsonObject } from '../../../util/json.js';
import type { RegistryResource } from '../../resource.js';
import type { RESTStrategy } from '../../strategy.js';
import { customResourceDefinitionTable } from '../../printers/customresourcedefinition.js';
import { defineStatusStrategy, defineStrategy } from '../../strategies/base.js';

/**
 * x-kubernetes-validations are compiled and cost-checked, and defaults checked against them (CEL,
 * loaded before the first CRD write: `loadValidation` below).
 */
const celHooks: CRDValidationHooks = {
  validateRules: (schema, path) => celValidation().compileSchemaRules(schema, path),
  validateDefaultRules: (...args) => celValidation().validateDefaultRules(...args),
};

/** Adds the storage version to status.storedVersions when it is not listed yet. */
function recordStorageVersion(crd: KubeObject): void {
  const spec = crd['spec'];
  const versions = isJsonObject(spec) && Array.isArray(spec['versions']) ? spec['versions'] : [];
  const storage = versions.find((v) => isJsonObject(v) && v['storage'] === true);
  if (!isJsonObject(storage)) return;
  const name = typeof storage['name'] === 'string' ? storage['name'] : '';
  const status: JsonObject = isJsonObject(crd['status']) ? crd['status'] : {};
  const stored = Array.isArray(status['storedVersions']) ? status['storedVersions'] : [];
  // A copy: on update the status object is still the stored one's.
  if (!stored.includes(name)) crd['status'] = { ...status, storedVersions: [...stored, name] };
}

/**
 * The reset status as upstream serializes it: `conditions` has no omitempty, so a CRD no controller
 * has looked at yet shows `conditions: null`.
 */
function resetStatus(crd: KubeObject): void {
  const status = isJsonObject(crd['status']) ? crd['status'] : {};
  crd['status'] = { conditions: null, ...status };
}

/**
 * Status is reset on create and kept on update; the storage version joins storedVersions; a spec
 * change bumps the generation. Updates need a resourceVersion (AllowUnconditionalUpdate false).
 */
const strategy = defineStrategy({
  namespaced: false,
  hasStatus: true,
  tracksGeneration: true,
  allowUnconditionalUpdate: false,
  // CEL for the rules, RE2 for `pattern`s.
  loadValidation: celValidationPending,
  validate: (_ctx, obj) => validateCustomResourceDefinition(obj, celHooks),
  validateUpdate: (_ctx, obj, old) => validateCustomResourceDefinitionUpdate(obj, old, celHooks),
  prepareForCreate(_ctx, obj) {
    resetStatus(obj);
    recordStorageVersion(obj);
  },
  prepareForUpdate: (_ctx, obj) => recordStorageVersion(obj),
});

/**
 * customresourcedefinitions/status: only the spec is put back. Upstream's metadata reset there is
 * a no-op (it resets the new object's metadata from itself), so metadata changes are kept.
 */
const statusStrategy: RESTStrategy = {
  ...defineStatusStrategy(strategy, {
    validateUpdate: (_ctx, obj) => validateCustomResourceDefinitionStatusUpdate(obj),
  }),
  prepareForUpdate(_ctx, obj, old) {
    const spec = old['spec'];
    if (spec === undefined) delete obj['spec'];
    else obj['spec'] = spec;
  },
};

/** The finalizer the CRD finalizer controller removes once every custom resource is gone. */
export const customResourceCleanupFinalizer = 'customresourcecleanup.apiextensions.k8s.io';

/**
 * Upstream's CRD REST Delete: the first DELETE only marks the CRD (deletionTimestamp, grace 0, the
 * cleanup finalizer, Terminating "InstanceDeletionPending") and answers it; the finalizer
 * controller deletes the custom resources and then removes the finalizer, which deletes the CRD.
 */
function markTerminating(crd: KubeObject): void {
  crd.metadata.deletionGracePeriodSeconds = 0;
  const finalizers = crd.metadata.finalizers ?? [];
  if (!finalizers.includes(customResourceCleanupFinalizer)) {
    crd.metadata.finalizers = [...finalizers, customResourceCleanupFinalizer];
  }
  const status: JsonObject = isJsonObject(crd['status']) ? { ...crd['status'] } : {};
  const conditions = Array.isArray(status['conditions']) ? status['conditions'].filter(isJsonObject) : [];
  const condition: JsonObject = {
    type: 'Terminating',
    status: 'True',
    lastTransitionTime: crd.metadata.deletionTimestamp ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    reason: 'InstanceDeletionPending',
    message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
  };
  const at = conditions.findIndex((c) => c['type'] === 'Terminating');
  if (at >= 0) conditions[at] = condition;
  else conditions.push(condition);
  status['conditions'] = conditions;
  crd['status'] = status;
}

export const customResourceDefinitions: RegistryResource = {
  info: customResourceDefinitionInfo,
  strategy,
  statusStrategy,
  table: customResourceDefinitionTable,
  deletionPending: (crd) =>
    crd.metadata.deletionTimestamp === undefined ||
    (crd.metadata.finalizers ?? []).includes(customResourceCleanupFinalizer),
  beforeDelete: markTerminating,
};
