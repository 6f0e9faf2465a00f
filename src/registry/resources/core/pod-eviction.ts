/**
 * Evicting a pod (upstream pkg/registry/core/pod/storage EvictionREST, v1.27; AM-22): POST a
 * policy/v1 Eviction to `pods/{name}/eviction`. A pod that is already disrupting (Pending,
 * Succeeded, Failed, being deleted) is deleted at once; otherwise the one PodDisruptionBudget
 * selecting it must allow a disruption, which is taken from its status before the pod is deleted.
 * A dry run checks everything and persists nothing.
 */
import { apiErrors, StatusError } from '../../../machinery/errors.js';
import type { KubeObject } from '../../../machinery/object.js';
import { toMetav1Selector } from '../../../machinery/labels/metav1.js';
import { labelSelectorFromMetav1 } from '../../../machinery/labels/selector.js';
import type { UserInfo } from '../../../machinery/user.js';
import { StorageError } from '../../../storage/errors.js';
import { isJsonObject } from '../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../util/json.js';
import { formatTime } from '../../generic/metadata.js';
import type { GenericStore } from '../../generic/store.js';
import type { DeleteRequest } from '../../options.js';
import { bindingSucceeded } from './pod-binding.js';

const budgetMessage = "Cannot evict pod as it would violate the pod's disruption budget.";

function obj(v: JsonValue | undefined): JsonObject {
  return isJsonObject(v) ? v : {};
}

function num(v: JsonValue | undefined): number {
  return typeof v === 'number' ? v : 0;
}

/** Upstream NewTooManyRequests with a DisruptionBudget cause. */
function tooManyRequests(cause: string, retryAfterSeconds: number): StatusError {
  return new StatusError(429, 'TooManyRequests', budgetMessage, {
    causes: [{ reason: 'DisruptionBudget', message: cause }],
    ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}),
  });
}

function isReady(pod: KubeObject): boolean {
  const conditions = obj(pod['status'])['conditions'];
  return (
    Array.isArray(conditions) &&
    conditions.some((c) => isJsonObject(c) && c['type'] === 'Ready' && c['status'] === 'True')
  );
}

/** Pods that are not running, or already going away, need no budget (upstream canIgnorePDB). */
function canIgnoreBudget(pod: KubeObject): boolean {
  const phase = obj(pod['status'])['phase'];
  return (
    phase === 'Succeeded' ||
    phase === 'Failed' ||
    phase === 'Pending' ||
    pod.metadata.deletionTimestamp !== undefined
  );
}

/** The DeleteOptions of the Eviction, as the delete handler would read them. */
function deleteRequestOf(eviction: KubeObject, dryRun: boolean, user: UserInfo): DeleteRequest {
  const opts = obj(eviction['deleteOptions']);
  const pre = obj(opts['preconditions']);
  const dryRunList = opts['dryRun'];
  const grace = opts['gracePeriodSeconds'];
  return {
    dryRun: dryRun || (Array.isArray(dryRunList) && dryRunList.includes('All')),
    user,
    ...(typeof grace === 'number' ? { gracePeriodSeconds: grace } : {}),
    ...(typeof pre['uid'] === 'string' || typeof pre['resourceVersion'] === 'string'
      ? {
          preconditions: {
            ...(typeof pre['uid'] === 'string' ? { uid: pre['uid'] } : {}),
            ...(typeof pre['resourceVersion'] === 'string'
              ? { resourceVersion: pre['resourceVersion'] }
              : {}),
          },
        }
      : {}),
  };
}

