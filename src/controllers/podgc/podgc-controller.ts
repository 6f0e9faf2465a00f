/**
 * The pod garbage collector (upstream v1.27 pkg/controller/podgc). Every gc-check period (20 s):
 *
 * - terminated pods (phase neither Pending, Running nor Unknown) beyond
 *   --terminated-pod-gc-threshold (12500; 0 or less disables) are deleted, oldest first;
 * - terminating pods on a node that is not Ready and carries the `node.kubernetes.io/out-of-service`
 *   taint are force-deleted (NodeOutOfServiceVolumeDetach, beta and on in v1.27);
 * - pods bound to a node that does not exist are quarantined (40 s), then, if a live GET still
 *   finds no node, marked Failed with the DisruptionTarget condition (DeletionByPodGC, "PodGC: node
 *   no longer exists") and force-deleted;
 * - terminating pods never scheduled to a node are force-deleted.
 *
 * Force deletion is upstream's markFailedAndDeletePod: a pod not yet Succeeded/Failed is first
 * patched to phase Failed (PodDisruptionConditions, beta and on), then deleted with grace period 0.
 */
import { ApiError } from '../../client/api-error.js';
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import type { RestClient } from '../../client/rest-client.js';
import type { SharedInformer } from '../../client/shared-informer.js';
import { typedClients } from '../../client/typed-client.js';
import type { Clientset } from '../../client/typed-client.js';
import { resourcePath } from '../../client/typed-client-paths.js';
import type { JsonObject } from '../../util/json.js';
import { isJsonObject } from '../../util/json.js';
import { realClock, rfc3339 } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { arr, deleting, errorMessage, meta, name, namespace, obj, str, timeOf } from '../util/objects.js';
import { nodeName, podPhase } from '../util/pods.js';
import { taintsOf } from '../util/taints.js';
import { informersSynced } from '../util/workers.js';

export interface PodGCControllerOptions {
  readonly client: RestClient;
  readonly informers: SharedInformerFactory;
  readonly onError?: (err: unknown) => void;
  readonly clock?: Clock;
  /** --terminated-pod-gc-threshold (12500; 0 or less: terminated pods are kept). */
  readonly terminatedPodThreshold?: number;
  /** How often the collector runs (upstream gcCheckPeriod, 20 s). */
  readonly gcCheckPeriodMs?: number;
  /** How long a missing node is waited for before its pods are orphans (upstream 40 s). */
  readonly quarantineMs?: number;
}

function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.code === 404;
}

function isTerminated(pod: JsonObject): boolean {
  const phase = podPhase(pod);
  return phase !== 'Pending' && phase !== 'Running' && phase !== 'Unknown';
}

function isNodeReady(node: JsonObject): boolean {
  return arr(obj(node['status'])['conditions']).some(
    (c) => isJsonObject(c) && c['type'] === 'Ready' && c['status'] === 'True',
  );
}

/** byCreationTimestamp: oldest first, then by name. */
function byCreation(a: JsonObject, b: JsonObject): number {
  const ta = timeOf(meta(a)['creationTimestamp']) ?? 0;
  const tb = timeOf(meta(b)['creationTimestamp']) ?? 0;
  if (ta !== tb) return ta - tb;
  return name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0;
}

export class PodGCController {
  readonly #o: PodGCControllerOptions;
  readonly #core: Clientset['core']['v1'];
  readonly #clock: Clock;
  /** Node names missing from the informer: when their quarantine ends. */
  readonly #quarantine = new Map<string, number>();
  #pods: SharedInformer | undefined;
  #nodes: SharedInformer | undefined;

  constructor(o: PodGCControllerOptions) {
    this.#o = o;
    this.#core = typedClients(o.client).core.v1;
    this.#clock = o.clock ?? realClock;
  }

