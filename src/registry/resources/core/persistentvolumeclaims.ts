/**
 * persistentvolumeclaims (upstream pkg/registry/core/persistentvolumeclaim): status only through
 * /status; dataSource and dataSourceRef mirror each other (AnyVolumeDataSource, beta in v1.27).
 */
import { obj, str } from '../../../apis/core/v1/access.js';
import { persistentVolumeClaimsInfo } from '../../../apis/core/v1/resources-more.js';
import {
  pvValidationOptions,
  validatePersistentVolumeClaim,
  validatePersistentVolumeClaimStatusUpdate,
  validatePersistentVolumeClaimUpdate,
} from '../../../apis/core/v1/validation/persistentvolume.js';
import type { KubeObject } from '../../../machinery/object.js';
import type { FeatureGateReader } from '../../../machinery/validation-context.js';
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
function normalizeDataSources(features: FeatureGateReader, pvc: KubeObject): void {
  if (!features.enabled('AnyVolumeDataSource')) return;
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

/**
 * Upstream DropDisabledFields with the request's gates: without AnyVolumeDataSource (beta, on) a
 * new dataSourceRef is dropped; without CrossNamespaceVolumeDataSource (alpha, off) its namespace
 * is — unless the old claim already had a dataSourceRef.
 */
function dropDisabledFields(features: FeatureGateReader, pvc: KubeObject, old: KubeObject | undefined): void {
  const spec = obj(pvc, 'spec');
  const refInUse = obj(obj(old, 'spec'), 'dataSourceRef') !== undefined;
  if (spec === undefined || refInUse) return;
  if (!features.enabled('AnyVolumeDataSource')) delete spec['dataSourceRef'];
  const ref = obj(spec, 'dataSourceRef');
  if (
    !features.enabled('CrossNamespaceVolumeDataSource') &&
    ref !== undefined &&
    (str(ref, 'namespace') ?? '') !== ''
  ) {
    delete ref['namespace'];
  }
}

const strategy = defineStrategy({
  namespaced: true,
  prepareForCreate(ctx, pvc) {
    pvc['status'] = { phase: 'Pending' };
    dropDisabledFields(ctx.features, pvc, undefined);
    normalizeDataSources(ctx.features, pvc);
  },
  prepareForUpdate(ctx, pvc, old) {
    if (old['status'] === undefined) delete pvc['status'];
    else pvc['status'] = old['status'];
    dropDisabledFields(ctx.features, pvc, old);
    normalizeDataSources(ctx.features, pvc);
  },
  validate: (ctx, pvc) => validatePersistentVolumeClaim(pvc, pvValidationOptions(ctx.features)),
  validateUpdate: (ctx, pvc, old) => {
    const opts = pvValidationOptions(ctx.features, old);
    return [
      ...validatePersistentVolumeClaim(pvc, opts),
      ...validatePersistentVolumeClaimUpdate(pvc, old, opts),
    ];
  },
  warningsOnCreate: (_ctx, pvc) => persistentVolumeClaimWarnings(pvc),
  warningsOnUpdate: (_ctx, pvc) => persistentVolumeClaimWarnings(pvc),
});

export const persistentVolumeClaimsResource: RegistryResource = {
  returnDeletedObject: true,
  info: persistentVolumeClaimsInfo,
  strategy,
  statusStrategy: defineStatusStrategy(strategy, {
    validateUpdate: (_ctx, pvc) => validatePersistentVolumeClaimStatusUpdate(pvc),
  }),
  table: persistentVolumeClaimTable,
};