export async function evictPod(o: {
  readonly pods: GenericStore;
  readonly budgets: GenericStore;
  readonly namespace: string;
  readonly name: string;
  readonly eviction: KubeObject;
  readonly dryRun: boolean;
  readonly user: UserInfo;
  /** PodDisruptionConditions (beta, on in v1.27): mark the pod with a DisruptionTarget condition. */
  readonly disruptionConditions: boolean;
  readonly now?: () => Date;
}): Promise<KubeObject> {
  if ((o.eviction.metadata.name ?? '') !== o.name) {
    throw apiErrors.badRequest('name in URL does not match name in Eviction object');
  }
  const del = deleteRequestOf(o.eviction, o.dryRun, o.user);
  const pod = await o.pods.get(o.namespace, o.name);
  const remove = async (): Promise<KubeObject> => {
    if (o.disruptionConditions && !del.dryRun) await markDisrupted(o);
    try {
      await o.pods.delete(o.namespace, o.name, del);
    } catch (err) {
      // Gone between the read and the delete: the eviction happened (upstream answers Success too).
      if (!(err instanceof StatusError && err.code === 404)) throw err;
    }
    return bindingSucceeded;
  };
  if (canIgnoreBudget(pod)) return remove();
  const budgets = (await o.budgets.list(o.namespace, {})).items.filter((pdb) => selects(pdb, pod));
  if (budgets.length > 1) {
    throw apiErrors.internal(
      new Error(
        'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      ),
    );
  }
  const budget = budgets[0];
  if (budget === undefined) return remove();
  const spec = obj(budget['spec']);
  const status = obj(budget['status']);
  // An unready pod does not count as healthy: evicting it costs the budget nothing.
  const unhealthyAllowed = spec['unhealthyPodEvictionPolicy'] === 'AlwaysAllow';
  const healthyEnough =
    num(status['currentHealthy']) >= num(status['desiredHealthy']) && num(status['desiredHealthy']) > 0;
  if (!isReady(pod) && (unhealthyAllowed || healthyEnough)) return remove();
  await takeDisruption(o, budget, del.dryRun);
  return remove();
}

function selects(pdb: KubeObject, pod: KubeObject): boolean {
  const raw = obj(pdb['spec'])['selector'];
  if (!isJsonObject(raw)) return false;
  try {
    const selector = labelSelectorFromMetav1(toMetav1Selector(raw));
    // A PDB with an empty selector matches nothing (upstream).
    return !selector.empty() && selector.matches(pod.metadata.labels);
  } catch {
    return false;
  }
}

/** Upstream checkAndDecrement, retried on conflicts as RetryOnConflict does. */
async function takeDisruption(
  o: {
    readonly budgets: GenericStore;
    readonly namespace: string;
    readonly name: string;
    readonly now?: () => Date;
  },
  first: KubeObject,
  dryRun: boolean,
): Promise<void> {
  let budget = first;
  for (let attempt = 0; ; attempt++) {
    const name = budget.metadata.name ?? '';
    const status = obj(budget['status']);
    if (num(status['observedGeneration']) < (budget.metadata.generation ?? 0)) {
      throw tooManyRequests(`The disruption budget ${name} is still being processed by the server.`, 10);
    }
    const allowed = num(status['disruptionsAllowed']);
    const forbidden = (reason: string): StatusError =>
      apiErrors.forbidden({ group: 'policy', resource: 'poddisruptionbudget' }, name, reason);
    if (allowed < 0) throw forbidden('pdb disruptions allowed is negative');
    if (Object.keys(obj(status['disruptedPods'])).length > 2000) {
      throw forbidden('DisruptedPods map too big - too many evictions not confirmed by PDB controller');
    }
    if (allowed === 0) {
      throw tooManyRequests(
        `The disruption budget ${name} needs ${num(status['desiredHealthy'])} healthy pods and has ${num(status['currentHealthy'])} currently`,
        0,
      );
    }
    if (dryRun) return;
    const now = formatTime((o.now ?? (() => new Date()))());
    try {
      await o.budgets.storage.guaranteedUpdate(
        o.budgets.key(o.namespace, name),
        (current) => {
          if (current === undefined)
            throw apiErrors.notFound({ group: 'policy', resource: 'poddisruptionbudgets' }, name);
          const st = obj(current['status']);
          st['disruptionsAllowed'] = num(st['disruptionsAllowed']) - 1;
          if (st['disruptionsAllowed'] === 0) markInsufficient(st, now);
          st['disruptedPods'] = { ...obj(st['disruptedPods']), [o.name]: now };
          current['status'] = st;
          return current;
        },
        { preconditions: { resourceVersion: budget.metadata.resourceVersion ?? '' } },
      );
      return;
    } catch (err) {
      const conflict = err instanceof StorageError && err.code === 'PreconditionFailed';
      if (!conflict || attempt >= 4) throw err;
      budget = await o.budgets.get(o.namespace, name);
    }
  }
}

/** pdbhelper.UpdateDisruptionAllowedCondition when no disruption is left. */
function markInsufficient(status: JsonObject, now: string): void {
  const conditions = Array.isArray(status['conditions']) ? status['conditions'].filter(isJsonObject) : [];
  const existing = conditions.find((c) => c['type'] === 'DisruptionAllowed');
  const next: JsonObject = {
    type: 'DisruptionAllowed',
    status: 'False',
    observedGeneration: num(status['observedGeneration']),
    lastTransitionTime:
      existing !== undefined && existing['status'] === 'False'
        ? (existing['lastTransitionTime'] ?? now)
        : now,
    reason: 'InsufficientPods',
    message: '',
  };
  status['conditions'] = [...conditions.filter((c) => c['type'] !== 'DisruptionAllowed'), next];
}

/** The DisruptionTarget condition upstream adds before deleting an evicted pod. */
async function markDisrupted(o: {
  readonly pods: GenericStore;
  readonly namespace: string;
  readonly name: string;
  readonly now?: () => Date;
}): Promise<void> {
  const now = formatTime((o.now ?? (() => new Date()))());
  try {
    await o.pods.storage.guaranteedUpdate(o.pods.key(o.namespace, o.name), (current) => {
      if (current === undefined) throw apiErrors.notFound({ group: '', resource: 'pods' }, o.name);
      const status = obj(current['status']);
      const conditions = Array.isArray(status['conditions']) ? status['conditions'].filter(isJsonObject) : [];
      if (conditions.some((c) => c['type'] === 'DisruptionTarget' && c['status'] === 'True')) return current;
      conditions.push({
        type: 'DisruptionTarget',
        status: 'True',
        lastProbeTime: null,
        lastTransitionTime: now,
        reason: 'EvictionByEvictionAPI',
        message: 'Eviction API: evicting',
      });
      status['conditions'] = conditions;
      current['status'] = status;
      return current;
    });
  } catch (err) {
    if (!(err instanceof StatusError && err.code === 404)) throw err;
  }
}
