/**
 * PodSecurity (validating, on by default in kube-apiserver v1.27; upstream
 * plugin/pkg/admission/security/podsecurity over k8s.io/pod-security-admission): pods are checked
 * against the Pod Security Standards level their namespace's `pod-security.kubernetes.io/*`
 * labels (or the configured defaults) ask for — enforce denies, audit annotates the audit event,
 * warn warns — workload templates are audited and warned about only, and namespace label changes
 * are validated and checked against the namespace's existing pods. The configuration
 * (PodSecurityConfiguration) is loaded when the plugin is made; a bad one throws.
 */
import { createUpdate, type AdmissionPlugin } from '../plugin.js';
import type { AdmissionAttributes } from '../attributes.js';
import type { AdmissionDependencies } from '../dependencies.js';
import type { PodSecurityContext } from './context.js';
import { defaultChecks } from './default-checks.js';
import { Evaluator } from './evaluator.js';
import { Exemptions } from './exemptions.js';
import { labelPrefix } from './labels.js';
import { loadPodSecurityConfiguration } from './load-configuration.js';
import { hasPodSpec } from './pod-spec-extractor.js';
import type { PodSecurityResponse } from './response.js';
import { validateNamespace } from './validate-namespace.js';
import { validatePodController } from './validate-pod-controller.js';
import { validatePod } from './validate-pod.js';

export { loadPodSecurityConfiguration, type LoadedPodSecurityConfiguration } from './load-configuration.js';

export const podSecurityPluginName = 'PodSecurity';

/** upstream defaultNamespaceMaxPodsToCheck and defaultNamespacePodCheckTimeout. */
const namespaceMaxPodsToCheck = 3000;
const namespacePodCheckTimeoutMs = 1000;

const namespaces = { group: '', resource: 'namespaces' } as const;
const pods = { group: '', resource: 'pods' } as const;

export function podSecurityPlugin(deps: AdmissionDependencies): AdmissionPlugin {
  const { configuration, defaultPolicy } = loadPodSecurityConfiguration(
    deps.pluginConfig(podSecurityPluginName),
  );
  const ctx: PodSecurityContext = {
    defaultPolicy,
    exemptions: new Exemptions(configuration.exemptions),
    evaluator: new Evaluator(defaultChecks),
    getNamespace: async (name) =>
      (await deps.lookup.get(namespaces, '', name)) ?? (await deps.lookup.getLive?.(namespaces, '', name)),
    listPods: (namespace) => deps.lookup.list(pods, namespace),
    now: deps.now,
    namespaceMaxPodsToCheck,
    namespacePodCheckTimeoutMs,
  };
  return {
    name: podSecurityPluginName,
    operations: createUpdate,
    validate: async (a) => {
      const response = await podSecurityResponse(ctx, a);
      if (response !== undefined) apply(a, response);
    },
  };
}

/** The evaluation a request gets, undefined for resources the plugin does not look at. */
export function podSecurityResponse(
  ctx: PodSecurityContext,
  a: AdmissionAttributes,
): Promise<PodSecurityResponse> | undefined {
  if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return undefined;
  const { group, resource } = a.resource;
  if (group === '' && resource === 'namespaces') return validateNamespace(ctx, a);
  if (group === '' && resource === 'pods') return validatePod(ctx, a);
  if (hasPodSpec(group, resource)) return validatePodController(ctx, a);
  return undefined;
}

/** Warnings to the client, annotations (prefixed `pod-security.kubernetes.io/`) to the audit event, then the verdict. */
function apply(a: AdmissionAttributes, r: PodSecurityResponse): void {
  for (const w of r.warnings ?? []) a.addWarning?.(w);
  for (const [k, v] of Object.entries(r.auditAnnotations ?? {})) a.addAuditAnnotation?.(labelPrefix + k, v);
  if (!r.allowed && r.error !== undefined) throw r.error;
}
