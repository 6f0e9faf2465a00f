/**
 * CertificateSigning (validating, on by default in kube-apiserver v1.27; upstream
 * plugin/pkg/admission/certificates/signing): a write to `certificatesigningrequests/status` that
 * changes `status.certificate` or `status.conditions` needs `sign` on the certificates.k8s.io
 * `signers` resource named after the stored request's signer, or on `<domain>/*`. Status writes
 * that change neither (e.g. only metadata) are not asked about.
 */
import { goQuote } from '../machinery/field/errors.js';
import type { KubeObject } from '../machinery/object.js';
import { jsonEqual } from '../util/json.js';
import type { JsonValue } from '../util/json.js';
import { obj, str } from '../apis/core/v1/access.js';
import { isResource } from './attributes.js';
import type { AdmissionDependencies } from './dependencies.js';
import { newForbidden } from './new-forbidden.js';
import { updateOnly } from './plugin.js';
import type { AdmissionPlugin } from './plugin.js';
import { isAuthorizedForSignerName } from './signer-authorization.js';

/** status.certificate as Go's []byte: undefined for nil (absent or null), else the bytes. */
function certificate(csr: KubeObject): Buffer | undefined {
  const v = obj(csr, 'status')?.['certificate'];
  return typeof v === 'string' ? Buffer.from(v, 'base64') : undefined;
}

/** reflect.DeepEqual of two []byte: nil differs from empty. */
function certificatesEqual(a: Buffer | undefined, b: Buffer | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.equals(b);
}

/** status.conditions, nil and empty alike (apiequality.Semantic.DeepEqual). */
function conditions(csr: KubeObject): JsonValue {
  const v = obj(csr, 'status')?.['conditions'];
  return Array.isArray(v) ? v : [];
}

export function certificateSigningPlugin(deps: AdmissionDependencies): AdmissionPlugin {
  return {
    name: 'CertificateSigning',
    operations: updateOnly,
    async validate(a) {
      if (a.subresource !== 'status' || !isResource(a, 'certificates.k8s.io', 'certificatesigningrequests'))
        return;
      const old = a.oldObject;
      if (old === undefined) throw newForbidden(a, 'expected type CertificateSigningRequest, got: <nil>');
      const csr = a.object;
      if (csr === undefined) throw newForbidden(a, 'expected type CertificateSigningRequest, got: <nil>');
      if (
        certificatesEqual(certificate(old), certificate(csr)) &&
        jsonEqual(conditions(old), conditions(csr))
      ) {
        return;
      }
      const signerName = str(obj(old, 'spec'), 'signerName') ?? '';
      if (!(await isAuthorizedForSignerName(deps.authorize, a.user, 'sign', signerName))) {
        throw newForbidden(a, `user not permitted to sign requests with signerName ${goQuote(signerName)}`);
      }
    },
  };
}
