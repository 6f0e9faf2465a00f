/**
 * RoleBinding and ClusterRoleBinding validation as pkg/apis/rbac/validation (release-1.27), on
 * rbac/v1 JSON (after defaulting). Object metadata is checked by the generic store.
 */
import { FieldPath, fieldErrors, goQuote } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import type { KubeObject } from '../../../../machinery/object.js';
import { invalidRendered } from '../../../../machinery/validation/gosyntax.js';
import { isValidPathSegmentName, nameIsDNSSubdomain } from '../../../../machinery/validation/names.js';
import { isJsonObject } from '../../../../util/json.js';
import type { JsonObject } from '../../../../util/json.js';
import { obj, str } from '../../../core/v1/access.js';
import { rbacGroup } from '../group.js';

const subjectKinds = ['ServiceAccount', 'User', 'Group'];

/** Upstream ValidateRoleBindingSubject: `namespaced` is false for cluster role bindings. */
export function validateSubject(subject: JsonObject, namespaced: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(subject, 'name') ?? '';
  const apiGroup = str(subject, 'apiGroup') ?? '';
  const kind = str(subject, 'kind') ?? '';
  if (name === '') errs.push(fieldErrors.required(path.child('name')));
  switch (kind) {
    case 'ServiceAccount':
      if (name !== '') {
        for (const msg of nameIsDNSSubdomain(name, false)) {
          errs.push(fieldErrors.invalid(path.child('name'), name, msg));
        }
      }
      if (apiGroup !== '') errs.push(fieldErrors.notSupported(path.child('apiGroup'), apiGroup, ['']));
      if (!namespaced && (str(subject, 'namespace') ?? '') === '') {
        errs.push(fieldErrors.required(path.child('namespace')));
      }
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== rbacGroup) {
        errs.push(fieldErrors.notSupported(path.child('apiGroup'), apiGroup, [rbacGroup]));
      }
      break;
    default:
      errs.push(fieldErrors.notSupported(path.child('kind'), kind, subjectKinds));
  }
  return errs;
}

function validateBinding(binding: KubeObject, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const ref = obj(binding, 'roleRef');
  const refPath = FieldPath.root('roleRef');
  const apiGroup = str(ref, 'apiGroup') ?? '';
  if (apiGroup !== rbacGroup) {
    errs.push(fieldErrors.notSupported(refPath.child('apiGroup'), apiGroup, [rbacGroup]));
  }
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  const kind = str(ref, 'kind') ?? '';
  if (!kinds.includes(kind)) errs.push(fieldErrors.notSupported(refPath.child('kind'), kind, kinds));
  const name = str(ref, 'name') ?? '';
  if (name === '') errs.push(fieldErrors.required(refPath.child('name')));
  else {
    for (const msg of isValidPathSegmentName(name)) {
      errs.push(fieldErrors.invalid(refPath.child('name'), name, msg));
    }
  }
  const subjects = binding['subjects'];
  if (Array.isArray(subjects)) {
    const path = FieldPath.root('subjects');
    subjects.forEach((s, i) => {
      errs.push(...validateSubject(isJsonObject(s) ? s : {}, namespaced, path.index(i)));
    });
  }
  return errs;
}

/** Upstream ValidateRoleBinding (without the metadata part). */
export function validateRoleBinding(binding: KubeObject): FieldError[] {
  return validateBinding(binding, true);
}

/** Upstream ValidateClusterRoleBinding (without the metadata part). */
export function validateClusterRoleBinding(binding: KubeObject): FieldError[] {
  return validateBinding(binding, false);
}

interface RoleRef {
  readonly apiGroup: string;
  readonly kind: string;
  readonly name: string;
}

function roleRefOf(binding: KubeObject): RoleRef {
  const ref = obj(binding, 'roleRef');
  return {
    apiGroup: str(ref, 'apiGroup') ?? '',
    kind: str(ref, 'kind') ?? '',
    name: str(ref, 'name') ?? '',
  };
}

/** Go's `%#v` of the internal struct: `rbac.RoleRef{APIGroup:"…", Kind:"…", Name:"…"}`. */
export function goRoleRef(ref: RoleRef): string {
  return `rbac.RoleRef{APIGroup:${goQuote(ref.apiGroup)}, Kind:${goQuote(ref.kind)}, Name:${goQuote(ref.name)}}`;
}

/**
 * The update rule of both binding kinds (upstream Validate[Cluster]RoleBindingUpdate): the role
 * reference never changes; a binding to another role is a new binding.
 */
export function validateRoleRefUnchanged(binding: KubeObject, old: KubeObject): FieldError[] {
  const ref = roleRefOf(binding);
  const oldRef = roleRefOf(old);
  if (ref.apiGroup === oldRef.apiGroup && ref.kind === oldRef.kind && ref.name === oldRef.name) return [];
  return [invalidRendered(FieldPath.root('roleRef'), goRoleRef(ref), 'cannot change roleRef')];
}
