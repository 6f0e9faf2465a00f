/**
 * upstream Admission.ValidatePodController: a workload's pod template (Deployments, Jobs, ...) is
 * checked against the namespace's audit and warn levels only, never enforced: the pods it creates
 * are. Subresources (scale, status) pass; so does a namespace whose audit and warn levels are
 * privileged. Failures to read the namespace allow the request, recorded as audit annotation.
 */
import type { AdmissionAttributes } from '../attributes.js';
import type { PodSecurityContext } from './context.js';
import { evaluatePod } from './evaluate-pod.js';
import { errorAnnotationKey } from './labels.js';
import { lookupNamespace } from './lookup-namespace.js';
import { namespaceLabels } from './namespace-labels.js';
import { extractPodSpec } from './pod-spec-extractor.js';
import { policyToEvaluate } from './policy-to-evaluate.js';
import {
  allowedByNamespaceExemptionResponse,
  allowedByUserExemptionResponse,
  allowedResponse,
  type PodSecurityResponse,
} from './response.js';

export async function validatePodController(
  ctx: PodSecurityContext,
  a: AdmissionAttributes,
): Promise<PodSecurityResponse> {
  if (a.subresource !== '') return allowedResponse;
  if (ctx.exemptions.namespace(a.namespace)) return allowedByNamespaceExemptionResponse;
  if (ctx.exemptions.user(a.user.name)) return allowedByUserExemptionResponse;

  const ns = await lookupNamespace(ctx, a.namespace);
  if (ns.error !== undefined) {
    const message = `failed to lookup namespace "${a.namespace}": ${ns.error}`;
    return { allowed: true, auditAnnotations: { [errorAnnotationKey]: message } };
  }
  const { policy, errors } = policyToEvaluate(namespaceLabels(ns.namespace), ctx.defaultPolicy);
  if (errors.length === 0 && policy.warn.level === 'privileged' && policy.audit.level === 'privileged') {
    return allowedResponse;
  }
  if (a.object === undefined) return allowedResponse;
  const pod = extractPodSpec(a.resource.group, a.resource.resource, a.object);
  if (pod === undefined) return allowedResponse;
  return evaluatePod(ctx, policy, errors, pod, undefined);
}
