/**
 * ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding validation as upstream
 * pkg/apis/admissionregistration/validation (release-1.27), on admissionregistration.k8s.io/v1alpha1
 * JSON. Metadata is validated generically.
 *
 * Expressions (validations' expression and messageExpression, audit annotations' valueExpression,
 * match conditions) are compiled by the ExpressionCompiler the registry passes in. Not done:
 * parsing status.typeChecking.expressionWarnings[].fieldRef as a JSONPath.
 */
import type { FieldError } from '../../../machinery/field/errors.js';
import { FieldPath, fieldErrors, goQuote } from '../../../machinery/field/errors.js';
import type { KubeObject } from '../../../machinery/object.js';
import { invalidRendered } from '../../../machinery/validation/gosyntax.js';
import {
  isDNS1035Label,
  isDNS1123Subdomain,
  isQualifiedName,
  nameIsDNSSubdomain,
  validatePathSegmentName,
} from '../../../machinery/validation/names.js';
import { jsonEqual } from '../../../util/json.js';
import type { JsonObject } from '../../../util/json.js';
import { indexedObjs, obj, objArr, str, strArr } from '../../core/v1/access.js';
import { validateConditions } from '../../policy/v1/validation.js';
import {
  goTypedSlice,
  present,
  setString,
  supportedFailurePolicies,
  supportedMatchPolicies,
  compileErrors,
  validateMatchConditions,
  validateRuleWithOperations,
  validateSelector,
  type ExpressionCompiler,
} from './common.js';

const maxAuditAnnotations = 20;
/** 5 KiB: less than an audit annotation value may be, since expressions build longer strings. */
const maxAuditAnnotationValueExpressionLength = 5 * 1024;
const supportedValidationPolicyReasons = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'];
const validValidationActions = ['Audit', 'Deny', 'Warn'];

interface PolicyValidationOptions {
  readonly ignoreMatchConditions: boolean;
  readonly compile?: ExpressionCompiler;
}

/** Upstream parseGroupVersion: "" and "/" are empty; more than one slash is an error. */
function parseGroupVersion(gv: string): { group: string; version: string } | string {
  if (gv === '' || gv === '/') return { group: '', version: '' };
  const parts = gv.split('/');
  if (parts.length === 1) return { group: '', version: gv };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return `unexpected GroupVersion string: ${gv}`;
}

/** Upstream validateParamKind. */
function validateParamKind(pk: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = str(pk, 'apiVersion') ?? '';
  const avPath = path.child('apiVersion');
  if (apiVersion === '') {
    errs.push(fieldErrors.required(avPath, ''));
  } else {
    const gv = parseGroupVersion(apiVersion);
    if (typeof gv === 'string') {
      errs.push(fieldErrors.invalid(avPath, apiVersion, gv));
    } else {
      if (gv.group !== '') {
        const groupErrs = isDNS1123Subdomain(gv.group);
        if (groupErrs.length > 0) errs.push(fieldErrors.invalid(avPath, gv.group, groupErrs.join(',')));
      }
      if (gv.version === '') {
        errs.push(fieldErrors.invalid(avPath, apiVersion, 'version must be specified'));
      } else {
        const versionErrs = isDNS1035Label(gv.version);
        if (versionErrs.length > 0) errs.push(fieldErrors.invalid(avPath, gv.version, versionErrs.join(',')));
      }
    }
  }
  const kind = str(pk, 'kind') ?? '';
  if (kind === '') {
    errs.push(fieldErrors.required(path.child('kind'), ''));
  } else {
    const kindErrs = isDNS1035Label(kind.toLowerCase());
    if (kindErrs.length > 0) {
      errs.push(
        fieldErrors.invalid(
          path.child('kind'),
          kind,
          `may have mixed case, but should otherwise match: ${kindErrs.join(',')}`,
        ),
      );
    }
  }
  return errs;
}

/** Upstream validateNamedRuleWithOperations: resource names, then the rule at the same path. */
function validateNamedRuleWithOperations(rule: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  strArr(rule, 'resourceNames').forEach((name, i) => {
    const p = path.child('resourceNames').index(i);
    for (const msg of validatePathSegmentName(name, false)) errs.push(fieldErrors.invalid(p, name, msg));
    if (seen.has(name)) errs.push(fieldErrors.duplicate(p, name));
    else seen.add(name);
  });
  errs.push(...validateRuleWithOperations(rule, path));
  return errs;
}

