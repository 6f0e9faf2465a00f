/**
 * TokenReview (authentication.k8s.io/v1; upstream pkg/registry/authentication/tokenreview): is
 * this bearer token valid, for whom, and for which of the asked audiences? The server's own
 * authenticator answers, as for a request carrying `Authorization: Bearer <token>`, with
 * spec.audiences (or the API audiences) as the audiences the token must be meant for.
 */
import { apiErrors } from '../../machinery/errors.js';
import type { KubeObject } from '../../machinery/object.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';
import type { Authenticator } from '../authenticator.js';
import { answered } from './review-object.js';
import { userInfoJson } from './self-subject-review.js';

export interface TokenReviewOptions {
  readonly authenticator: Authenticator;
  /** `--api-audiences`. */
  readonly apiAudiences: readonly string[];
  /** Adds a warning to the answer (a legacy token's use is warned about to whoever asks). */
  readonly warn?: (message: string) => void;
}

export async function tokenReview(review: KubeObject, o: TokenReviewOptions): Promise<KubeObject> {
  const spec = isJsonObject(review['spec']) ? review['spec'] : {};
  const token = spec['token'];
  if (typeof token !== 'string' || token === '') {
    throw apiErrors.badRequest('token is required for TokenReview in authentication');
  }
  const asked = Array.isArray(spec['audiences'])
    ? spec['audiences'].filter((a): a is string => typeof a === 'string')
    : [];
  const audiences = asked.length > 0 ? asked : o.apiAudiences;
  const result = await o.authenticator.authenticate({ authorization: `Bearer ${token}`, audiences });
  const status: JsonObject = {};
  if (result.kind === 'authenticated') {
    const got = result.audiences ?? [];
    if (audiences.length > 0 && !audiences.some((a) => got.includes(a))) {
      throw apiErrors.internal(new Error('error validating audiences'));
    }
    for (const w of result.warnings ?? []) o.warn?.(w);
    status['authenticated'] = true;
    status['user'] = userInfoJson(result.user);
    if (got.length > 0) status['audiences'] = [...got];
  } else {
    status['user'] = {};
    if (result.kind === 'failed') status['error'] = result.reason;
  }
  return answered(review, status);
}
