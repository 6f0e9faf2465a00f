/**
 * Validation shared by webhook configurations and admission policies, as upstream
 * pkg/apis/admissionregistration/validation (release-1.27), on versioned JSON: rules with
 * operations and the subresource wildcard rules, match conditions, selectors and the Go renderings
 * of the typed slices upstream reports.
 */
import { FieldPath, fieldErrors, goQuote } from '../../../machinery/field/errors.js';
import type { FieldError } from '../../../machinery/field/errors.js';
import { validateLabelSelector } from '../../../machinery/labels/selector.js';
import type { LabelSelectorValidationOptions } from '../../../machinery/labels/selector.js';
import { invalidRendered, goStringSlice } from '../../../machinery/validation/gosyntax.js';
import { isQualifiedName } from '../../../machinery/validation/names.js';
import type { JsonObject } from '../../../util/json.js';
import { toMetav1Selector } from '../../../machinery/labels/metav1.js';
import { indexedObjs, obj, str, strArr } from '../../core/v1/access.js';

/** Go's sets.String.List(): sorted byte-wise. */
export const supportedFailurePolicies = ['Fail', 'Ignore'];
export const supportedMatchPolicies = ['Equivalent', 'Exact'];
export const supportedOperations = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const validScopes = ['*', 'Cluster', 'Namespaced'];

/** The matchConditions limit (upstream validateMatchConditions). */
export const maxMatchConditions = 64;

/** `[]admissionregistration.<type>{"a", "b"}`: a typed string slice as Go's %#v prints it. */
export function goTypedSlice(type: string, values: readonly string[]): string {
  return `[]admissionregistration.${type}{${values.map(goQuote).join(', ')}}`;
}

/** True when the field is present (a Go pointer that is not nil). */
export function present(o: JsonObject | undefined, key: string): boolean {
  const v = o?.[key];
  return v !== undefined && v !== null;
}

/** A string field that is present, as its value ('' when not a string). */
export function setString(o: JsonObject | undefined, key: string): string | undefined {
  return present(o, key) ? (str(o, key) ?? '') : undefined;
}

/** Upstream validateResources: subresource wildcards may not overlap. */
function validateResources(resources: readonly string[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(fieldErrors.required(path, ''));
  const withWildcardSub = new Set<string>();
  const subWithWildcardRes = new Set<string>();
  let hasDoubleWildcard = false;
  let hasSingleWildcard = false;
  let hasResourceWithoutSubresource = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') {
      errs.push(fieldErrors.required(path.index(i), ''));
      return;
    }
    if (resSub === '*/*') hasDoubleWildcard = true;
    if (resSub === '*') hasSingleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      // Upstream overwrites the flag with each resource without a subresource (quirk kept).
      hasResourceWithoutSubresource = resSub !== '*';
      return;
    }
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (withWildcardSub.has(res)) {
      errs.push(
        fieldErrors.invalid(path.index(i), resSub, `if '${res}/*' is present, must not specify ${resSub}`),
      );
    }
    if (subWithWildcardRes.has(sub)) {
      errs.push(
        fieldErrors.invalid(path.index(i), resSub, `if '*/${sub}' is present, must not specify ${resSub}`),
      );
    }
    if (sub === '*') withWildcardSub.add(res);
    if (res === '*') subWithWildcardRes.add(sub);
  });
  if (resources.length > 1 && hasDoubleWildcard) {
    errs.push(
      invalidRendered(
        path,
        goStringSlice(resources),
        "if '*/*' is present, must not specify other resources",
      ),
    );
  }
  if (hasSingleWildcard && hasResourceWithoutSubresource) {
    errs.push(
      invalidRendered(
        path,
        goStringSlice(resources),
        "if '*' is present, must not specify other resources without subresources",
      ),
    );
  }
  return errs;
}

/** Upstream validateRule with subresources allowed (the only way v1.27 calls it). */
function validateRule(rule: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const groups = strArr(rule, 'apiGroups');
  if (groups.length === 0) errs.push(fieldErrors.required(path.child('apiGroups'), ''));
  if (groups.length > 1 && groups.includes('*')) {
    errs.push(
      invalidRendered(
        path.child('apiGroups'),
        goStringSlice(groups),
        "if '*' is present, must not specify other API groups",
      ),
    );
  }
  const versions = strArr(rule, 'apiVersions');
  if (versions.length === 0) errs.push(fieldErrors.required(path.child('apiVersions'), ''));
  if (versions.length > 1 && versions.includes('*')) {
    errs.push(
      invalidRendered(
        path.child('apiVersions'),
        goStringSlice(versions),
        "if '*' is present, must not specify other API versions",
      ),
    );
  }
  versions.forEach((v, i) => {
    if (v === '') errs.push(fieldErrors.required(path.child('apiVersions').index(i), ''));
  });
  errs.push(...validateResources(strArr(rule, 'resources'), path.child('resources')));
  const scope = setString(rule, 'scope');
  if (scope !== undefined && !validScopes.includes(scope)) {
    errs.push(fieldErrors.notSupported(path.child('scope'), scope, validScopes));
  }
  return errs;
}

