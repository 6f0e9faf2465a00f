/**
 * persistentvolumeclaims (upstream pkg/registry/core/persistentvolumeclaim): status only through
 * /status; dataSource and dataSourceRef mirror each other (AnyVolumeDataSource, beta in v1.27).
 */
import { obj, str } from '../../../apis/core/v1/access.js';
import { persistentVolumeClaimsInfo } from '../../../apis/core/v1/resources-more.js';
import {
  validatePersistentVolumeClaim,
  validatePersistentVolumeClaimStatusUpdate,
  validatePersistentVolumeClaimUpdate,
} from '../../../apis/core/v1/validation/persistentvolume.js';
import type { KubeObject } from '../../../machinery/object.js';
import type { JsonObject } from '../../../util/json.js';
import { persistentVolumeClaimTable } from '../../printers/persistentvolumeclaim.js';
import type { RegistryResource } from '../../resource.js';
import { defineStatusStrategy, defineStrategy } from '../../strategies/base.js';
import { persistentVolumeClaimWarnings } from './storage-warnings.js';

function typedRef(from: JsonObject): JsonObject {
  const out: JsonObject = {};
  const apiGroup = str(from, 'apiGroup');
  if (apiGroup !== undefined) out['apiGroup'] = apiGroup;
  out['kind'] = str(from, 'kind') ?? '';
  out['name'] = str(from, 'name') ?? '';
  return out;
}

/** Upstream NormalizeDataSources: fill whichever of dataSource/dataSourceRef is missing. */
function normalizeDataSources(pvc: KubeObject): void {
  const spec = obj(pvc, 'spec');
  if (spec === undefined) return;
  const ds = obj(spec, 'dataSource');
  const ref = obj(spec, 'dataSourceRef');
  if (ds !== undefined && ref === undefined) {
    spec['dataSourceRef'] = typedRef(ds);
  } else if (ref !== undefined && ds === undefined && (str(ref, 'namespace') ?? '') === '') {
    spec['dataSource'] = typedRef(ref);
  }
}

/** CrossNamespaceVolumeDataSource is alpha (off) in v1.27: a new namespace is dropped. */
function dropDisabledFields(pvc: KubeObject, old: KubeObject | undefined): void {
  const ref = obj(obj(pvc, 'spec'), 'dataSourceRef');
  const oldNs = str(obj(obj(old, 'spec'), 'dataSourceRef'), 'namespace') ?? '';
  if (ref !== undefined && oldNs === '') delete ref['namespace'];
}

const strategy = defineStrategy({
  namespaced: true,
  prepareForCreate(_ctx, pvc) {
    pvc['status'] = { phase: 'Pending' };
    dropDisabledFields(pvc, undefined);
    normalizeDataSources(pvc);
  },
  prepareForUpdate(_ctx, pvc, old) {
    if (old['status'] === undefined) delete pvc['status'];
    else pvc['status'] = old['status'];
    dropDisabledFields(pvc, old);
    normalizeDataSources(pvc);
  },
  validate: (_ctx, pvc) => validatePersistentVolumeClaim(pvc),
  validateUpdate: (_ctx, pvc, old) => [
    ...validatePersistentVolumeClaim(pvc),
    ...validatePersistentVolumeClaimUpdate(pvc, old),
  ],
  warningsOnCreate: (_ctx, pvc) => persistentVolumeClaimWarnings(pvc),
  warningsOnUpdate: (_ctx, pvc) => persistentVolumeClaimWarnings(pvc),
});

export const persistentVolumeClaimsResource: RegistryResource = {
  info: persistentVolumeClaimsInfo,
  strategy,
  statusStrategy: defineStatusStrategy(strategy, {
    validateUpdate: (_ctx, pvc) => validatePersistentVolumeClaimStatusUpdate(pvc),
  }),
  table: persistentVolumeClaimTable,
};
