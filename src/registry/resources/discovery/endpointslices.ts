/**
 * endpointslices.discovery.k8s.io (upstream pkg/registry/discovery/endpointslice/strategy.go, v1.27,
 * with TopologyAwareHints and EndpointSliceTerminatingCondition on, as by default: nothing is
 * dropped for gates). Only v1 is served, so `deprecatedTopology` is always cleared on create and on
 * an update that changes the endpoints (upstream dropTopologyOnV1). The generation starts at 1 and
 * is bumped when anything but metadata changes, or the labels do.
 */
import {
  endpointSliceWarningsOnCreate,
  validateEndpointSlice,
  validateEndpointSliceUpdate,
} from '../../../apis/discovery/v1/validation.js';
import { endpointSliceInfo } from '../../../apis/discovery/v1/resources.js';
import type { KubeObject } from '../../../machinery/object.js';
import { isJsonObject, jsonEqual } from '../../../util/json.js';
import type { RegistryResource } from '../../resource.js';
import { endpointSliceTable } from '../../printers/endpointslice.js';
import { defineStrategy } from '../../strategies/base.js';

/** Everything but metadata differs, or the labels do (upstream's generation rule). */
function generationChanged(obj: KubeObject, old: KubeObject): boolean {
  const keys = new Set([...Object.keys(obj), ...Object.keys(old)]);
  for (const k of keys) {
    if (k === 'metadata' || k === 'apiVersion' || k === 'kind') continue;
    if (!jsonEqual(obj[k], old[k])) return true;
  }
  return !jsonEqual(obj.metadata.labels ?? {}, old.metadata.labels ?? {});
}

/** Upstream dropTopologyOnV1: a v1 write never sets deprecatedTopology. */
function dropTopology(obj: KubeObject, old: KubeObject | undefined): void {
  if (old !== undefined && jsonEqual(obj['endpoints'] ?? [], old['endpoints'] ?? [])) return;
  const endpoints = obj['endpoints'];
  if (!Array.isArray(endpoints)) return;
  for (const ep of endpoints) if (isJsonObject(ep)) delete ep['deprecatedTopology'];
}

export const endpointSlices: RegistryResource = {
  info: endpointSliceInfo,
  strategy: defineStrategy({
    namespaced: true,
    prepareForCreate(_ctx, obj) {
      obj.metadata.generation = 1;
      dropTopology(obj, undefined);
    },
    prepareForUpdate(_ctx, obj, old) {
      const oldGen = old.metadata.generation ?? 0;
      obj.metadata.generation = generationChanged(obj, old) ? oldGen + 1 : oldGen;
      dropTopology(obj, old);
    },
    validate: (_ctx, obj) => validateEndpointSlice(obj),
    validateUpdate: (_ctx, obj, old) => validateEndpointSliceUpdate(obj, old),
    warningsOnCreate: (_ctx, obj) => endpointSliceWarningsOnCreate(obj),
  }),
  table: endpointSliceTable,
};
