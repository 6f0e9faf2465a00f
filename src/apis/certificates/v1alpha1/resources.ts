/**
 * certificates.k8s.io/v1alpha1 as kube-apiserver v1.27 serves it when the ClusterTrustBundle gate
 * and runtime-config certificates.k8s.io/v1alpha1 are on (the caller decides; nothing here checks).
 */
import type { ResourceInfo } from '../../resource.js';
import { allVerbs } from '../../resource.js';

/** ClusterTrustBundles: cluster scoped, no short names, no status, no defaults. */
export const clusterTrustBundleInfo: ResourceInfo = {
  group: 'certificates.k8s.io',
  version: 'v1alpha1',
  kind: 'ClusterTrustBundle',
  resource: 'clustertrustbundles',
  singular: 'clustertrustbundle',
  namespaced: false,
  definition: 'io.k8s.api.certificates.v1alpha1.ClusterTrustBundle',
  verbs: allVerbs,
};

export const certificatesV1alpha1ResourceInfos: readonly ResourceInfo[] = [clusterTrustBundleInfo];
