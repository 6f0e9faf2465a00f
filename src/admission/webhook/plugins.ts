/**
 * The MutatingAdmissionWebhook and ValidatingAdmissionWebhook plugins (apiserver v0.27
 * pkg/admission/plugin/webhook/mutating and validating dispatchers).
 *
 * Mutating webhooks are called one after another in the mutating phase, each patch applied to the
 * object before the next call; a patch that changes the object asks for a second pass of the
 * mutating chain, in which only webhooks with reinvocationPolicy IfNeeded that were called before
 * are called again. Validating webhooks are called in parallel in the validating phase; the first
 * failure to arrive is the answer. A denial is the webhook's Status (ToStatusErr); a call that
 * fails is ignored under failurePolicy Ignore (with a `failed-open` audit annotation) and an
 * Internal error under Fail; a dry run refuses webhooks that may have side effects.
 */
import { jsonEqual } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';
import type { StatusError } from '../../machinery/errors.js';
import { apiErrors } from '../../machinery/errors.js';
import type { KubeObject } from '../../machinery/object.js';
import type { AdmissionAttributes, ObjectAttributes } from '../attributes.js';
import type { AdmissionDependencies } from '../dependencies.js';
import { admissionMetrics } from '../metrics.js';
import { allOperations, type AdmissionPlugin, type MutationRound } from '../plugin.js';
import { callWebhook, dryRunAllowed, invocationFor, VersionedObjects } from './invocation.js';
import { applyWebhookPatch } from './patch.js';
import { dryRunUnsupportedError, WebhookCallError, webhookDenial } from './review.js';
import { isExemptAdmissionConfigurationResource, webhookSource, type Webhook } from './source.js';

function exempt(a: AdmissionAttributes): boolean {
  return isExemptAdmissionConfigurationResource({ group: a.resource.group, kind: a.resource.kind });
}

/** Replaces the object's content in place (plugins share the request's object). */
function replaceContent(target: KubeObject, source: KubeObject): void {
  const t = target as unknown as Record<string, unknown>;
  for (const k of Object.keys(t)) delete t[k];
  Object.assign(t, source);
}

/** webhookReinvokeContext: which webhooks a second pass calls again. */
interface ReinvokeState {
  lastOutput: unknown;
  previouslyInvoked: Set<string>;
  reinvoke: Set<string>;
}

function requireReinvokingPreviouslyInvoked(s: ReinvokeState): void {
  if (s.previouslyInvoked.size === 0) return;
  for (const uid of s.previouslyInvoked) s.reinvoke.add(uid);
  s.previouslyInvoked = new Set();
}

const MUTATING = 'MutatingAdmissionWebhook';
const VALIDATING = 'ValidatingAdmissionWebhook';

export function mutatingWebhookPlugin(deps: AdmissionDependencies): AdmissionPlugin {
  const hooks = webhookSource(deps, 'mutating');
  async function admit(a: ObjectAttributes, given?: MutationRound): Promise<void> {
    if (exempt(a)) return;
    const webhooks = await hooks();
    if (webhooks.length === 0) return;
    const round: MutationRound = given ?? {
      reinvoke: false,
      requestReinvocation: () => undefined,
      state: new Map(),
    };
    let state = round.state.get(MUTATING) as ReinvokeState | undefined;
    if (state === undefined) {
      state = { lastOutput: undefined, previouslyInvoked: new Set(), reinvoke: new Set() };
      round.state.set(MUTATING, state);
    }
    // In-tree plugins changed the object since the webhooks last saw it: call them all again.
    if (round.reinvoke && !jsonEqual(state.lastOutput as JsonObject, a.object)) {
      requireReinvokingPreviouslyInvoked(state);
    }
    try {
      await dispatchMutating(a, webhooks, round, state);
    } finally {
      state.lastOutput = structuredClone(a.object);
    }
  }

  async function dispatchMutating(
    a: AdmissionAttributes,
    webhooks: readonly Webhook[],
    round: MutationRound,
    state: ReinvokeState,
  ): Promise<void> {
    const versioned = new VersionedObjects(a, deps);
    const roundIndex = round.reinvoke ? 1 : 0;
    for (const [i, hook] of webhooks.entries()) {
      const target = await invocationFor(hook, 'mutating', a, deps, versioned);
      if (target === undefined) continue;
      // A webhook skipped in the first pass is not called for the first time in the second.
      if (round.reinvoke && !state.reinvoke.has(hook.uid)) continue;
      const annotation = `round_${roundIndex}_index_${i}`;
      const started = performance.now();
      let changed = false;
      let failure: unknown;
      try {
        if (a.dryRun && !dryRunAllowed(hook)) throw dryRunUnsupportedError(hook.name);
        const objects = await versioned.at(target.resource.version);
        const response = await callWebhook(hook, true, a, target, objects, deps);
        if (!response.allowed) throw new Rejection(response.result);
        const patched = applyWebhookPatch(hook.name, objects.object, response);
        if (patched !== undefined && patched.changed) {
          changed = true;
          let next = patched.object as unknown as KubeObject;
          // The patched object is decoded and defaulted at its version before it goes on.
          deps.resources?.defaults(
            { group: target.resource.group, resource: target.resource.resource },
            next,
          );
          if (target.resource.version !== a.resource.version && deps.resources !== undefined) {
            next = await deps.resources.toStorage(
              { group: a.resource.group, resource: a.resource.resource },
              next,
            );
          }
          // (a patch needs an object: applyWebhookPatch refused one for a delete)
          if (a.object !== undefined) replaceContent(a.object, next);
          versioned.reset();
        }
      } catch (err) {
        failure = err;
      }
      a.addAuditAnnotation?.(
        `mutation.webhook.admission.k8s.io/${annotation}`,
        JSON.stringify({ configuration: hook.configurationName, webhook: hook.name, mutated: changed }),
      );
      if (changed) {
        requireReinvokingPreviouslyInvoked(state);
        round.requestReinvocation();
      }
      if (hook.reinvocationPolicy === 'IfNeeded') state.previouslyInvoked.add(hook.uid);
      const elapsed = performance.now() - started;
      const operation = a.operation;
      if (failure === undefined) {
        admissionMetrics.webhook(hook.name, 'admit', operation, false, elapsed, 200);
        continue;
      }
      const err = settle(
        failure,
        hook,
        'admit',
        operation,
        elapsed,
        () =>
          a.addAuditAnnotation?.(`failed-open.mutation.webhook.admission.k8s.io/${annotation}`, hook.name),
        a.signal,
      );
      if (err !== undefined) throw err;
    }
  }

  /** A delete: the webhooks that match it are called once, with no object. */
  async function admitDelete(a: AdmissionAttributes): Promise<void> {
    if (exempt(a)) return;
    const webhooks = await hooks();
    if (webhooks.length === 0) return;
    const round: MutationRound = { reinvoke: false, requestReinvocation: () => undefined, state: new Map() };
    const state: ReinvokeState = { lastOutput: undefined, previouslyInvoked: new Set(), reinvoke: new Set() };
    await dispatchMutating(a, webhooks, round, state);
  }

  return {
    name: MUTATING,
    operations: allOperations,
    admit,
    admitDelete,
  };
}

