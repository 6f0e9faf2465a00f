/** Test helpers for the PodSecurity plugin: objects, and a run that captures warnings, audit annotations and the error. */
import type { KubeObject } from '../../../machinery/object.js';
import type { JsonObject } from '../../../util/json.js';
import type { AdmissionAttributes } from '../../attributes.js';
import type { AdmissionPlugin } from '../../plugin.js';
import { statusOf } from '../../testing/fake-admission-deps.js';

export function namespaceObject(name: string, labels: Record<string, string> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels: { 'kubernetes.io/metadata.name': name, ...labels } },
    spec: { finalizers: ['kubernetes'] },
  };
}

/** `pod-security.kubernetes.io/<mode>` (and `-version`) labels. */
export function psLabels(
  modes: { enforce?: string; audit?: string; warn?: string },
  version?: string,
): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [mode, level] of Object.entries(modes)) {
    labels[`pod-security.kubernetes.io/${mode}`] = level;
    if (version !== undefined) labels[`pod-security.kubernetes.io/${mode}-version`] = version;
  }
  return labels;
}

export function podObject(
  name: string,
  namespace: string,
  spec: JsonObject,
  meta: JsonObject = {},
): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, ...meta }, spec };
}

/** A pod meeting restricted at every version. */
export function restrictedSpec(image = 'nginx'): JsonObject {
  return {
    securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
    containers: [
      {
        name: 'c',
        image,
        securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
      },
    ],
  };
}

export function bareSpec(image = 'nginx'): JsonObject {
  return { containers: [{ name: 'c', image }] };
}

export interface Outcome {
  readonly error?: { readonly code: number; readonly message: string };
  readonly warnings: readonly string[];
  readonly annotations: Readonly<Record<string, string>>;
}

export async function run(plugin: AdmissionPlugin, attrs: AdmissionAttributes): Promise<Outcome> {
  const warnings: string[] = [];
  const annotations: Record<string, string> = {};
  const a: AdmissionAttributes = {
    ...attrs,
    addWarning: (m) => void warnings.push(m),
    addAuditAnnotation: (k, v) => void (annotations[k] = v),
  };
  try {
    if (plugin.operations.has(a.operation)) await plugin.validate?.(a);
  } catch (err) {
    return { error: statusOf(err), warnings, annotations };
  }
  return { warnings, annotations };
}
