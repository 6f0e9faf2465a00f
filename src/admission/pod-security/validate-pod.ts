/**
 * upstream Admission.ValidatePod: a pod create or update (the pod itself or its
 * ephemeralcontainers; other subresources are not pod specs) against its namespace's policy.
 * Exempt namespaces and users pass first; then a fully privileged namespace passes without any
 * evaluation (the common case, kept cheap: one cached namespace read); an update that changes
 * nothing the checks look at passes; everything else is evaluated with enforcement.
 */
import { apiErrors } from '../../machinery/errors.js';
import type { AdmissionAttributes } from '../attributes.js';
import { forbidden } from '../errors.js';
import type { PodSecurityContext } from './context.js';
import { evaluatePod } from './evaluate-pod.js';
import { lookupNamespace } from './lookup-namespace.js';
import { namespaceLabels } from './namespace-labels.js';
import { objectField, podMetadata } from './pod-fields.js';
import { fullyPrivileged } from './policy.js';
import { policyToEvaluate } from './policy-to-evaluate.js';
import {
  allowedByNamespaceExemptionResponse,
  allowedByUserExemptionResponse,
  allowedPrivilegedResponse,
  allowedResponse,
  errorResponse,
  type PodSecurityResponse,
} from './response.js';
import { isSignificantPodUpdate } from './significant-update.js';

const evaluatedSubresources: ReadonlySet<string> = new Set(['', 'ephemeralcontainers']);

export async function validatePod(
  ctx: PodSecurityContext,
  a: AdmissionAttributes,
): Promise<PodSecurityResponse> {
  if (!evaluatedSubresources.has(a.subresource)) return allowedResponse;
  if (ctx.exemptions.namespace(a.namespace)) return allowedByNamespaceExemptionResponse;
  if (ctx.exemptions.user(a.user.name)) return allowedByUserExemptionResponse;

  const ns = await lookupNamespace(ctx, a.namespace);
  if (ns.error !== undefined) {
    const err = apiErrors.internal(new Error(`failed to lookup namespace "${a.namespace}"`));
    return errorResponse(err, ns.error);
  }
  const { policy, errors } = policyToEvaluate(namespaceLabels(ns.namespace), ctx.defaultPolicy);
  if (errors.length === 0 && fullyPrivileged(policy)) return allowedPrivilegedResponse;

  const pod = a.object;
  if (pod === undefined) return errorResponse(apiErrors.badRequest('failed to decode pod'));
  if (a.operation === 'UPDATE' && a.oldObject !== undefined && !isSignificantPodUpdate(pod, a.oldObject)) {
    return allowedResponse;
  }
  const spec = objectField(pod, 'spec') ?? {};
  // upstream names the resource without its subresource: `pods "x" is forbidden: ...`
  const forbid = (message: string) => forbidden(a, message);
  return evaluatePod(ctx, policy, errors, { meta: podMetadata(pod.metadata), spec }, forbid);
}
