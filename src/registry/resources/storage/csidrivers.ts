/**
 * csidrivers.storage.k8s.io (upstream pkg/registry/storage/csidriver): cluster scoped, no status;
 * an update must name a resourceVersion. No generation on create; an update that changes a mutable
 * field the kubelet acts on (tokenRequests, requiresRepublish, seLinuxMount) bumps it, a change of
 * storageCapacity does not. Without the SELinuxMountReadWriteOncePod gate `seLinuxMount` is
 * dropped (kept on update when already stored).
 */
import { csiDriverInfo } from '../../../apis/storage/v1/resources.js';
import { seLinuxMountEnabled } from '../../../apis/storage/v1/validation/common.js';
import { validateCSIDriver, validateCSIDriverUpdate } from '../../../apis/storage/v1/validation/csidriver.js';
import type { KubeObject } from '../../../machinery/object.js';
import { isJsonObject, jsonEqual } from '../../../util/json.js';
import type { JsonObject } from '../../../util/json.js';
import type { RegistryResource } from '../../resource.js';
import { csiDriverTable } from '../../printers/csidriver.js';
import { defineStrategy } from '../../strategies/base.js';

function specOf(o: KubeObject): JsonObject | undefined {
  const spec = o['spec'];
  return isJsonObject(spec) ? spec : undefined;
}

/** Semantic equality of optional fields: an empty list equals an absent one. */
function sameField(a: unknown, b: unknown): boolean {
  const norm = (v: unknown): unknown => (Array.isArray(v) && v.length === 0 ? undefined : v);
  const x = norm(a);
  const y = norm(b);
  if (x === undefined || y === undefined) return x === y;
  return jsonEqual(x as JsonObject, y as JsonObject);
}

export const csiDrivers: RegistryResource = {
  returnDeletedObject: true,
  info: csiDriverInfo,
  strategy: defineStrategy({
    namespaced: false,
    allowUnconditionalUpdate: false,
    prepareForCreate(ctx, obj) {
      const spec = specOf(obj);
      if (spec !== undefined && !seLinuxMountEnabled(ctx.features)) delete spec['seLinuxMount'];
    },
    prepareForUpdate(ctx, obj, old) {
      const spec = specOf(obj);
      const oldSpec = specOf(old);
      if (
        spec !== undefined &&
        oldSpec?.['seLinuxMount'] === undefined &&
        !seLinuxMountEnabled(ctx.features)
      ) {
        delete spec['seLinuxMount'];
      }
      const changed = ['tokenRequests', 'requiresRepublish', 'seLinuxMount'].some(
        (k) => !sameField(spec?.[k], oldSpec?.[k]),
      );
      if (changed) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
    },
    validate: (ctx, obj) => validateCSIDriver(obj, ctx.features),
    validateUpdate: (ctx, obj, old) => validateCSIDriverUpdate(obj, old, ctx.features),
  }),
  table: csiDriverTable,
};
