/** pods: strategy, status strategy, graceful deletion and field selectors (upstream pkg/registry/core/pod). */
import { num, obj, objArr, str } from '../../../apis/core/v1/access.js';
import { podQOSClass } from '../../../apis/core/v1/qos.js';
import { podsInfo } from '../../../apis/core/v1/resources.js';
import {
  defaultResizePolicy,
  dropDisabledResizeSpec,
  dropDisabledResizeStatus,
  markPodProposedForResize,
  resizeGate,
  resizeInUse,
} from '../../../apis/core/v1/resize.js';
import { validatePodEphemeralContainersUpdate } from '../../../apis/core/v1/validation/ephemeral-containers.js';
import { validatePodCreate } from '../../../apis/core/v1/validation/pod.js';
import { validatePodUpdate } from '../../../apis/core/v1/validation/podupdate.js';
import type { KubeObject } from '../../../machinery/object.js';
import type { JsonObject, JsonValue } from '../../../util/json.js';
import { podTable } from '../../printers/pod.js';
import type { RegistryResource } from '../../resource.js';
import { defineStatusStrategy, defineStrategy } from '../../strategies/base.js';
import { podWarnings } from './pod-warnings.js';
import { fieldLabelConversion } from '../../../machinery/fields/selector.js';

/** The PodScheduled=False condition a pod with scheduling gates starts with. */
function schedulingGatedCondition(): JsonObject {
  return {
    type: 'PodScheduled',
    status: 'False',
    lastProbeTime: null,
    lastTransitionTime: null,
    reason: 'SchedulingGated',
    message: 'Scheduling is blocked due to non-empty scheduling gates',
  };
}

function prepareStatusForCreate(pod: KubeObject): void {
  const spec = obj(pod, 'spec');
  const status: JsonObject = { phase: 'Pending' };
  if (objArr(spec, 'schedulingGates').length > 0) status['conditions'] = [schedulingGatedCondition()];
  status['qosClass'] = podQOSClass(spec);
  pod['status'] = status;
}

const strategy = defineStrategy({
  namespaced: true,
  nameValidation: 'dns1123Subdomain',
  hasStatus: true,
  prepareForCreate: (ctx, pod) => {
    if (ctx.features.enabled(resizeGate)) defaultResizePolicy(obj(pod, 'spec'));
    else dropDisabledResizeSpec(obj(pod, 'spec'));
    prepareStatusForCreate(pod);
  },
  prepareForUpdate: (ctx, pod, old) => {
    const spec = obj(pod, 'spec');
    const oldSpec = obj(old, 'spec');
    if (ctx.features.enabled(resizeGate)) {
      // Upstream defaults every decoded pod, the stored one too: fill in the policies of
      // containers whose stored copy has them, so a client that omits them changes nothing.
      const oldContainers = objArr(oldSpec, 'containers');
      defaultResizePolicy(spec, (i) => objArr(oldContainers[i], 'resizePolicy').length > 0);
      markPodProposedForResize(pod, old);
    } else if (!resizeInUse(oldSpec)) {
      dropDisabledResizeSpec(spec);
      const status = obj(pod, 'status');
      if (status !== undefined) {
        pod['status'] = { ...status };
        dropDisabledResizeStatus(obj(pod, 'status'));
      }
    }
  },
  validate: (ctx, pod) => validatePodCreate(pod, ctx),
  validateUpdate: (ctx, pod, old) => validatePodUpdate(pod, old, ctx),
  warningsOnCreate: (_ctx, pod) => podWarnings(pod),
});

