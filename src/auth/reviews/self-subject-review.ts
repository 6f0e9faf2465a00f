/**
 * SelfSubjectReview (authentication.k8s.io/v1beta1 in v1.27, AM-10; `kubectl auth whoami` in kubectl 1.27):
 * the requesting user's attributes as the server authenticated them.
 */
import type { KubeObject } from '../../machinery/object.js';
import type { UserInfo } from '../../machinery/user.js';
import type { JsonObject } from '../../util/json.js';
import { answered } from './review-object.js';

/** authentication.k8s.io/v1 UserInfo as Go's encoder writes it (omitempty fields left out). */
export function userInfoJson(user: UserInfo): JsonObject {
  const out: JsonObject = { username: user.name };
  if (user.uid !== '') out['uid'] = user.uid;
  if (user.groups.length > 0) out['groups'] = [...user.groups];
  const extra = Object.entries(user.extra);
  if (extra.length > 0) out['extra'] = Object.fromEntries(extra.map(([k, v]) => [k, [...v]]));
  return out;
}

export function selfSubjectReview(review: KubeObject, user: UserInfo): KubeObject {
  return answered(review, { userInfo: userInfoJson(user) });
}
