/**
 * SubjectAccessReview, SelfSubjectAccessReview and LocalSubjectAccessReview (authorization.k8s.io/v1;
 * `kubectl auth can-i`): the spec's attributes are put to the server's authorizer and the answer
 * comes back in `status`, nothing stored. Validation and texts as upstream's.
 */
import { apiErrors } from '../../machinery/errors.js';
import { FieldPath, fieldErrors, goQuote } from '../../machinery/field/errors.js';
import { invalidRendered } from '../../machinery/validation/gosyntax.js';
import type { FieldError } from '../../machinery/field/errors.js';
import type { KubeObject } from '../../machinery/object.js';
import type { UserInfo } from '../../machinery/user.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import type { AuthorizationAttributes, Authorizer } from '../authorizer.js';
import { answered } from './review-object.js';

export type AccessReviewKind = 'SubjectAccessReview' | 'SelfSubjectAccessReview' | 'LocalSubjectAccessReview';

function str(o: JsonObject | undefined, key: string): string {
  const v = o?.[key];
  return typeof v === 'string' ? v : '';
}

function strings(v: JsonValue | undefined): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function specOf(review: KubeObject): JsonObject {
  const spec = review['spec'];
  return isJsonObject(spec) ? spec : {};
}

/** Upstream ValidateSubjectAccessReviewSpec / ValidateSelfSubjectAccessReviewSpec. */
function validate(kind: AccessReviewKind, spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const resource = isJsonObject(spec['resourceAttributes']) ? spec['resourceAttributes'] : undefined;
  const nonResource = isJsonObject(spec['nonResourceAttributes']) ? spec['nonResourceAttributes'] : undefined;
  if (resource !== undefined && nonResource !== undefined) {
    // Go prints the dereferenced struct with %#v.
    const rendered = `authorization.NonResourceAttributes{Path:${goQuote(str(nonResource, 'path'))}, Verb:${goQuote(str(nonResource, 'verb'))}}`;
    errs.push(
      invalidRendered(
        FieldPath.root('spec', 'nonResourceAttributes'),
        rendered,
        'cannot be specified in combination with resourceAttributes',
      ),
    );
  }
  if (resource === undefined && nonResource === undefined) {
    // A nil pointer prints as the string "null".
    errs.push(
      invalidRendered(
        FieldPath.root('spec', 'resourceAttributes'),
        '"null"',
        'exactly one of nonResourceAttributes or resourceAttributes must be specified',
      ),
    );
  }
  if (
    kind !== 'SelfSubjectAccessReview' &&
    str(spec, 'user') === '' &&
    strings(spec['groups']).length === 0
  ) {
    errs.push(
      fieldErrors.invalid('spec.user', str(spec, 'user'), 'at least one of user or group must be specified'),
    );
  }
  return errs;
}

function subjectOf(spec: JsonObject): UserInfo {
  const extraIn = isJsonObject(spec['extra']) ? spec['extra'] : {};
  const extra: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(extraIn)) extra[k] = strings(v);
  return { name: str(spec, 'user'), uid: str(spec, 'uid'), groups: strings(spec['groups']), extra };
}

function attributesOf(user: UserInfo, spec: JsonObject): AuthorizationAttributes {
  const r = isJsonObject(spec['resourceAttributes']) ? spec['resourceAttributes'] : undefined;
  if (r !== undefined) {
    return {
      user,
      verb: str(r, 'verb'),
      isResourceRequest: true,
      path: '',
      namespace: str(r, 'namespace'),
      apiGroup: str(r, 'group'),
      apiVersion: str(r, 'version'),
      resource: str(r, 'resource'),
      subresource: str(r, 'subresource'),
      name: str(r, 'name'),
    };
  }
  const n = isJsonObject(spec['nonResourceAttributes']) ? spec['nonResourceAttributes'] : {};
  return {
    user,
    verb: str(n, 'verb'),
    isResourceRequest: false,
    path: str(n, 'path'),
    namespace: '',
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    name: '',
  };
}

export async function accessReview(o: {
  readonly kind: AccessReviewKind;
  readonly review: KubeObject;
  readonly requester: UserInfo;
  /** The request's namespace (LocalSubjectAccessReview). */
  readonly namespace: string;
  readonly authorizer: Authorizer;
}): Promise<KubeObject> {
  const spec = specOf(o.review);
  const errs = validate(o.kind, spec);
  if (errs.length > 0) {
    throw apiErrors.invalid(
      { group: 'authorization.k8s.io', kind: o.kind },
      o.review.metadata.name ?? '',
      errs,
    );
  }
  if (o.kind === 'LocalSubjectAccessReview') {
    if (o.namespace === '') throw apiErrors.badRequest('namespace is required on this type');
    const r = isJsonObject(spec['resourceAttributes']) ? spec['resourceAttributes'] : undefined;
    if (r !== undefined && str(r, 'namespace') !== o.namespace) {
      throw apiErrors.badRequest(`spec.resourceAttributes.namespace must match namespace: ${o.namespace}`);
    }
  }
  const subject = o.kind === 'SelfSubjectAccessReview' ? o.requester : subjectOf(spec);
  let status: JsonObject;
  try {
    const result = await o.authorizer.authorize(attributesOf(subject, spec));
    status = { allowed: result.decision === 'allow' };
    if (result.decision === 'deny') status['denied'] = true;
    if (result.reason !== '') status['reason'] = result.reason;
  } catch (err) {
    status = { allowed: false, evaluationError: err instanceof Error ? err.message : String(err) };
  }
  return answered(o.review, status);
}