// Upstream's pod status strategy resets ownerReferences; labels and annotations may change.
const baseStatusStrategy = defineStatusStrategy(strategy, { metadata: ['ownerReferences'] });
const statusStrategy = {
  ...baseStatusStrategy,
  prepareForUpdate(...args: Parameters<typeof baseStatusStrategy.prepareForUpdate>): void {
    baseStatusStrategy.prepareForUpdate(...args);
    const [, pod, old] = args;
    // The QoS class is fixed at creation; old kubelets drop it from status writes.
    const status = obj(pod, 'status');
    const oldQOS = str(obj(old, 'status'), 'qosClass');
    if (status !== undefined && (str(status, 'qosClass') ?? '') === '' && oldQOS !== undefined)
      status['qosClass'] = oldQOS;
    const [ctx] = args;
    if (!ctx.features.enabled(resizeGate) && !resizeInUse(obj(old, 'spec'))) dropDisabledResizeStatus(status);
  },
};

/**
 * pods/{name}/ephemeralcontainers (upstream EphemeralContainersStrategy): only
 * spec.ephemeralContainers is taken from the request; the rest of the spec, the status and the
 * metadata stay as stored.
 */
const ephemeralContainersStrategy = {
  ...strategy,
  prepareForCreate(): void {},
  prepareForUpdate(...args: Parameters<typeof strategy.prepareForUpdate>): void {
    const [, pod, old] = args;
    const ephemeral = obj(pod, 'spec')?.['ephemeralContainers'];
    for (const k of Object.keys(pod)) delete pod[k];
    for (const [k, v] of Object.entries(old)) pod[k] = v;
    pod.metadata = { ...old.metadata };
    const spec = { ...(obj(old, 'spec') ?? {}) };
    if (ephemeral === undefined || ephemeral === null) delete spec['ephemeralContainers'];
    else spec['ephemeralContainers'] = ephemeral;
    pod['spec'] = spec;
  },
  validateUpdate: (...args: Parameters<typeof strategy.validateUpdate>) =>
    validatePodEphemeralContainersUpdate(args[1], args[2], args[0]),
  warningsOnUpdate: (): string[] => [],
};

export function podSelectableFields(pod: KubeObject): Record<string, string> {
  const spec = obj(pod, 'spec');
  const status = obj(pod, 'status');
  const podIPs = objArr(status, 'podIPs');
  return {
    'spec.nodeName': str(spec, 'nodeName') ?? '',
    'spec.restartPolicy': str(spec, 'restartPolicy') ?? '',
    'spec.schedulerName': str(spec, 'schedulerName') ?? '',
    'spec.serviceAccountName': str(spec, 'serviceAccountName') ?? '',
    'status.phase': str(status, 'phase') ?? '',
    'status.podIP': str(podIPs[0], 'ip') ?? '',
    'status.nominatedNodeName': str(status, 'nominatedNodeName') ?? '',
  };
}

/**
 * Default grace period: the pod's terminationGracePeriodSeconds (negative counts as 1); 0 for
 * pods that never got a node or have already finished.
 */
export function podDefaultGracePeriod(pod: KubeObject, requested?: number): number {
  const spec = obj(pod, 'spec');
  const phase: JsonValue | undefined = obj(pod, 'status')?.['phase'];
  if ((str(spec, 'nodeName') ?? '') === '' || phase === 'Failed' || phase === 'Succeeded') return 0;
  const grace = requested ?? num(spec, 'terminationGracePeriodSeconds') ?? 30;
  return grace < 0 ? 1 : grace;
}

export const podsResource: RegistryResource = {
  info: podsInfo,
  strategy,
  statusStrategy,
  graceful: { gracePeriodSeconds: podDefaultGracePeriod },
  returnDeletedObject: true,
  table: podTable,
  // pkg/apis/core/v1/conversion.go (v1.27); `spec.host` is the old name of spec.nodeName.
  fieldLabels: fieldLabelConversion(
    new Map([
      ...[
        'metadata.name',
        'metadata.namespace',
        'spec.nodeName',
        'spec.restartPolicy',
        'spec.schedulerName',
        'spec.serviceAccountName',
        'status.phase',
        'status.podIP',
        'status.nominatedNodeName',
      ].map((l): [string, string] => [l, l]),
      ['spec.host', 'spec.nodeName'],
    ]),
  ),
  selectableFields: podSelectableFields,
  subresourceStrategies: { ephemeralcontainers: ephemeralContainersStrategy },
};
