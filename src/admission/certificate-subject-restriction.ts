/**
 * CertificateSubjectRestriction (validating, on by default in kube-apiserver v1.27; upstream
 * plugin/pkg/admission/certificates/subjectrestriction): a CertificateSigningRequest created for
 * the `kubernetes.io/kube-apiserver-client` signer may not ask for the `system:masters` group
 * (an organization of its subject). A request that does not parse is refused too. Creates of the
 * request itself only.
 */
import { obj, str } from '../apis/core/v1/access.js';
import { isResource } from './attributes.js';
import type { AdmissionDependencies } from './dependencies.js';
import { csrSubjectOrganizations } from './csr-subject-organizations.js';
import { newForbidden } from './new-forbidden.js';
import { createOnly } from './plugin.js';
import type { AdmissionPlugin } from './plugin.js';

const kubeAPIServerClientSigner = 'kubernetes.io/kube-apiserver-client';

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- every factory takes the dependencies; this one needs none
export function certificateSubjectRestrictionPlugin(_deps: AdmissionDependencies): AdmissionPlugin {
  return {
    name: 'CertificateSubjectRestriction',
    operations: createOnly,
    validate(a) {
      if (!isResource(a, 'certificates.k8s.io', 'certificatesigningrequests') || a.subresource !== '') return;
      const csr = a.object;
      if (csr === undefined) throw newForbidden(a, 'expected type CertificateSigningRequest, got: <nil>');
      const spec = obj(csr, 'spec');
      if (str(spec, 'signerName') !== kubeAPIServerClientSigner) return;
      const request = str(spec, 'request');
      const parsed = csrSubjectOrganizations(Buffer.from(request ?? '', 'base64'));
      if (!parsed.ok) throw newForbidden(a, `failed to parse CSR: ${parsed.error}`);
      if (parsed.organizations.includes('system:masters')) {
        throw newForbidden(
          a,
          `use of ${kubeAPIServerClientSigner} signer with system:masters group is not allowed`,
        );
      }
    },
  };
}
