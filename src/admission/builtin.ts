/**
 * The built-in plugins nanokube has, by upstream name, and the chain of the enabled ones. A name
 * upstream knows that is not built here (ImagePolicyWebhook, NamespaceAutoProvision,
 * OwnerReferencesPermissionEnforcement, PersistentVolumeLabel) refuses to start rather than run
 * without it.
 */
import { admissionChain } from './chain.js';
import type { AdmissionChain } from './chain.js';
import type { PluginFactory } from './catalog.js';
import type { AdmissionDependencies } from './dependencies.js';
import type { AdmissionPlugin } from './plugin.js';
import { InitializationError } from './plugin.js';
import { alwaysAdmitPlugin } from './always-admit.js';
import { alwaysDenyPlugin } from './always-deny.js';
import { alwaysPullImagesPlugin } from './always-pull-images.js';
import { certificateApprovalPlugin } from './certificate-approval.js';
import { certificateSigningPlugin } from './certificate-signing.js';
import { certificateSubjectRestrictionPlugin } from './certificate-subject-restriction.js';
import { clusterTrustBundleAttestPlugin } from './cluster-trust-bundle-attest.js';
import { defaultIngressClassPlugin } from './default-ingress-class.js';
import { defaultStorageClassPlugin } from './default-storage-class.js';
import { defaultTolerationSecondsPlugin } from './default-toleration-seconds.js';
import { denyServiceExternalIPsPlugin } from './deny-service-external-ips.js';
import { eventRateLimitPlugin } from './event-rate-limit/event-rate-limit.js';
import { extendedResourceTolerationPlugin } from './extended-resource-toleration.js';
import { limitPodHardAntiAffinityTopologyPlugin } from './limit-pod-hard-anti-affinity-topology.js';
import { limitRangerPlugin } from './limit-ranger/plugin.js';
import { namespaceExistsPlugin } from './namespace-exists.js';
import { namespaceLifecyclePlugin } from './namespace-lifecycle.js';
import { nodeRestrictionPlugin } from './node-restriction/node-restriction.js';
import { persistentVolumeClaimResizePlugin } from './persistent-volume-claim-resize.js';
import { podNodeSelectorPlugin } from './pod-node-selector.js';
import { podSecurityPlugin } from './pod-security/plugin.js';
import { podTolerationRestrictionPlugin } from './pod-toleration-restriction.js';
import { priorityPlugin } from './priority.js';
import { resourceQuotaPlugin } from './resource-quota/plugin.js';
import { runtimeClassPlugin } from './runtime-class.js';
import { securityContextDenyPlugin } from './security-context-deny.js';
import { serviceAccountPlugin } from './service-account.js';
import { storageObjectInUseProtectionPlugin } from './storage-object-in-use-protection.js';
import { taintNodesByConditionPlugin } from './taint-nodes-by-condition.js';
import { validatingAdmissionPolicyPlugin } from './validating-admission-policy/plugin.js';
import { mutatingWebhookPlugin, validatingWebhookPlugin } from './webhook/plugins.js';

export const builtinPlugins: ReadonlyMap<string, PluginFactory> = new Map<string, PluginFactory>([
  ['AlwaysAdmit', alwaysAdmitPlugin],
  ['NamespaceLifecycle', namespaceLifecyclePlugin],
  ['NamespaceExists', namespaceExistsPlugin],
  ['SecurityContextDeny', securityContextDenyPlugin],
  ['LimitPodHardAntiAffinityTopology', limitPodHardAntiAffinityTopologyPlugin],
  ['LimitRanger', limitRangerPlugin],
  ['ServiceAccount', (deps) => serviceAccountPlugin(deps)],
  ['NodeRestriction', nodeRestrictionPlugin],
  ['TaintNodesByCondition', taintNodesByConditionPlugin],
  ['AlwaysPullImages', alwaysPullImagesPlugin],
  ['PodSecurity', podSecurityPlugin],
  ['PodNodeSelector', podNodeSelectorPlugin],
  ['Priority', priorityPlugin],
  ['DefaultTolerationSeconds', () => defaultTolerationSecondsPlugin()],
  ['PodTolerationRestriction', podTolerationRestrictionPlugin],
  ['EventRateLimit', eventRateLimitPlugin],
  ['ExtendedResourceToleration', extendedResourceTolerationPlugin],
  ['DefaultStorageClass', defaultStorageClassPlugin],
  ['StorageObjectInUseProtection', () => storageObjectInUseProtectionPlugin()],
  ['PersistentVolumeClaimResize', persistentVolumeClaimResizePlugin],
  ['RuntimeClass', runtimeClassPlugin],
  ['CertificateApproval', certificateApprovalPlugin],
  ['CertificateSigning', certificateSigningPlugin],
  ['ClusterTrustBundleAttest', clusterTrustBundleAttestPlugin],
  ['CertificateSubjectRestriction', certificateSubjectRestrictionPlugin],
  ['DefaultIngressClass', defaultIngressClassPlugin],
  ['DenyServiceExternalIPs', denyServiceExternalIPsPlugin],
  ['MutatingAdmissionWebhook', (deps) => mutatingWebhookPlugin(deps)],
  ['ValidatingAdmissionPolicy', (deps) => validatingAdmissionPolicyPlugin(deps)],
  ['ValidatingAdmissionWebhook', (deps) => validatingWebhookPlugin(deps)],
  ['ResourceQuota', resourceQuotaPlugin],
  ['AlwaysDeny', alwaysDenyPlugin],
]);

/** The chain of `names` (already in upstream's order); throws for a plugin nanokube does not have. */
export function buildAdmissionChain(
  names: readonly string[],
  deps: AdmissionDependencies,
  plugins: ReadonlyMap<string, PluginFactory> = builtinPlugins,
): AdmissionChain {
  const missing = names.filter((n) => !plugins.has(n));
  if (missing.length > 0) {
    throw new Error(
      `admission plugin${missing.length > 1 ? 's' : ''} ${missing.map((n) => `"${n}"`).join(', ')} not supported by nanokube`,
    );
  }
  const built: AdmissionPlugin[] = names.map((n) => {
    try {
      return plugins.get(n)!(deps);
    } catch (err) {
      if (err instanceof InitializationError)
        throw new Error(`failed to initialize admission: ${err.message}`);
      throw new Error(
        `couldn't init admission plugin "${n}": ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  });
  return admissionChain(built);
}
