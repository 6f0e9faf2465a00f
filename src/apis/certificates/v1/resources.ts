/** certificates.k8s.io/v1 resources as kube-apiserver v1.27 serves and discovers them. */
import type { ResourceInfo } from '../../resource.js';
import { allVerbs } from '../../resource.js';

/**
 * CertificateSigningRequests: cluster scoped, short name `csr`, with `/status` (the signer writes
 * the certificate) and `/approval` (approvers add Approved/Denied). certificates.k8s.io/v1 has no
 * defaulting functions (v1beta1's usages and signerName defaults are gone).
 */
export const certificateSigningRequestInfo: ResourceInfo = {
  group: 'certificates.k8s.io',
  version: 'v1',
  kind: 'CertificateSigningRequest',
  resource: 'certificatesigningrequests',
  singular: 'certificatesigningrequest',
  namespaced: false,
  shortNames: ['csr'],
  definition: 'io.k8s.api.certificates.v1.CertificateSigningRequest',
  verbs: allVerbs,
  statusSubresource: true,
  extraSubresources: [{ name: 'approval', verbs: ['get', 'patch', 'update'] }],
};

export const certificatesV1ResourceInfos: readonly ResourceInfo[] = [certificateSigningRequestInfo];
