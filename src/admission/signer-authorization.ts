/**
 * upstream IsAuthorizedForSignerName (plugin/pkg/admission/certificates/util.go, v1.27): may the
 * user `verb` (approve, sign, attest) the synthetic `signers` resource of certificates.k8s.io named
 * after the signer, or else the `<domain>/*` wildcard of its domain part. An authorizer error
 * counts as not allowed (upstream logs it and moves on).
 */
import type { UserInfo } from '../machinery/user.js';
import type { AdmissionAuthorizer } from './dependencies.js';

async function allowed(
  authorize: AdmissionAuthorizer,
  user: UserInfo,
  verb: string,
  name: string,
): Promise<boolean> {
  try {
    return await authorize({ user, verb, apiGroup: 'certificates.k8s.io', resource: 'signers', name });
  } catch {
    return false;
  }
}

export async function isAuthorizedForSignerName(
  authorize: AdmissionAuthorizer,
  user: UserInfo,
  verb: string,
  signerName: string,
): Promise<boolean> {
  if (await allowed(authorize, user, verb, signerName)) return true;
  const domain = signerName.split('/')[0] ?? '';
  return allowed(authorize, user, verb, `${domain}/*`);
}