/**
 * Upstream validateMatchResources. The object selector is reported as `labelSelector`, as
 * upstream does.
 */
function validateMatchResources(mr: JsonObject | undefined, path: FieldPath): FieldError[] {
  if (mr === undefined) return [];
  const errs: FieldError[] = [];
  const matchPolicy = setString(mr, 'matchPolicy');
  if (matchPolicy === undefined) errs.push(fieldErrors.required(path.child('matchPolicy'), ''));
  else if (!supportedMatchPolicies.includes(matchPolicy)) {
    errs.push(fieldErrors.notSupported(path.child('matchPolicy'), matchPolicy, supportedMatchPolicies));
  }
  if (!present(mr, 'namespaceSelector')) errs.push(fieldErrors.required(path.child('namespaceSelector'), ''));
  else errs.push(...validateSelector(mr, 'namespaceSelector', path.child('namespaceSelector')));
  if (!present(mr, 'objectSelector')) errs.push(fieldErrors.required(path.child('labelSelector'), ''));
  else errs.push(...validateSelector(mr, 'objectSelector', path.child('labelSelector')));
  for (const [i, rule] of indexedObjs(mr, 'resourceRules')) {
    errs.push(...validateNamedRuleWithOperations(rule, path.child('resourceRules').index(i)));
  }
  for (const [i, rule] of indexedObjs(mr, 'excludeResourceRules')) {
    errs.push(...validateNamedRuleWithOperations(rule, path.child('excludeResourceRules').index(i)));
  }
  return errs;
}

const newlines = /[\n\r]+/;

/**
 * Upstream validateValidation: the expression compiles to a bool (with `authorizer`), the
 * messageExpression to a string (without it); `params` when the policy has a paramKind.
 */
function validateValidation(
  v: JsonObject,
  path: FieldPath,
  compile: ExpressionCompiler | undefined,
  hasParams: boolean,
): FieldError[] {
  const errs: FieldError[] = [];
  const expression = str(v, 'expression') ?? '';
  if (expression.trim() === '') {
    errs.push(fieldErrors.required(path.child('expression'), 'expression is not specified'));
  } else {
    const requirements = { kind: 'bool', hasParams, hasAuthorizer: true } as const;
    errs.push(...compileErrors(compile, expression, requirements, path.child('expression')));
  }
  const messageExpression = str(v, 'messageExpression') ?? '';
  if (messageExpression !== '' && messageExpression.trim() === '') {
    errs.push(
      fieldErrors.invalid(
        path.child('messageExpression'),
        messageExpression,
        'must be non-empty if specified',
      ),
    );
  } else if (messageExpression !== '') {
    const requirements = { kind: 'string', hasParams, hasAuthorizer: false } as const;
    errs.push(...compileErrors(compile, messageExpression, requirements, path.child('messageExpression')));
  }
  const message = str(v, 'message') ?? '';
  const trimmedMessage = message.trim();
  if (message !== '' && trimmedMessage === '') {
    errs.push(fieldErrors.invalid(path.child('message'), message, 'message must be non-empty if specified'));
  } else if (newlines.test(trimmedMessage)) {
    errs.push(fieldErrors.invalid(path.child('message'), message, 'message must not contain line breaks'));
  }
  const reason = setString(v, 'reason');
  if (reason !== undefined && !supportedValidationPolicyReasons.includes(reason)) {
    errs.push(fieldErrors.notSupported(path.child('reason'), reason, supportedValidationPolicyReasons));
  }
  return errs;
}

