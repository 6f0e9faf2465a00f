/**
 * SelfSubjectRulesReview (authorization.k8s.io/v1; `kubectl auth can-i --list`): the rules the
 * requesting user has in a namespace, as the authorizers can list them.
 */
import { apiErrors } from '../../machinery/errors.js';
import type { KubeObject } from '../../machinery/object.js';
import type { UserInfo } from '../../machinery/user.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';
import type { Authorizer } from '../authorizer.js';
import { answered } from './review-object.js';

export async function selfSubjectRulesReview(
  review: KubeObject,
  user: UserInfo,
  authorizer: Authorizer,
): Promise<KubeObject> {
  const spec = isJsonObject(review['spec']) ? review['spec'] : {};
  const namespace = typeof spec['namespace'] === 'string' ? spec['namespace'] : '';
  if (namespace === '') throw apiErrors.badRequest('no namespace on request');
  if (authorizer.rulesFor === undefined) {
    return answered(review, { resourceRules: [], nonResourceRules: [], incomplete: true });
  }
  const rules = await authorizer.rulesFor(user, namespace);
  const status: JsonObject = {
    resourceRules: rules.resourceRules.map((r) => ({
      verbs: [...r.verbs],
      apiGroups: [...r.apiGroups],
      resources: [...r.resources],
      ...(r.resourceNames !== undefined ? { resourceNames: [...r.resourceNames] } : {}),
    })),
    nonResourceRules: rules.nonResourceRules.map((r) => ({
      verbs: [...r.verbs],
      nonResourceURLs: [...r.nonResourceURLs],
    })),
    incomplete: rules.incomplete,
    ...(rules.evaluationError !== undefined ? { evaluationError: rules.evaluationError } : {}),
  };
  return answered(review, status);
}
