/**
 * horizontalpodautoscalers.autoscaling: the first resource served at two versions. Objects are
 * stored as autoscaling/v2; autoscaling/v1 requests and answers go through the conversion. The
 * strategies follow upstream pkg/registry/autoscaling/horizontalpodautoscaler/strategy.go
 * (release-1.27): status is reset on create and kept on update, /status writes only status, and
 * metadata.generation is left alone (v1.27 does not track it for autoscalers).
 */
import { storageVersionOf } from '../../versioned-store.js';
import {
  horizontalPodAutoscalerToV1,
  horizontalPodAutoscalerToV2,
} from '../../../apis/autoscaling/v1/conversion.js';
import { horizontalPodAutoscalerV1Info } from '../../../apis/autoscaling/v1/resources.js';
import { defaultHorizontalPodAutoscalerV2 } from '../../../apis/autoscaling/v2/defaults.js';
import { horizontalPodAutoscalerV2Info } from '../../../apis/autoscaling/v2/resources.js';
import {
  validateHorizontalPodAutoscaler,
  validateHorizontalPodAutoscalerStatusUpdate,
  validateHorizontalPodAutoscalerUpdate,
} from '../../../apis/autoscaling/validation.js';
import { cloneJson, isJsonObject } from '../../../util/json.js';
import type { JsonObject } from '../../../util/json.js';
import type { RegistryResource, ServedVersion } from '../../resource.js';
import type { RESTStrategy } from '../../strategy.js';
import { horizontalPodAutoscalerTable } from '../../printers/hpa.js';
import { defineStrategy } from '../../strategies/base.js';

/**
 * The status as autoscaling/v2 prints it: desiredReplicas and currentMetrics have no omitempty, so
 * a fresh status is `{currentMetrics: null, desiredReplicas: 0}`.
 */
function printedStatus(status: unknown): JsonObject {
  const out: JsonObject = isJsonObject(status) ? status : {};
  out['desiredReplicas'] ??= 0;
  out['currentMetrics'] ??= null;
  return out;
}

const strategy = defineStrategy({
  namespaced: true,
  validate: validateHorizontalPodAutoscaler,
  validateUpdate: validateHorizontalPodAutoscalerUpdate,
  prepareForCreate(_ctx, obj) {
    obj['status'] = printedStatus(undefined);
  },
  prepareForUpdate(_ctx, obj, old) {
    obj['status'] = printedStatus(cloneJson(old['status'] ?? {}));
  },
  // What upstream stores is read back through the v2 defaulter: a behavior that came in partial
  // (from v1's annotation) is completed after validation has seen it as it was.
  canonicalize: defaultHorizontalPodAutoscalerV2,
});

/** /status: every change but the spec is kept (upstream copies only the spec back). */
const statusStrategy: RESTStrategy = {
  ...strategy,
  prepareForCreate() {},
  prepareForUpdate(_ctx, obj, old) {
    if (old['spec'] === undefined) delete obj['spec'];
    else obj['spec'] = cloneJson(old['spec']);
    obj['status'] = printedStatus(obj['status']);
  },
  validateUpdate: (_ctx, obj) => validateHorizontalPodAutoscalerStatusUpdate(obj),
  warningsOnUpdate: () => [],
};

const servedVersions: readonly ServedVersion[] = [
  {
    info: horizontalPodAutoscalerV1Info,
    toStorage: horizontalPodAutoscalerToV2,
    fromStorage: horizontalPodAutoscalerToV1,
  },
  storageVersionOf(horizontalPodAutoscalerV2Info),
];

export const horizontalPodAutoscalers: RegistryResource = {
  info: horizontalPodAutoscalerV2Info,
  servedVersions,
  strategy,
  statusStrategy,
  table: horizontalPodAutoscalerTable,
};
