/**
 * kube-apiserver v1.27's admission plugins: every name in upstream's execution order
 * (pkg/kubeapiserver/options/plugins.go AllOrderedPlugins), the ones on by default, and how each
 * is built. `--enable-admission-plugins` / `--disable-admission-plugins` pick from these names
 * (options.ts); the order here, never the flag's, is the order they run in.
 */
import type { AdmissionDependencies } from './dependencies.js';
import type { AdmissionPlugin } from './plugin.js';

export type PluginFactory = (deps: AdmissionDependencies) => AdmissionPlugin;

/** AllOrderedPlugins of v1.27. */
export const orderedPluginNames: readonly string[] = [
  'AlwaysAdmit',
  'NamespaceAutoProvision',
  'NamespaceLifecycle',
  'NamespaceExists',
  'SecurityContextDeny',
  'LimitPodHardAntiAffinityTopology',
  'LimitRanger',
  'ServiceAccount',
  'NodeRestriction',
  'TaintNodesByCondition',
  'AlwaysPullImages',
  'ImagePolicyWebhook',
  'PodSecurity',
  'PodNodeSelector',
  'Priority',
  'DefaultTolerationSeconds',
  'PodTolerationRestriction',
  'EventRateLimit',
  'ExtendedResourceToleration',
  'PersistentVolumeLabel',
  'DefaultStorageClass',
  'StorageObjectInUseProtection',
  'OwnerReferencesPermissionEnforcement',
  'PersistentVolumeClaimResize',
  'RuntimeClass',
  'CertificateApproval',
  'CertificateSigning',
  'ClusterTrustBundleAttest',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'DenyServiceExternalIPs',
  // Webhooks, policies, quota and deny run last.
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
  'AlwaysDeny',
];

/** The plugins kube-apiserver v1.27 runs unless told otherwise (DefaultOffAdmissionPlugins' complement). */
export const defaultOnPluginNames: ReadonlySet<string> = new Set([
  'NamespaceLifecycle',
  'LimitRanger',
  'ServiceAccount',
  'DefaultStorageClass',
  'PersistentVolumeClaimResize',
  'DefaultTolerationSeconds',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
  'StorageObjectInUseProtection',
  'Priority',
  'TaintNodesByCondition',
  'RuntimeClass',
  'CertificateApproval',
  'CertificateSigning',
  'ClusterTrustBundleAttest',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'PodSecurity',
  'ValidatingAdmissionPolicy',
]);
