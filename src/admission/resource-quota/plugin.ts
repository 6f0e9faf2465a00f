/**
 * ResourceQuota (validating; upstream k8s.io/apiserver/pkg/admission/plugin/resourcequota): a write
 * that would take a namespace's usage past a quota's `hard` is refused with 403, and one that is
 * admitted is charged to the quotas' `status.used` before it is stored. Writes of one namespace
 * are checked in batches by one worker at a time (upstream's quotaEvaluator): each batch adds
 * its requests' usage in order and writes every changed quota's status once, with its
 * resourceVersion as precondition; a write that lost a race re-reads the quotas and checks the
 * batch again (3 retries), so concurrent creates never take more than `hard`. Dry-run requests are
 * checked but not charged. The quota controller recalculates usage from what is stored.
 */
import { quotaEvaluatorFor } from '../../apis/core/v1/quota/evaluators.js';
import type { QuotaEvaluator } from '../../apis/core/v1/quota/evaluators.js';
import { resourceListOf, equalLists } from '../../apis/core/v1/quota/resource-list.js';
import type { KubeObject } from '../../machinery/object.js';
import { apiErrors } from '../../machinery/errors.js';
import { isJsonObject } from '../../util/json.js';
import type { AdmissionAttributes } from '../attributes.js';
import type { AdmissionDependencies } from '../dependencies.js';
import type { AdmissionPlugin } from '../plugin.js';
import { QuotaAccessor } from './accessor.js';
import { checkRequest } from './check.js';
import { decodeResourceQuotaConfig } from './config.js';
import type { LimitedResource } from './config.js';

interface Waiter {
  readonly attributes: AdmissionAttributes;
  readonly evaluator: QuotaEvaluator;
  result: Error | undefined;
  /** True until the batch's status writes succeeded (upstream's default deny). */
  pending: boolean;
  resolve(): void;
}

const retries = 3;

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
const timeoutMs = 10_000;

function used(q: KubeObject) {
  const status = q['status'];
  return resourceListOf(isJsonObject(status) ? status['used'] : undefined);
}

export class QuotaEvaluatorQueue {
  readonly #deps: AdmissionDependencies;
  readonly #accessor: QuotaAccessor;
  readonly #limited: readonly LimitedResource[];
  readonly #waiting = new Map<string, Waiter[]>();
  readonly #busy = new Set<string>();

  constructor(deps: AdmissionDependencies, limited: readonly LimitedResource[]) {
    this.#deps = deps;
    this.#accessor = new QuotaAccessor(deps);
    this.#limited = limited;
  }

  async evaluate(a: AdmissionAttributes): Promise<void> {
    const evaluator = quotaEvaluatorFor(a.resource.group, a.resource.resource);
    if (!evaluator.handles(a.operation, this.#deps.features)) return;
    // Nothing to check (the hot path): no quota in the namespace and nothing limited by default.
    const limited = this.#limited.some(
      (l) => l.apiGroup === a.resource.group && l.resource === a.resource.resource,
    );
    if (!limited && (await this.#accessor.quotas(a.namespace)).length === 0) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(apiErrors.internal(new Error('resource quota evaluation timed out'))),
        timeoutMs,
      );
      const waiter: Waiter = {
        attributes: a,
        evaluator,
        result: undefined,
        pending: true,
        resolve: () => {
          clearTimeout(timer);
          if (waiter.result !== undefined) reject(waiter.result);
          else resolve();
        },
      };
      const queue = this.#waiting.get(a.namespace) ?? [];
      queue.push(waiter);
      this.#waiting.set(a.namespace, queue);
      if (!this.#busy.has(a.namespace)) void this.#work(a.namespace);
    });
  }

  /** One worker per namespace: takes every waiting request, checks them as one batch, repeats. */
  async #work(namespace: string): Promise<void> {
    this.#busy.add(namespace);
    try {
      for (;;) {
        const batch = this.#waiting.get(namespace);
        if (batch === undefined || batch.length === 0) break;
        this.#waiting.delete(namespace);
        try {
          const quotas = await this.#accessor.quotas(namespace);
          await this.#checkQuotas(quotas, batch, retries);
        } catch (err) {
          for (const w of batch) if (w.pending && w.result === undefined) w.result = asError(err);
        }
        for (const w of batch) w.resolve();
      }
    } finally {
      this.#busy.delete(namespace);
      this.#waiting.delete(namespace);
    }
  }

  async #checkQuotas(
    start: readonly KubeObject[],
    batch: readonly Waiter[],
    remaining: number,
  ): Promise<void> {
    const original = start;
    let quotas = start;
    let changed = false;
    for (const w of batch) {
      w.result = undefined;
      w.pending = true;
      let next: readonly KubeObject[];
      try {
        next = checkRequest(quotas, w.attributes, {
          evaluator: w.evaluator,
          limited: this.#limited,
          features: this.#deps.features,
          nowMs: this.#deps.now(),
        });
      } catch (err) {
        w.result = asError(err);
        w.pending = false;
        continue;
      }
      if (w.attributes.dryRun) {
        w.pending = false;
        continue;
      }
      const mine = next.some((q, i) => !equalLists(used(q), used(quotas[i]!)));
      if (!mine) w.pending = false;
      else changed = true;
      quotas = next;
    }
    if (!changed) return;
    const failed: KubeObject[] = [];
    let lastError: unknown;
    for (const [i, q] of quotas.entries()) {
      if (equalLists(used(q), used(original[i]!))) continue;
      try {
        await this.#accessor.updateStatus(q);
      } catch (err) {
        failed.push(q);
        lastError = err;
      }
    }
    if (failed.length === 0) {
      for (const w of batch) w.pending = false;
      return;
    }
    if (remaining <= 0) {
      for (const w of batch) if (w.pending) w.result = asError(lastError);
      return;
    }
    // Another writer came first: check the batch again against the quotas whose write failed, as
    // they are now (the others are charged already; a quota deleted meanwhile is left out).
    const failedNames = new Set(failed.map((q) => q.metadata.name));
    const fresh = await this.#accessor.quotas(original[0]?.metadata.namespace ?? '', true);
    await this.#checkQuotas(
      fresh.filter((q) => failedNames.has(q.metadata.name)),
      batch,
      remaining - 1,
    );
  }
}

export function resourceQuotaPlugin(deps: AdmissionDependencies): AdmissionPlugin {
  const queue = new QuotaEvaluatorQueue(deps, decodeResourceQuotaConfig(deps.pluginConfig('ResourceQuota')));
  return {
    name: 'ResourceQuota',
    operations: new Set(['CREATE', 'UPDATE']),
    validate: (a) => {
      // Subresources, cluster-scoped objects and namespaces themselves are never charged.
      if (a.subresource !== '' || a.namespace === '') return;
      if (a.resource.group === '' && a.resource.resource === 'namespaces') return;
      return queue.evaluate(a);
    },
  };
}
