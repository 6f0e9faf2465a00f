/**
 * upstream Admission.ValidateNamespace: Pod Security labels must be valid when a namespace is
 * created, and when an update changes them (an update keeping the same bad labels passes). When
 * an update tightens the enforce level or changes its version, the namespace's existing pods are
 * checked against the new level and violations returned as warnings; for an exempt namespace a
 * warning says the labels will be ignored instead.
 *
 * Which namespace counts as exempt is the request's namespace, as upstream reads it: for
 * `/api/v1/namespaces/{name}` that is the name, for a create (`POST /api/v1/namespaces`) there is
 * none, so creating an exempt namespace does not warn.
 */
import { apiErrors } from '../../machinery/errors.js';
import type { AdmissionAttributes } from '../attributes.js';
import type { PodSecurityContext } from './context.js';
import { exemptNamespaceWarning } from './exempt-namespace-warning.js';
import { compareLevels } from './level.js';
import { sameLevelVersion } from './level-version.js';
import { namespaceLabels } from './namespace-labels.js';
import { evaluatePodsInNamespace } from './namespace-pods.js';
import { policyToEvaluate, sameFieldErrors } from './policy-to-evaluate.js';
import { requestName } from './request-name.js';
import { allowedResponse, errorResponse, type PodSecurityResponse } from './response.js';

export async function validateNamespace(
  ctx: PodSecurityContext,
  a: AdmissionAttributes,
): Promise<PodSecurityResponse> {
  if (a.subresource !== '') return allowedResponse;
  const namespace = a.object;
  if (namespace === undefined) return errorResponse(apiErrors.badRequest('failed to decode namespace'));
  const name = namespace.metadata.name ?? requestName(a);
  const labels = namespaceLabels(namespace);
  const { policy, errors } = policyToEvaluate(labels, ctx.defaultPolicy);
  const invalid = (): PodSecurityResponse =>
    errorResponse(
      apiErrors.invalid({ group: a.resource.group, kind: a.resource.kind }, requestName(a), errors),
    );
  const exemptWarning = (): PodSecurityResponse => {
    const warning = exemptNamespaceWarning(name, policy, ctx.defaultPolicy, labels);
    return warning === undefined ? allowedResponse : { allowed: true, warnings: [warning] };
  };

  if (a.operation === 'CREATE') {
    if (errors.length > 0) return invalid();
    if (ctx.exemptions.namespace(a.namespace)) return exemptWarning();
    return allowedResponse;
  }
  if (a.operation !== 'UPDATE') return allowedResponse;

  const old = policyToEvaluate(namespaceLabels(a.oldObject), ctx.defaultPolicy);
  if (errors.length > 0 && (old.errors.length === 0 || !sameFieldErrors(errors, old.errors)))
    return invalid();
  // No pods to check when enforce is unchanged, privileged, or relaxed at the same version.
  if (sameLevelVersion(policy.enforce, old.policy.enforce)) return allowedResponse;
  if (policy.enforce.level === 'privileged') return allowedResponse;
  if (
    policy.enforce.version === old.policy.enforce.version &&
    compareLevels(policy.enforce.level, old.policy.enforce.level) < 1
  ) {
    return allowedResponse;
  }
  if (ctx.exemptions.namespace(a.namespace !== '' ? a.namespace : name)) return exemptWarning();
  return { allowed: true, warnings: await evaluatePodsInNamespace(ctx, name, policy.enforce) };
}
