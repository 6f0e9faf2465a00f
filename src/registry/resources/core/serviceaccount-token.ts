/**
 * serviceaccounts/{name}/token (upstream pkg/registry/core/serviceaccount/storage/token.go).
 * kube-apiserver v1.27 registers this route only with a token issuer (--service-account-issuer
 * and a signing key; without one the path is 404). nanokube serves the route, as issue #6 asks,
 * but has no issuer until token authentication exists (issue #12): after upstream's own checks
 * (the name in the body, the service account itself) it refuses with 503 rather than hand out a
 * token nothing could verify.
 */
import { apiErrors, StatusError } from '../../../machinery/errors.js';
import type { KubeObject } from '../../../machinery/object.js';
import type { GenericStore } from '../../generic/store.js';

export const tokenIssuerMissing =
  'serviceaccounts/token is not available: this server has no service account token issuer yet';

export async function requestToken(o: {
  readonly serviceAccounts: GenericStore;
  readonly namespace: string;
  readonly name: string;
  readonly request: KubeObject;
}): Promise<KubeObject> {
  const bodyName = o.request.metadata.name ?? '';
  if (bodyName !== '' && bodyName !== o.name) {
    throw apiErrors.badRequest('name in URL does not match name in TokenRequest object');
  }
  const sa = await o.serviceAccounts.storage.get(o.serviceAccounts.key(o.namespace, o.name));
  if (sa === undefined) throw apiErrors.notFound({ group: '', resource: 'serviceaccounts' }, o.name);
  throw new StatusError(503, 'ServiceUnavailable', tokenIssuerMissing);
}
