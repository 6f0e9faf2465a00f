/**
 * TokenReview (authentication.k8s.io/v1): is this bearer token valid, and for whom? nanokube has no
 * token authenticators yet (issue #12), so every token is unauthenticated; the API answers as
 * upstream does when no authenticator recognises a token.
 */
import { apiErrors } from '../../machinery/errors.js';
import type { KubeObject } from '../../machinery/object.js';
import { isJsonObject } from '../../util/json.js';
import { answered } from './review-object.js';

export function tokenReview(review: KubeObject): KubeObject {
  const spec = isJsonObject(review['spec']) ? review['spec'] : {};
  const token = spec['token'];
  if (typeof token !== 'string' || token === '') {
    throw apiErrors.badRequest('token is required for TokenReview in authentication');
  }
  return answered(review, { user: {} });
}
