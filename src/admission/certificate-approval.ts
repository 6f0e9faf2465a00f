/**
 * CertificateApproval (validating, on by default in kube-apiserver v1.27; upstream
 * plugin/pkg/admission/certificates/approval): a write to `certificatesigningrequests/approval`
 * needs `approve` on the certificates.k8s.io `signers` resource named after the signer of the
 * STORED request (so a write that also tries to change the signerName is judged by the old one),
 * or on `<domain>/*`. Upstream asks on every approval update, whether or not the conditions change.
 */
import { goQuote } from '../machinery/field/errors.js';
import { obj, str } from '../apis/core/v1/access.js';
import { isResource } from './attributes.js';
import type { AdmissionDependencies } from './dependencies.js';
import { newForbidden } from './new-forbidden.js';
import { updateOnly } from './plugin.js';
import type { AdmissionPlugin } from './plugin.js';
import { isAuthorizedForSignerName } from './signer-authorization.js';

export function certificateApprovalPlugin(deps: AdmissionDependencies): AdmissionPlugin {
  return {
    name: 'CertificateApproval',
    operations: updateOnly,
    async validate(a) {
      if (a.subresource !== 'approval' || !isResource(a, 'certificates.k8s.io', 'certificatesigningrequests'))
        return;
      const csr = a.oldObject;
      if (csr === undefined) throw newForbidden(a, 'expected type CertificateSigningRequest, got: <nil>');
      const signerName = str(obj(csr, 'spec'), 'signerName') ?? '';
      if (!(await isAuthorizedForSignerName(deps.authorize, a.user, 'approve', signerName))) {
        throw newForbidden(
          a,
          `user not permitted to approve requests with signerName ${goQuote(signerName)}`,
        );
      }
    },
  };
}