/** Upstream validateAuditAnnotation: the value expression compiles to a string or null. */
function validateAuditAnnotation(
  policyName: string,
  a: JsonObject,
  path: FieldPath,
  compile: ExpressionCompiler | undefined,
  hasParams: boolean,
): FieldError[] {
  const errs: FieldError[] = [];
  const key = str(a, 'key') ?? '';
  if (policyName !== '') {
    const qualified = `${policyName}/${key}`;
    for (const msg of isQualifiedName(qualified))
      errs.push(fieldErrors.invalid(path.child('key'), qualified, msg));
  } else {
    errs.push(fieldErrors.invalid(path.child('key'), key, 'requires metadata.name be non-empty'));
  }
  const valueExpression = (str(a, 'valueExpression') ?? '').trim();
  if (valueExpression === '') {
    errs.push(fieldErrors.required(path.child('valueExpression'), 'valueExpression is not specified'));
  } else if (Buffer.byteLength(valueExpression, 'utf8') > maxAuditAnnotationValueExpressionLength) {
    errs.push(
      fieldErrors.required(
        path.child('valueExpression'),
        `must not exceed ${maxAuditAnnotationValueExpressionLength} bytes in length`,
      ),
    );
  } else {
    const requirements = { kind: 'string-or-null', hasParams, hasAuthorizer: true } as const;
    errs.push(...compileErrors(compile, valueExpression, requirements, path.child('valueExpression')));
  }
  return errs;
}

/** `[]admissionregistration.AuditAnnotation{admissionregistration.AuditAnnotation{Key:"k", ...}}`. */
function goAuditAnnotations(list: readonly JsonObject[]): string {
  const items = list.map(
    (a) =>
      `admissionregistration.AuditAnnotation{Key:${goQuote(str(a, 'key') ?? '')}, ValueExpression:${goQuote(str(a, 'valueExpression') ?? '')}}`,
  );
  return `[]admissionregistration.AuditAnnotation{${items.join(', ')}}`;
}

/** Upstream validateValidatingAdmissionPolicySpec. */
function validatePolicySpec(policy: KubeObject, opts: PolicyValidationOptions): FieldError[] {
  const path = FieldPath.root('spec');
  const spec = obj(policy, 'spec');
  const errs: FieldError[] = [];
  const failurePolicy = setString(spec, 'failurePolicy');
  if (failurePolicy === undefined) errs.push(fieldErrors.required(path.child('failurePolicy'), ''));
  else if (!supportedFailurePolicies.includes(failurePolicy)) {
    errs.push(fieldErrors.notSupported(path.child('failurePolicy'), failurePolicy, supportedFailurePolicies));
  }
  const paramKind = obj(spec, 'paramKind');
  if (paramKind !== undefined) errs.push(...validateParamKind(paramKind, path.child('paramKind')));
  const constraints = obj(spec, 'matchConstraints');
  if (constraints === undefined) {
    errs.push(fieldErrors.required(path.child('matchConstraints'), ''));
  } else {
    errs.push(...validateMatchResources(constraints, path.child('matchConstraints')));
    if (objArr(constraints, 'resourceRules').length === 0) {
      errs.push(fieldErrors.required(path.child('matchConstraints', 'resourceRules'), ''));
    }
  }
  const hasParams = paramKind !== undefined;
  if (!opts.ignoreMatchConditions) {
    errs.push(...validateMatchConditions(spec, path.child('matchConditions'), opts.compile, hasParams));
  }
  const validations = indexedObjs(spec, 'validations');
  const annotations = indexedObjs(spec, 'auditAnnotations');
  if (validations.length === 0 && annotations.length === 0) {
    const msg = 'validations or auditAnnotations must contain at least one item';
    errs.push(fieldErrors.required(path.child('validations'), msg));
    errs.push(fieldErrors.required(path.child('auditAnnotations'), msg));
    return errs;
  }
  for (const [i, v] of validations) {
    errs.push(...validateValidation(v, path.child('validations').index(i), opts.compile, hasParams));
  }
  if (annotations.length > maxAuditAnnotations) {
    errs.push(
      invalidRendered(
        path.child('auditAnnotations'),
        goAuditAnnotations(annotations.map(([, a]) => a)),
        `must not have more than ${maxAuditAnnotations} auditAnnotations`,
      ),
    );
  }
  const keys = new Set<string>();
  const policyName = policy.metadata.name ?? '';
  for (const [i, a] of annotations) {
    const p = path.child('auditAnnotations').index(i);
    errs.push(...validateAuditAnnotation(policyName, a, p, opts.compile, hasParams));
    const key = str(a, 'key') ?? '';
    if (keys.has(key)) errs.push(fieldErrors.duplicate(p.child('key'), key));
    keys.add(key);
  }
  return errs;
}

