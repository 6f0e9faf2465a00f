/**
 * What both webhook dispatchers share (apiserver v0.27 generic/webhook.go ShouldCallHook and the
 * dispatchers' call): whether a webhook applies to a request (selectors, rules, matchPolicy, then
 * its match conditions over the object at the matched version), the object converted to that
 * version once per request and version, and one call: review built, posted, answer verified.
 */
import { celAdmission, loadCelAdmission } from '../../cel/admission/load.js';
import { apiErrors } from '../../machinery/errors.js';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import { requestedResource } from '../../machinery/admission-attributes.js';
import type { AdmissionAttributes } from '../attributes.js';
import type { AdmissionDependencies } from '../dependencies.js';
import { equivalentsOf, matchRequest, type MatchedResource } from '../matching/criteria.js';
import { evaluateMatchConditions } from '../matching/match-conditions.js';
import { admissionMetrics } from '../metrics.js';
import {
  createAdmissionReview,
  readAdmissionResponse,
  webhookCallError,
  type AdmissionResponse,
} from './review.js';
import type { Webhook, WebhookKind } from './source.js';

/** The request's object and old object at the versions webhooks asked for. */
export class VersionedObjects {
  readonly #a: AdmissionAttributes;
  readonly #deps: AdmissionDependencies;
  readonly #byVersion = new Map<string, { object?: KubeObject; oldObject?: KubeObject }>();

  constructor(a: AdmissionAttributes, deps: AdmissionDependencies) {
    this.#a = a;
    this.#deps = deps;
  }

  /** Forgets conversions (the object changed under them). */
  reset(): void {
    this.#byVersion.clear();
  }

  async at(version: string): Promise<{ object?: KubeObject; oldObject?: KubeObject }> {
    const a = this.#a;
    if (version === a.resource.version || this.#deps.resources === undefined) {
      return {
        ...(a.object !== undefined ? { object: a.object } : {}),
        ...(a.oldObject !== undefined ? { oldObject: a.oldObject } : {}),
      };
    }
    const cached = this.#byVersion.get(version);
    if (cached !== undefined) return cached;
    const gr = { group: a.resource.group, resource: a.resource.resource };
    try {
      const object =
        a.object === undefined ? undefined : await this.#deps.resources.convert(gr, a.object, version);
      const oldObject =
        a.oldObject === undefined ? undefined : await this.#deps.resources.convert(gr, a.oldObject, version);
      const entry = {
        ...(object !== undefined ? { object } : {}),
        ...(oldObject !== undefined ? { oldObject } : {}),
      };
      this.#byVersion.set(version, entry);
      return entry;
    } catch (err) {
      throw apiErrors.internal(err);
    }
  }
}

/**
 * ShouldCallHook: the matched resource when the webhook applies, undefined when it does not;
 * throws a selector's error, or a Forbidden when its match conditions fail under failurePolicy Fail.
 */
export async function invocationFor(
  hook: Webhook,
  kind: WebhookKind,
  a: AdmissionAttributes,
  deps: AdmissionDependencies,
  versioned: VersionedObjects,
): Promise<MatchedResource | undefined> {
  const matched = await matchRequest(hook.criteria, a, deps.lookup, equivalentsOf(deps.resources));
  if (!matched.matches) {
    if (matched.error !== undefined) throw matched.error;
    return undefined;
  }
  const target: MatchedResource = { resource: matched.resource, kind: matched.kind };
  if (hook.matchConditions.length === 0) return target;
  const objects = await versioned.at(target.resource.version);
  await loadCelAdmission();
  const { admissionActivation, admissionRequestJson } = celAdmission();
  const celAuthorizer = deps.celAuthorizer?.(a.user);
  const activation = admissionActivation({
    attributes: a,
    object: objects.object,
    oldObject: objects.oldObject,
    request: admissionRequestJson(a, target),
    ...(celAuthorizer !== undefined ? { authorizer: celAuthorizer } : {}),
  });
  const result = evaluateMatchConditions(hook.matchConditions, activation, hook.failurePolicy, () =>
    admissionMetrics.matchConditionError(hook.name, kind),
  );
  if ('error' in result) {
    throw apiErrors.forbidden(
      { group: a.resource.group, resource: a.resource.resource },
      a.name,
      result.error,
    );
  }
  return result.matches ? target : undefined;
}

/** The request's own kind, resource and subresource. */
function requestTarget(a: AdmissionAttributes): {
  kind: { group: string; version: string; kind: string };
  resource: { group: string; version: string; resource: string };
  subResource: string;
} {
  return { ...requestedResource(a), subResource: a.subresource };
}

/**
 * One webhook call: the AdmissionReview for the object at the matched version, posted within the
 * webhook's timeout, the answer verified; audit annotations (prefixed with the webhook's name)
 * and warnings recorded. Throws a WebhookCallError when the call or its answer fails.
 */
export async function callWebhook(
  hook: Webhook,
  mutating: boolean,
  a: AdmissionAttributes,
  target: MatchedResource,
  objects: { object?: KubeObject; oldObject?: KubeObject },
  deps: AdmissionDependencies,
): Promise<AdmissionResponse> {
  let call;
  try {
    call = createAdmissionReview({
      admissionReviewVersions: hook.admissionReviewVersions,
      attributes: a,
      matched: { ...target, subResource: a.subresource },
      request: requestTarget(a),
      object: (objects.object as unknown as JsonObject | undefined) ?? null,
      oldObject: (objects.oldObject as unknown as JsonObject | undefined) ?? null,
    });
  } catch (err) {
    throw webhookCallError(hook.name, 'create', err);
  }
  if (deps.webhooks === undefined) {
    throw webhookCallError(hook.name, 'call', new Error('no webhook client is configured'));
  }
  let body: unknown;
  try {
    body = await deps.webhooks.post(hook.clientConfig, call.review, {
      key: hook.transportKey,
      timeoutMs: hook.timeoutMs,
      ...(a.signal !== undefined ? { signal: a.signal } : {}),
    });
  } catch (err) {
    throw webhookCallError(hook.name, 'call', err);
  }
  const response = readAdmissionResponse(hook.name, call, mutating, body);
  for (const [k, v] of Object.entries(response.auditAnnotations))
    a.addAuditAnnotation?.(`${hook.name}/${k}`, v);
  for (const w of response.warnings) a.addWarning?.(w);
  return response;
}

/** A dry run may reach only webhooks without side effects (NoneOnDryRun included). */
export function dryRunAllowed(hook: Webhook): boolean {
  return hook.sideEffects === 'None' || hook.sideEffects === 'NoneOnDryRun';
}
