/**
 * certificates.k8s.io resources: v1 CertificateSigningRequests, and v1alpha1 ClusterTrustBundles
 * (served only when the ClusterTrustBundle gate and runtime-config certificates.k8s.io/v1alpha1
 * are both on; the server wiring decides).
 */
import type { RegistryResource } from '../../resource.js';
import { certificateSigningRequests } from './certificatesigningrequests.js';
import { clusterTrustBundles } from './clustertrustbundles.js';

export const certificatesV1Resources: readonly RegistryResource[] = [certificateSigningRequests];

export const certificatesV1alpha1Resources: readonly RegistryResource[] = [clusterTrustBundles];