/** Upstream ValidateValidatingAdmissionPolicy. */
export function validateValidatingAdmissionPolicy(
  policy: KubeObject,
  compile?: ExpressionCompiler,
): FieldError[] {
  return validatePolicySpec(policy, {
    ignoreMatchConditions: false,
    ...(compile !== undefined ? { compile } : {}),
  });
}

/**
 * Upstream ValidateValidatingAdmissionPolicyUpdate: match conditions are not checked again while
 * they and the paramKind are unchanged.
 */
export function validateValidatingAdmissionPolicyUpdate(
  policy: KubeObject,
  old: KubeObject,
  compile?: ExpressionCompiler,
): FieldError[] {
  const spec = obj(policy, 'spec');
  const oldSpec = obj(old, 'spec');
  const unchanged =
    jsonEqual(spec?.['paramKind'], oldSpec?.['paramKind']) &&
    jsonEqual(spec?.['matchConditions'], oldSpec?.['matchConditions']);
  return validatePolicySpec(policy, {
    ignoreMatchConditions: unchanged,
    ...(compile !== undefined ? { compile } : {}),
  });
}

/**
 * Upstream ValidateValidatingAdmissionPolicyStatusUpdate: type-checking warnings need a warning and
 * a field reference; conditions follow metav1's rules.
 */
export function validateValidatingAdmissionPolicyStatus(policy: KubeObject): FieldError[] {
  const path = FieldPath.root('status');
  const status = obj(policy, 'status');
  const errs: FieldError[] = [];
  const warningsPath = path.child('typeChecking', 'expressionWarnings');
  for (const [i, w] of indexedObjs(obj(status, 'typeChecking'), 'expressionWarnings')) {
    const p = warningsPath.index(i);
    if ((str(w, 'warning') ?? '') === '') errs.push(fieldErrors.required(p.child('warning'), ''));
    if ((str(w, 'fieldRef') ?? '').trim() === '') errs.push(fieldErrors.required(p.child('fieldRef'), ''));
  }
  errs.push(...validateConditions(status, path.child('conditions')));
  return errs;
}

/** Upstream validateValidationActions: known, unique, not both Deny and Warn, at least one. */
function validateValidationActions(spec: JsonObject | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const actions = strArr(spec, 'validationActions');
  const seen = new Set<string>();
  actions.forEach((action, i) => {
    if (!validValidationActions.includes(action)) {
      errs.push(fieldErrors.notSupported(path.index(i), action, validValidationActions));
    }
    if (seen.has(action)) errs.push(fieldErrors.duplicate(path.index(i), action));
    seen.add(action);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    errs.push(
      invalidRendered(
        path,
        goTypedSlice('ValidationAction', actions),
        'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
      ),
    );
  }
  if (seen.size === 0) errs.push(fieldErrors.required(path, 'at least one validation action is required'));
  return errs;
}

/**
 * Upstream ValidateValidatingAdmissionPolicyBinding (create and update alike). Upstream reports
 * matchResources errors under the misspelt `spec.matchResouces`; kept.
 */
export function validateValidatingAdmissionPolicyBinding(binding: KubeObject): FieldError[] {
  const path = FieldPath.root('spec');
  const spec = obj(binding, 'spec');
  const errs: FieldError[] = [];
  const policyName = str(spec, 'policyName') ?? '';
  if (policyName === '') errs.push(fieldErrors.required(path.child('policyName'), ''));
  else {
    for (const msg of nameIsDNSSubdomain(policyName, false)) {
      errs.push(fieldErrors.invalid(path.child('policyName'), policyName, msg));
    }
  }
  const paramRef = obj(spec, 'paramRef');
  if (paramRef !== undefined) {
    const name = str(paramRef, 'name') ?? '';
    for (const msg of validatePathSegmentName(name, false)) {
      errs.push(fieldErrors.invalid(path.child('paramRef', 'name'), name, msg));
    }
  }
  errs.push(...validateMatchResources(obj(spec, 'matchResources'), path.child('matchResouces')));
  errs.push(...validateValidationActions(spec, path.child('validationActions')));
  return errs;
}
