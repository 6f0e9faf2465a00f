/**
 * Role and ClusterRole validation as pkg/apis/rbac/validation (release-1.27), on rbac/v1 JSON.
 * Object metadata (names as path segments, upstream ValidateRBACName) is checked by the generic
 * store; these are the rules and the aggregation rule.
 */
import { FieldPath, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import { validateLabelSelector } from '../../../../machinery/labels/selector.js';
import type { KubeObject } from '../../../../machinery/object.js';
import { goStringSlice, invalidRendered } from '../../../../machinery/validation/gosyntax.js';
import { isJsonObject } from '../../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../../util/json.js';
import { asSelector, toMetav1Selector } from '../../../../machinery/labels/metav1.js';
import { obj, strArr } from '../../../core/v1/access.js';

function listLength(o: JsonObject, key: string): number {
  const v = o[key];
  return Array.isArray(v) ? v.length : 0;
}

/** The items of a list field as structs (Go decodes a null item into the zero struct). */
function structs(o: JsonObject | undefined, key: string): JsonObject[] {
  const v: JsonValue | undefined = o?.[key];
  return Array.isArray(v) ? v.map((item) => (isJsonObject(item) ? item : {})) : [];
}

/**
 * Upstream ValidatePolicyRule: verbs are required; a rule is either about non-resource URLs
 * (cluster roles only, nothing else set) or about resources (API groups and resources required).
 */
export function validatePolicyRule(rule: JsonObject, namespaced: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (listLength(rule, 'verbs') === 0) {
    errs.push(fieldErrors.required(path.child('verbs'), 'verbs must contain at least one value'));
  }
  if (listLength(rule, 'nonResourceURLs') > 0) {
    const urls = goStringSlice(strArr(rule, 'nonResourceURLs'));
    if (namespaced) {
      errs.push(
        invalidRendered(
          path.child('nonResourceURLs'),
          urls,
          'namespaced rules cannot apply to non-resource URLs',
        ),
      );
    }
    if (
      listLength(rule, 'apiGroups') > 0 ||
      listLength(rule, 'resources') > 0 ||
      listLength(rule, 'resourceNames') > 0
    ) {
      errs.push(
        invalidRendered(
          path.child('nonResourceURLs'),
          urls,
          'rules cannot apply to both regular resources and non-resource URLs',
        ),
      );
    }
    return errs;
  }
  if (listLength(rule, 'apiGroups') === 0) {
    errs.push(
      fieldErrors.required(path.child('apiGroups'), 'resource rules must supply at least one api group'),
    );
  }
  if (listLength(rule, 'resources') === 0) {
    errs.push(
      fieldErrors.required(path.child('resources'), 'resource rules must supply at least one resource'),
    );
  }
  return errs;
}

function validateRules(role: KubeObject, namespaced: boolean): FieldError[] {
  const path = FieldPath.root('rules');
  return structs(role, 'rules').flatMap((rule, i) => validatePolicyRule(rule, namespaced, path.index(i)));
}

/** Upstream ValidateRole (without the metadata part); the same on update. */
export function validateRole(role: KubeObject): FieldError[] {
  return validateRules(role, true);
}

export interface ClusterRoleValidationOptions {
  /** Tolerate invalid label values in aggregation selectors (an update of an object that has them). */
  readonly allowInvalidLabelValueInSelector: boolean;
}

/**
 * Upstream ValidateClusterRole (without the metadata part): the rules, and an aggregation rule
 * needs at least one well-formed cluster role selector.
 */
export function validateClusterRole(role: KubeObject, opts: ClusterRoleValidationOptions): FieldError[] {
  const errs = validateRules(role, false);
  const aggregation = obj(role, 'aggregationRule');
  if (aggregation === undefined) return errs;
  const path = FieldPath.root('aggregationRule', 'clusterRoleSelectors');
  const selectors = structs(aggregation, 'clusterRoleSelectors');
  if (selectors.length === 0) {
    errs.push(
      fieldErrors.required(path, 'at least one clusterRoleSelector required if aggregationRule is non-nil'),
    );
  }
  selectors.forEach((selector, i) => {
    const p = path.index(i);
    errs.push(
      ...validateLabelSelector(toMetav1Selector(selector), p, {
        allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector,
      }),
    );
    // Upstream reports the failed conversion's nil selector, which prints as "null".
    if (!asSelector(selector).ok) errs.push(invalidRendered(p, '"null"', 'invalid label selector.'));
  });
  return errs;
}

/**
 * Upstream hasInvalidLabelValueInLabelSelector of the cluster role strategy: true when any
 * aggregation selector of the stored object fails strict validation, so an update may keep it.
 */
export function hasInvalidLabelValueInLabelSelector(role: KubeObject): boolean {
  const aggregation = obj(role, 'aggregationRule');
  if (aggregation === undefined) return false;
  const path = FieldPath.root('aggregationRule', 'clusterRoleSelectors');
  return structs(aggregation, 'clusterRoleSelectors').some(
    (selector) => validateLabelSelector(toMetav1Selector(selector), path).length > 0,
  );
}
