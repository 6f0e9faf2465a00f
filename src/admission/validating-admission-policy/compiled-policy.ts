/**
 * A ValidatingAdmissionPolicy made ready to evaluate (apiserver v0.27 validatingadmissionpolicy
 * compilePolicy): its match criteria, match conditions, validations with their messages and
 * message expressions, and audit annotations, each expression compiled once per stored version of
 * the policy. Validations and match conditions may use `authorizer`; message expressions may not;
 * `params` exists when the policy has a paramKind.
 */
import {
  compileAdmissionExpression,
  type CompiledExpression,
  type OptionalVariables,
} from '../../cel/admission/index.js';
import type { KubeObject } from '../../machinery/object.js';
import { objectVersion } from './object-version.js';
import type { JsonObject } from '../../util/json.js';
import { matchCriteria, type MatchCriteria } from '../matching/criteria.js';
import { compileMatchConditions, type CompiledMatchCondition } from '../matching/match-conditions.js';

export type FailurePolicy = 'Fail' | 'Ignore';

export interface CompiledValidation {
  readonly expression: CompiledExpression;
  readonly message: string;
  /** Unset: Invalid. */
  readonly reason: string;
  readonly messageExpression?: CompiledExpression;
}

export interface CompiledAuditAnnotation {
  readonly key: string;
  readonly valueExpression: CompiledExpression;
}

export interface CompiledPolicy {
  readonly name: string;
  /** The stored version compiled (uid and resourceVersion). */
  readonly version: string;
  readonly failurePolicy: FailurePolicy;
  readonly paramKind?: { readonly apiVersion: string; readonly kind: string };
  readonly criteria: MatchCriteria;
  readonly matchConditions: readonly CompiledMatchCondition[];
  readonly validations: readonly CompiledValidation[];
  readonly auditAnnotations: readonly CompiledAuditAnnotation[];
}

function obj(o: JsonObject | undefined, key: string): JsonObject | undefined {
  const v = o?.[key];
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : undefined;
}

function objs(o: JsonObject | undefined, key: string): readonly JsonObject[] {
  const v = o?.[key];
  return Array.isArray(v)
    ? v.filter((x): x is JsonObject => typeof x === 'object' && x !== null && !Array.isArray(x))
    : [];
}

function str(o: JsonObject | undefined, key: string): string {
  const v = o?.[key];
  return typeof v === 'string' ? v : '';
}

export function failurePolicyOf(spec: JsonObject | undefined): FailurePolicy {
  return str(spec, 'failurePolicy') === 'Ignore' ? 'Ignore' : 'Fail';
}

function compiled(
  expression: string,
  vars: OptionalVariables,
  kind: 'bool' | 'string' | 'string-or-null',
): CompiledExpression {
  return { expression, compiled: compileAdmissionExpression(expression, { ...vars, kind }) };
}

export function compilePolicy(policy: KubeObject): CompiledPolicy {
  const spec = obj(policy, 'spec');
  const paramKind = obj(spec, 'paramKind');
  const hasParams = paramKind !== undefined;
  const withAuthorizer: OptionalVariables = { hasParams, hasAuthorizer: true };
  const withoutAuthorizer: OptionalVariables = { hasParams, hasAuthorizer: false };
  return {
    name: policy.metadata.name ?? '',
    version: objectVersion(policy),
    failurePolicy: failurePolicyOf(spec),
    ...(paramKind !== undefined
      ? { paramKind: { apiVersion: str(paramKind, 'apiVersion'), kind: str(paramKind, 'kind') } }
      : {}),
    criteria: matchCriteria(obj(spec, 'matchConstraints'), {
      rulesKey: 'resourceRules',
      emptyRulesMatchAll: false,
    }),
    matchConditions: compileMatchConditions(objs(spec, 'matchConditions'), withAuthorizer),
    validations: objs(spec, 'validations').map((v) => {
      const messageExpression = str(v, 'messageExpression');
      return {
        expression: compiled(str(v, 'expression'), withAuthorizer, 'bool'),
        message: str(v, 'message'),
        reason: str(v, 'reason'),
        ...(messageExpression !== ''
          ? { messageExpression: compiled(messageExpression, withoutAuthorizer, 'string') }
          : {}),
      };
    }),
    auditAnnotations: objs(spec, 'auditAnnotations').map((a) => ({
      key: str(a, 'key'),
      valueExpression: compiled(str(a, 'valueExpression'), withAuthorizer, 'string-or-null'),
    })),
  };
}