/** The webhook said no: its Status, worded by ToStatusErr. */
class Rejection extends Error {
  readonly result: JsonObject | undefined;
  constructor(result: JsonObject | undefined) {
    super('rejected');
    this.result = result;
  }
}

/**
 * What one failed call means: undefined when the failure policy ignores it (after `failOpen`),
 * else the error to answer with; records the call's metrics.
 */
function settle(
  failure: unknown,
  hook: Webhook,
  type: 'admit' | 'validating',
  operation: string,
  elapsedMs: number,
  failOpen: () => void,
  signal: AbortSignal | undefined,
): StatusError | Error | undefined {
  if (failure instanceof WebhookCallError) {
    const ignore = hook.failurePolicy === 'Ignore';
    admissionMetrics.webhook(hook.name, type, operation, !ignore, elapsedMs, failure.status.code);
    if (ignore) {
      admissionMetrics.webhookFailOpen(hook.name, type);
      failOpen();
      // The request itself is gone (its deadline, its client): no point in going on.
      if (signal?.aborted === true)
        return apiErrors.timeout('request did not complete within requested timeout', 0);
      return undefined;
    }
    admissionMetrics.webhookRejection(
      hook.name,
      type,
      operation,
      'calling_webhook_error',
      failure.status.code,
    );
    return apiErrors.internal(failure);
  }
  if (failure instanceof Rejection) {
    const denial = webhookDenial(hook.name, failure.result);
    admissionMetrics.webhook(hook.name, type, operation, true, elapsedMs, denial.code);
    admissionMetrics.webhookRejection(hook.name, type, operation, 'no_error', denial.code);
    return denial;
  }
  admissionMetrics.webhook(hook.name, type, operation, true, elapsedMs, 0);
  admissionMetrics.webhookRejection(hook.name, type, operation, 'apiserver_internal_error', 0);
  return failure instanceof Error ? failure : new Error(String(failure));
}

export function validatingWebhookPlugin(deps: AdmissionDependencies): AdmissionPlugin {
  const hooks = webhookSource(deps, 'validating');
  async function validate(a: AdmissionAttributes): Promise<void> {
    if (exempt(a)) return;
    const webhooks = await hooks();
    if (webhooks.length === 0) return;
    const versioned = new VersionedObjects(a, deps);
    const invocations: {
      hook: Webhook;
      index: number;
      target: NonNullable<Awaited<ReturnType<typeof invocationFor>>>;
    }[] = [];
    for (const [index, hook] of webhooks.entries()) {
      const target = await invocationFor(hook, 'validating', a, deps, versioned);
      if (target !== undefined) invocations.push({ hook, index, target });
    }
    if (invocations.length === 0) return;
    const errors: (Error | StatusError)[] = [];
    await Promise.all(
      invocations.map(async ({ hook, index, target }) => {
        const started = performance.now();
        let failure: unknown;
        try {
          if (a.dryRun && !dryRunAllowed(hook)) throw dryRunUnsupportedError(hook.name);
          const objects = await versioned.at(target.resource.version);
          const response = await callWebhook(hook, false, a, target, objects, deps);
          if (!response.allowed) throw new Rejection(response.result);
        } catch (err) {
          failure = err;
        }
        const elapsed = performance.now() - started;
        if (failure === undefined) {
          admissionMetrics.webhook(hook.name, 'validating', a.operation, false, elapsed, 200);
          return;
        }
        const err = settle(
          failure,
          hook,
          'validating',
          a.operation,
          elapsed,
          () =>
            a.addAuditAnnotation?.(
              `failed-open.validating.webhook.admission.k8s.io/round_0_index_${index}`,
              hook.name,
            ),
          a.signal,
        );
        if (err !== undefined) errors.push(err);
      }),
    );
    const first = errors[0];
    if (first !== undefined) throw first;
  }
  return { name: VALIDATING, operations: allOperations, validate };
}