/** Upstream validateRuleWithOperations: the operations, then the rule at the same path. */
export function validateRuleWithOperations(rule: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const operations = strArr(rule, 'operations');
  if (operations.length === 0) errs.push(fieldErrors.required(path.child('operations'), ''));
  if (operations.length > 1 && operations.includes('*')) {
    errs.push(
      invalidRendered(
        path.child('operations'),
        goTypedSlice('OperationType', operations),
        "if '*' is present, must not specify other operations",
      ),
    );
  }
  operations.forEach((op, i) => {
    if (!supportedOperations.includes(op)) {
      errs.push(fieldErrors.notSupported(path.child('operations').index(i), op, supportedOperations));
    }
  });
  errs.push(...validateRule(rule, path));
  return errs;
}

/** What an admission expression must evaluate to, and which optional variables it sees. */
export interface ExpressionRequirements {
  readonly kind: 'bool' | 'string' | 'string-or-null';
  readonly hasParams: boolean;
  readonly hasAuthorizer: boolean;
}

/**
 * Compiles one CEL admission expression (the registry passes the CEL engine in; apis/ does not
 * depend on it): undefined when it compiles, else upstream's error for it.
 */
export type ExpressionCompiler = (
  expression: string,
  requirements: ExpressionRequirements,
) => { readonly type: 'Invalid' | 'Internal'; readonly detail: string } | undefined;

/** Upstream convertCELErrorToValidationError: an Invalid names the expression, an Internal does not. */
export function compileErrors(
  compile: ExpressionCompiler | undefined,
  expression: string,
  requirements: ExpressionRequirements,
  path: FieldPath,
): FieldError[] {
  const failure = compile?.(expression, requirements);
  if (failure === undefined) return [];
  if (failure.type === 'Internal') return [fieldErrors.internal(path, new Error(failure.detail))];
  return [fieldErrors.invalid(path, expression, failure.detail)];
}

/**
 * Upstream validateMatchCondition: the expression must be non-blank and compile to a bool (with
 * `params` when the owner has a paramKind, and `authorizer`), the name a qualified name.
 */
function validateMatchCondition(
  mc: JsonObject,
  path: FieldPath,
  compile: ExpressionCompiler | undefined,
  hasParams: boolean,
): FieldError[] {
  const errs: FieldError[] = [];
  const expression = str(mc, 'expression') ?? '';
  if (expression.trim() === '') errs.push(fieldErrors.required(path.child('expression'), ''));
  else {
    const requirements = { kind: 'bool', hasParams, hasAuthorizer: true } as const;
    errs.push(...compileErrors(compile, expression, requirements, path.child('expression')));
  }
  const name = str(mc, 'name') ?? '';
  if (name === '') errs.push(fieldErrors.required(path.child('name'), ''));
  else for (const msg of isQualifiedName(name)) errs.push(fieldErrors.invalid(path.child('name'), name, msg));
  return errs;
}

/** Upstream validateMatchConditions: at most 64, each well formed, names unique. */
export function validateMatchConditions(
  owner: JsonObject | undefined,
  path: FieldPath,
  compile?: ExpressionCompiler,
  hasParams = false,
): FieldError[] {
  const errs: FieldError[] = [];
  const list = owner?.['matchConditions'];
  const count = Array.isArray(list) ? list.length : 0;
  if (count > maxMatchConditions) errs.push(fieldErrors.tooMany(path, count, maxMatchConditions));
  const names = new Set<string>();
  for (const [i, mc] of indexedObjs(owner, 'matchConditions')) {
    errs.push(...validateMatchCondition(mc, path.index(i), compile, hasParams));
    const name = str(mc, 'name') ?? '';
    if (name !== '') {
      if (names.has(name)) errs.push(fieldErrors.duplicate(path.index(i).child('name'), name));
      else names.add(name);
    }
  }
  return errs;
}

/** metav1 ValidateLabelSelector on a JSON selector. */
export function validateSelector(
  owner: JsonObject | undefined,
  key: string,
  path: FieldPath,
  options: LabelSelectorValidationOptions = {},
): FieldError[] {
  return validateLabelSelector(toMetav1Selector(obj(owner, key)), path, options);
}

/** True when a selector would fail strict validation (its stored values are tolerated on update). */
export function hasInvalidLabelValue(owner: JsonObject, key: string): boolean {
  const sel = obj(owner, key);
  return sel !== undefined && validateLabelSelector(toMetav1Selector(sel), FieldPath.root('')).length > 0;
}
