/**
 * The events a kubelet v1.27 records about a pod's containers (pkg/kubelet/events), with its
 * reasons and message texts: `kubectl describe pod` shows them, and upstream's e2e framework
 * waits for `Started` (or an error event) before it reads a container's output. Each is about
 * the pod, with the container's field path (`spec.containers{name}`).
 */
import { strAt } from '../json.js';
import type { JsonObject } from '../../util/json.js';

export interface KubeletEvent {
  /** `spec.containers{name}` or `spec.initContainers{name}`. */
  readonly fieldPath: string;
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
}

export function containerFieldPath(name: string, init: boolean, ephemeral = false): string {
  return `${ephemeral ? 'spec.ephemeralContainers' : init ? 'spec.initContainers' : 'spec.containers'}{${name}}`;
}

/**
 * A container started: its image (pulled when the policy is Always, else already present, as on
 * a node that has every image), created, started.
 */
export function startEvents(container: JsonObject, fieldPath: string): KubeletEvent[] {
  const name = strAt(container, 'name') ?? '';
  const image = strAt(container, 'image') ?? '';
  const quoted = JSON.stringify(image);
  const pull: KubeletEvent[] =
    strAt(container, 'imagePullPolicy') === 'Always'
      ? [
          { fieldPath, type: 'Normal', reason: 'Pulling', message: `Pulling image ${quoted}` },
          {
            fieldPath,
            type: 'Normal',
            reason: 'Pulled',
            message: `Successfully pulled image ${quoted} in 0s (0s including waiting)`,
          },
        ]
      : [
          {
            fieldPath,
            type: 'Normal',
            reason: 'Pulled',
            message: `Container image ${quoted} already present on machine`,
          },
        ];
  return [
    ...pull,
    { fieldPath, type: 'Normal', reason: 'Created', message: `Created container ${name}` },
    { fieldPath, type: 'Normal', reason: 'Started', message: `Started container ${name}` },
  ];
}

/** The container could not be created (CreateContainerConfigError and the like). */
export function failedEvent(fieldPath: string, error: string): KubeletEvent {
  return { fieldPath, type: 'Warning', reason: 'Failed', message: `Error: ${error}` };
}

/** The container is being stopped (pod deletion, active deadline). */
export function killingEvent(fieldPath: string, name: string): KubeletEvent {
  return { fieldPath, type: 'Normal', reason: 'Killing', message: `Stopping container ${name}` };
}

/** The container crashed again and waits in CrashLoopBackOff; `pod` is `name_namespace(uid)`. */
export function backOffEvent(fieldPath: string, name: string, pod: string): KubeletEvent {
  return {
    fieldPath,
    type: 'Warning',
    reason: 'BackOff',
    message: `Back-off restarting failed container ${name} in pod ${pod}`,
  };
}
