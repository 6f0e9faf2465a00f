/**
 * SubjectAccessReview, SelfSubjectAccessReview and LocalSubjectAccessReview (authorization.k8s.io/v1;
 * `kubectl auth can-i`): the spec's attributes are put to the server's authorizer and the answer
 * comes back in `status`, nothing stored. Validation and texts as upstream v1.27's
 * (pkg/apis/authorization/validation, pkg/registry/authorization/*subjectaccessreview/rest.go,
 * and the create handler's namespace check that runs before them).
 */
import { apiErrors } from '../../machinery/errors.js';
import { FieldPath, fieldErrors, goQuote } from '../../machinery/field/errors.js';
import { goOwnerReferences, goStringSlice, invalidRendered } from '../../machinery/validation/gosyntax.js';
import type { FieldError } from '../../machinery/field/errors.js';
import type { KubeObject, ObjectMeta } from '../../machinery/object.js';
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

function goStringMap(m: Record<string, string> | undefined): string {
  if (m === undefined) return 'map[string]string(nil)';
  const keys = Object.keys(m).sort();
  return `map[string]string{${keys.map((k) => `${goQuote(k)}:${goQuote(m[k] ?? '')}`).join(', ')}}`;
}

/**
 * The request's ObjectMeta as `%#v` prints it, after the create handler wiped the system fields
 * (uid, creationTimestamp, deletion fields, selfLink). Upstream's managedFields carry the field
 * manager's entry (a timestamp and a pointer address) that cannot be reproduced; nil here.
 */
function goObjectMeta(m: ObjectMeta): string {
  const finalizers = m.finalizers === undefined ? '[]string(nil)' : goStringSlice(m.finalizers);
  const owners =
    m.ownerReferences === undefined ? '[]v1.OwnerReference(nil)' : goOwnerReferences(m.ownerReferences);
  return (
    `v1.ObjectMeta{Name:${goQuote(m.name ?? '')}, GenerateName:${goQuote(m.generateName ?? '')}, ` +
    `Namespace:${goQuote(m.namespace ?? '')}, SelfLink:"", UID:"", ` +
    `ResourceVersion:${goQuote(m.resourceVersion ?? '')}, Generation:${m.generation ?? 0}, ` +
    'CreationTimestamp:time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC), DeletionTimestamp:<nil>, ' +
    `DeletionGracePeriodSeconds:(*int64)(nil), Labels:${goStringMap(m.labels)}, ` +
    `Annotations:${goStringMap(m.annotations)}, OwnerReferences:${owners}, Finalizers:${finalizers}, ` +
    'ManagedFields:[]v1.ManagedFieldsEntry(nil)}'
  );
}

/** Whether the metadata is Semantic.DeepEqual to an empty ObjectMeta (empty maps and lists count as unset). */
function metadataEmpty(m: ObjectMeta, exceptNamespace: boolean): boolean {
  const system = new Set([
    'uid',
    'creationTimestamp',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
    'selfLink',
    'managedFields',
  ]);
  if (exceptNamespace) system.add('namespace');
  for (const [key, v] of Object.entries(m)) {
    if (system.has(key) || v === undefined || v === null || v === '' || v === 0) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (isJsonObject(v) && Object.keys(v).length === 0) continue;
    return false;
  }
  return true;
}

/**
 * Upstream ValidateSubjectAccessReview / ValidateSelfSubjectAccessReview (metadata must be empty)
 * and ValidateLocalSubjectAccessReview (empty but for the namespace; the attributes' namespace
 * must be the review's; no non-resource attributes).
 */
function validateReview(kind: AccessReviewKind, review: KubeObject, spec: JsonObject): FieldError[] {
  const errs = validate(kind, spec);
  const local = kind === 'LocalSubjectAccessReview';
  const meta = review.metadata;
  if (!metadataEmpty(meta, local)) {
    errs.push(
      invalidRendered(
        FieldPath.root('metadata'),
        goObjectMeta(meta),
        local ? 'must be empty except for namespace' : 'must be empty',
      ),
    );
  }
  if (!local) return errs;
  const resource = isJsonObject(spec['resourceAttributes']) ? spec['resourceAttributes'] : undefined;
  if (resource !== undefined && str(resource, 'namespace') !== (meta.namespace ?? '')) {
    errs.push(
      fieldErrors.invalid(
        'spec.resourceAttributes.namespace',
        str(resource, 'namespace'),
        'must match metadata.namespace',
      ),
    );
  }
  const nonResource = isJsonObject(spec['nonResourceAttributes']) ? spec['nonResourceAttributes'] : undefined;
  if (nonResource !== undefined) {
    const rendered = `authorization.NonResourceAttributes{Path:${goQuote(str(nonResource, 'path'))}, Verb:${goQuote(str(nonResource, 'verb'))}}`;
    errs.push(
      invalidRendered(
        FieldPath.root('spec', 'nonResourceAttributes'),
        rendered,
        'disallowed on this kind of request',
      ),
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
  // The create handler (rest.EnsureObjectNamespaceMatchesRequestNamespace) runs first: a namespace
  // in the body must be the URL's; an empty one becomes the URL's (cleared for cluster-scoped kinds).
  const review: KubeObject = { ...o.review, metadata: { ...o.review.metadata } };
  const bodyNamespace = review.metadata.namespace ?? '';
  if (o.kind === 'LocalSubjectAccessReview') {
    if (bodyNamespace !== '' && o.namespace !== '' && bodyNamespace !== o.namespace) {
      throw apiErrors.badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    }
    if (o.namespace !== '') review.metadata.namespace = o.namespace;
  } else {
    delete review.metadata.namespace;
  }
  const errs = validateReview(o.kind, review, spec);
  if (errs.length > 0) {
    // Upstream's REST storage names no object in the 422.
    throw apiErrors.invalid({ group: 'authorization.k8s.io', kind: o.kind }, '', errs);
  }
  if (o.kind === 'LocalSubjectAccessReview') {
    // `fmt.Sprintf("namespace is required on this type: %v", namespace)` with the empty namespace.
    if (o.namespace === '') throw apiErrors.badRequest('namespace is required on this type: ');
    if (o.namespace !== (review.metadata.namespace ?? '')) {
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
  return answered(review, status);
}
