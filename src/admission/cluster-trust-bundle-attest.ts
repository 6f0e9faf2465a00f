/**
 * ClusterTrustBundleAttest (validating, on by default in kube-apiserver v1.27 but inert unless the
 * alpha ClusterTrustBundle feature gate is on; upstream plugin/pkg/admission/certificates/ctbattest;
 * checklist AM-11): creating or updating a ClusterTrustBundle that names a `spec.signerName` needs
 * `attest` on the certificates.k8s.io `signers` resource of that name, or on `<domain>/*`. The new
 * object is judged (validation already forbids changing the signerName); bundles without a signer
 * need nothing. (The skip for updates touching only GC fields came after v1.27.)
 */
import { goQuote } from '../machinery/field/errors.js';
import { obj, str } from '../apis/core/v1/access.js';
import { isResource } from './attributes.js';
import type { AdmissionDependencies } from './dependencies.js';
import { newForbidden } from './new-forbidden.js';
import { createUpdate } from './plugin.js';
import type { AdmissionPlugin } from './plugin.js';
import { isAuthorizedForSignerName } from './signer-authorization.js';

export function clusterTrustBundleAttestPlugin(deps: AdmissionDependencies): AdmissionPlugin {
  return {
    name: 'ClusterTrustBundleAttest',
    operations: createUpdate,
    async validate(a) {
      if (!deps.features.enabled('ClusterTrustBundle')) return;
      if (!isResource(a, 'certificates.k8s.io', 'clustertrustbundles')) return;
      const bundle = a.object;
      if (bundle === undefined) throw newForbidden(a, 'expected type ClusterTrustBundle, got: <nil>');
      const signerName = str(obj(bundle, 'spec'), 'signerName') ?? '';
      if (signerName === '') return;
      if (!(await isAuthorizedForSignerName(deps.authorize, a.user, 'attest', signerName))) {
        throw newForbidden(a, `user not permitted to attest for signerName ${goQuote(signerName)}`);
      }
    },
  };
}