  /** Runs until `signal` aborts (the informer factory is started by the caller). */
  async run(signal: AbortSignal): Promise<void> {
    this.#pods = this.#o.informers.informerFor(resourcePath(this.#core.pods.resource));
    this.#nodes = this.#o.informers.informerFor(resourcePath(this.#core.nodes.resource));
    if (!(await informersSynced([this.#pods, this.#nodes], signal))) return;
    const period = this.#o.gcCheckPeriodMs ?? 20_000;
    while (!signal.aborted) {
      try {
        await this.gc(signal);
      } catch (err) {
        if (signal.aborted) return;
        this.#o.onError?.(err);
      }
      await this.#clock.sleep(period, signal);
    }
  }

  /** One pass of every collector (upstream gc). */
  async gc(signal: AbortSignal): Promise<void> {
    const pods = this.#pods?.store.list() ?? [];
    const nodes = this.#nodes?.store.list() ?? [];
    const threshold = this.#o.terminatedPodThreshold ?? 12_500;
    if (threshold > 0) await this.#gcTerminated(pods, threshold, signal);
    await this.#gcTerminating(pods, signal);
    await this.#gcOrphaned(pods, nodes, signal);
    await this.#gcUnscheduledTerminating(pods, signal);
  }

  async #gcTerminated(pods: readonly JsonObject[], threshold: number, signal: AbortSignal): Promise<void> {
    const terminated = pods.filter(isTerminated);
    const count = terminated.length - threshold;
    if (count <= 0) return;
    terminated.sort(byCreation);
    await this.#all(
      terminated.slice(0, count).map((p) => () => this.#markFailedAndDelete(p, undefined, signal)),
    );
  }

  async #gcTerminating(pods: readonly JsonObject[], signal: AbortSignal): Promise<void> {
    const victims = pods.filter((p) => {
      if (!deleting(p)) return false;
      const node = this.#nodes?.store.get(nodeName(p));
      if (node === undefined) return false;
      return (
        !isNodeReady(node) && taintsOf(node).some((t) => t['key'] === 'node.kubernetes.io/out-of-service')
      );
    });
    victims.sort(byCreation);
    await this.#all(victims.map((p) => () => this.#markFailedAndDelete(p, undefined, signal)));
  }

  async #gcOrphaned(
    pods: readonly JsonObject[],
    nodes: readonly JsonObject[],
    signal: AbortSignal,
  ): Promise<void> {
    const existing = new Set(nodes.map((n) => name(n)));
    const now = this.#clock.now();
    const quarantine = this.#o.quarantineMs ?? 40_000;
    for (const p of pods) {
      const n = nodeName(p);
      if (n !== '' && !existing.has(n) && !this.#quarantine.has(n)) this.#quarantine.set(n, now + quarantine);
    }
    // discoverDeletedNodes: nodes whose quarantine is over and that a live GET does not find.
    const deleted = new Set<string>();
    for (const [n, until] of [...this.#quarantine]) {
      if (until > now) continue;
      this.#quarantine.delete(n);
      if (existing.has(n)) continue;
      try {
        await this.#core.nodes.get(n, { signal });
      } catch (err) {
        if (isNotFound(err)) deleted.add(n);
        else if (signal.aborted) return;
        else this.#o.onError?.(err);
      }
    }
    if (deleted.size === 0) return;
    const condition: JsonObject = {
      type: 'DisruptionTarget',
      status: 'True',
      reason: 'DeletionByPodGC',
      message: 'PodGC: node no longer exists',
    };
    await this.#all(
      pods
        .filter((p) => deleted.has(nodeName(p)))
        .map((p) => () => this.#markFailedAndDelete(p, condition, signal)),
    );
  }

  async #gcUnscheduledTerminating(pods: readonly JsonObject[], signal: AbortSignal): Promise<void> {
    const victims = pods.filter((p) => deleting(p) && nodeName(p) === '');
    await this.#all(victims.map((p) => () => this.#markFailedAndDelete(p, undefined, signal)));
  }

  /** Runs the deletions in parallel; failures go to onError (upstream HandleError). */
  async #all(work: readonly (() => Promise<void>)[]): Promise<void> {
    const results = await Promise.allSettled(work.map((w) => w()));
    for (const r of results) {
      if (r.status === 'rejected' && !isNotFound(r.reason)) {
        this.#o.onError?.(new Error(`pod gc: ${errorMessage(r.reason)}`, { cause: r.reason }));
      }
    }
  }

  /** Upstream markFailedAndDeletePodWithCondition. */
  async #markFailedAndDelete(
    pod: JsonObject,
    condition: JsonObject | undefined,
    signal: AbortSignal,
  ): Promise<void> {
    const where = { namespace: namespace(pod) };
    const phase = podPhase(pod);
    if (phase !== 'Succeeded' && phase !== 'Failed') {
      const status: JsonObject = { phase: 'Failed' };
      if (condition !== undefined) {
        const conditions = arr(obj(pod['status'])['conditions']).filter(isJsonObject);
        const existing = conditions.find((c) => c['type'] === str(condition['type']));
        const now = rfc3339(this.#clock.now());
        const ltt =
          existing !== undefined && existing['status'] === condition['status']
            ? existing['lastTransitionTime']
            : now;
        status['conditions'] = [{ ...condition, lastProbeTime: null, lastTransitionTime: ltt ?? now }];
      }
      // A strategic merge patch of the status (conditions merge by type) with a uid precondition.
      await this.#core.pods
        .subresource(name(pod), 'status', where)
        .patch({ metadata: { uid: str(meta(pod)['uid']) }, status }, 'strategic', { signal });
    }
    await this.#core.pods.delete(name(pod), { ...where, gracePeriodSeconds: 0, signal });
  }
}
