/**
 * upstream Admission.EvaluatePod: a pod (or pod template) against the namespace's policy. Pods of
 * an exempt runtime class pass. With `enforce` (pods, not workloads) a violation of the enforce
 * level denies with 403 and the enforced policy is recorded as audit annotation; a violation of
 * the audit level is recorded as audit annotation; one of the warn level is a warning, unless the
 * request is denied anyway. Each level:version is evaluated once.
 */
import type { JsonObject } from '../../util/json.js';
import type { FieldError } from '../../machinery/field/errors.js';
import type { StatusError } from '../../machinery/errors.js';
import { aggregateCheckResults, forbiddenDetail, type AggregateCheckResult } from './aggregate.js';
import type { PodSecurityContext } from './context.js';
import { auditViolationsAnnotationKey, enforcedPolicyAnnotationKey, errorAnnotationKey } from './labels.js';
import { levelVersionString, type LevelVersion } from './level-version.js';
import type { PodMetadata } from './pod-fields.js';
import type { Policy } from './policy.js';
import { aggregateMessage } from './policy-to-evaluate.js';
import { allowedByRuntimeClassExemptionResponse, type PodSecurityResponse } from './response.js';

export interface PodToEvaluate {
  readonly meta: PodMetadata;
  readonly spec: JsonObject;
}

export function evaluatePod(
  ctx: PodSecurityContext,
  policy: Policy,
  policyErrors: readonly FieldError[],
  pod: PodToEvaluate,
  /** Builds the 403 for an enforce violation; undefined evaluates audit and warn only. */
  forbid: ((message: string) => StatusError) | undefined,
): PodSecurityResponse {
  if (ctx.exemptions.runtimeClass(pod.spec['runtimeClassName']))
    return allowedByRuntimeClassExemptionResponse;

  const auditAnnotations: Record<string, string> = {};
  if (policyErrors.length > 0) {
    auditAnnotations[errorAnnotationKey] =
      `Failed to parse policy: ${aggregateMessage(policyErrors.map((e) => e.toString()))}`;
  }
  const cache = new Map<string, AggregateCheckResult>();
  const evaluate = (lv: LevelVersion): AggregateCheckResult => {
    const key = levelVersionString(lv);
    let result = cache.get(key);
    if (result === undefined) {
      result = aggregateCheckResults(ctx.evaluator.evaluatePod(lv, pod.meta, pod.spec));
      cache.set(key, result);
    }
    return result;
  };

  let error: StatusError | undefined;
  if (forbid !== undefined) {
    const enforce = levelVersionString(policy.enforce);
    auditAnnotations[enforcedPolicyAnnotationKey] = enforce;
    const result = evaluate(policy.enforce);
    if (!result.allowed) error = forbid(`violates PodSecurity "${enforce}": ${forbiddenDetail(result)}`);
  }
  const audit = evaluate(policy.audit);
  if (!audit.allowed) {
    auditAnnotations[auditViolationsAnnotationKey] =
      `would violate PodSecurity "${levelVersionString(policy.audit)}": ${forbiddenDetail(audit)}`;
  }
  const warnings: string[] = [];
  if (error === undefined) {
    const warn = evaluate(policy.warn);
    if (!warn.allowed) {
      warnings.push(
        `would violate PodSecurity "${levelVersionString(policy.warn)}": ${forbiddenDetail(warn)}`,
      );
    }
  }
  if (error !== undefined) return { allowed: false, error, auditAnnotations };
  return { allowed: true, warnings, auditAnnotations };
}
