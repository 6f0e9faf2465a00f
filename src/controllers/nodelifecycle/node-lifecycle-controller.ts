/**
 * The node lifecycle controller (upstream v1.27 pkg/controller/nodelifecycle, taint-based
 * eviction on, which is upstream's only mode in v1.27).
 *
 * - Node health: every node-monitor-period (5 s) each node's Ready condition heartbeat and its
 *   Lease in kube-node-lease are compared with what was seen before; a node whose status and Lease
 *   both went unrenewed for node-monitor-grace-period (40 s; node-startup-grace-period, 60 s, for a
 *   node that never posted a Ready condition) gets Ready, MemoryPressure, DiskPressure and
 *   PIDPressure set to Unknown with reason NodeStatusUnknown and message "Kubelet stopped posting
 *   node status." (NodeStatusNeverUpdated / "Kubelet never posted node status." for conditions it
 *   never had). When Ready leaves True, the node gets a NodeNotReady event and its pods' Ready
 *   condition is set False (each with a NodeNotReady event).
 * - NoExecute taints: `node.kubernetes.io/not-ready` while Ready is False, `…/unreachable` while
 *   it is Unknown (swapped at once when it changes), with timeAdded; both removed when Ready.
 * - NoSchedule taints from conditions (doNoScheduleTaintingPass): not-ready, unreachable,
 *   memory-pressure, disk-pressure, pid-pressure, network-unavailable, and `unschedulable` for a
 *   cordoned node.
 * - The NoExecute taint manager: a pod on a node with NoExecute taints it does not all tolerate is
 *   deleted at once; otherwise after the smallest tolerationSeconds of the tolerations used (never
 *   when one has none). Deletions first add the DisruptionTarget condition (reason
 *   DeletionByTaintManager) as upstream with PodDisruptionConditions, and record
 *   TaintManagerEviction events.
 *
 * Not modelled: zone states and the eviction rate limiters (taints are applied at once).
 */
import { ApiError } from '../../client/api-error.js';
import { EventRecorder } from '../../client/event-recorder.js';
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import { keyFor, objectKey } from '../../client/object-meta.js';
import type { RestClient } from '../../client/rest-client.js';
import type { SharedInformer } from '../../client/shared-informer.js';
import type { WorkQueue } from '../../client/workqueue.js';
import type { JsonObject } from '../../util/json.js';
import { cloneJson, isJsonObject, jsonEqual } from '../../util/json.js';
import { realClock, rfc3339 } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { arr, deleting, errorMessage, meta, name, namespace, obj, str, timeOf } from '../util/objects.js';
import { nodeName } from '../util/pods.js';
import { matchingTolerations, sameTaint, taintsOf, tolerationsOf } from '../util/taints.js';
import { controllerQueue, informersSynced } from '../util/workers.js';

export interface NodeLifecycleControllerOptions {
  readonly client: RestClient;
  readonly informers: SharedInformerFactory;
  readonly onError?: (err: unknown) => void;
  readonly clock?: Clock;
  /** --node-monitor-period (5 s). */
  readonly nodeMonitorPeriodMs?: number;
  /** --node-monitor-grace-period (40 s). */
  readonly nodeMonitorGracePeriodMs?: number;
  /** --node-startup-grace-period (60 s). */
  readonly nodeStartupGracePeriodMs?: number;
  /** Record events (NodeNotReady, TaintManagerEviction); default true. */
  readonly recordEvents?: boolean;
}

export const taintNotReady = 'node.kubernetes.io/not-ready';
export const taintUnreachable = 'node.kubernetes.io/unreachable';
export const taintUnschedulable = 'node.kubernetes.io/unschedulable';

/** nodeConditionToTaintKeyStatusMap. */
const conditionTaints: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Ready: { False: taintNotReady, Unknown: taintUnreachable },
  MemoryPressure: { True: 'node.kubernetes.io/memory-pressure' },
  DiskPressure: { True: 'node.kubernetes.io/disk-pressure' },
  NetworkUnavailable: { True: 'node.kubernetes.io/network-unavailable' },
  PIDPressure: { True: 'node.kubernetes.io/pid-pressure' },
};
const managedNoScheduleKeys = new Set([
  ...Object.values(conditionTaints).flatMap((m) => Object.values(m)),
  taintUnschedulable,
]);

const nodesPath = '/api/v1/nodes';
const podsPath = '/api/v1/pods';
const leasesPath = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases';
const podPath = (ns: string, n: string): string =>
  `/api/v1/namespaces/${encodeURIComponent(ns)}/pods/${encodeURIComponent(n)}`;

interface NodeHealth {
  probeTimestamp: number;
  readyTransitionTimestamp: number;
  /** The Ready condition last seen (undefined: none). */
  ready: JsonObject | undefined;
  leaseRenewTime: string | undefined;
  /** MarkPodsNotReady failed: try again on the next pass while the node is not Ready. */
  podsNeedRetry: boolean;
}

interface ScheduledEviction {
  readonly createdAt: number;
  readonly at: number;
  readonly abort: AbortController;
}

function condition(node: JsonObject, type: string): JsonObject | undefined {
  return arr(obj(node['status'])['conditions'])
    .filter(isJsonObject)
    .find((c) => c['type'] === type);
}

function isConflict(err: unknown): boolean {
  return err instanceof ApiError && err.code === 409;
}

function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.code === 404;
}

export class NodeLifecycleController {
  readonly #o: NodeLifecycleControllerOptions;
  readonly #clock: Clock;
  readonly #recorder: EventRecorder | undefined;
  readonly #health = new Map<string, NodeHealth>();
  /** Pod keys by node name. */
  readonly #podsByNode = new Map<string, Set<string>>();
  readonly #evictions = new Map<string, ScheduledEviction>();
  readonly #noScheduleQueue: WorkQueue;
  readonly #taintManagerQueue: WorkQueue;
  #nodes: SharedInformer | undefined;
  #pods: SharedInformer | undefined;
  #leases: SharedInformer | undefined;
  #signal: AbortSignal | undefined;

  constructor(o: NodeLifecycleControllerOptions) {
    this.#o = o;
    this.#clock = o.clock ?? realClock;
    const onError = o.onError;
    this.#noScheduleQueue = controllerQueue('node', onError, this.#clock);
    this.#taintManagerQueue = controllerQueue('pod', onError, this.#clock);
    this.#recorder =
      o.recordEvents === false
        ? undefined
        : new EventRecorder({
            client: o.client,
            reportingController: 'node-controller',
            reportingInstance: 'kube-controller-manager',
            clock: this.#clock,
            ...(onError !== undefined ? { onError } : {}),
          });
  }

  /** Runs until `signal` aborts (the informer factory is started by the caller). */
  async run(signal: AbortSignal): Promise<void> {
    this.#signal = signal;
    const nodes = this.#o.informers.informerFor(nodesPath);
    const pods = this.#o.informers.informerFor(podsPath);
    const leases = this.#o.informers.informerFor(leasesPath);
    this.#nodes = nodes;
    this.#pods = pods;
    this.#leases = leases;
    const regs = [
      nodes.addEventHandler({
        onAdd: (n) => this.#nodeChanged(n),
        onUpdate: (_old, n) => this.#nodeChanged(n),
        onDelete: (n) => {
          this.#health.delete(name(n));
          this.#taintManagerQueue.add(`node:${name(n)}`);
        },
      }),
      pods.addEventHandler({
        onAdd: (p) => this.#podChanged(undefined, p),
        onUpdate: (old, p) => this.#podChanged(old, p),
        onDelete: (p) => {
          this.#unindexPod(p, nodeName(p));
          this.#cancelEviction(objectKey(p), undefined);
        },
      }),
    ];
    try {
      if (!(await informersSynced([nodes, pods, leases], signal))) return;
      await Promise.all([
        this.#monitorLoop(signal),
        this.#noScheduleQueue.run((key) => this.#noScheduleTaintingPass(key, signal), signal),
        this.#taintManagerQueue.run((key) => this.#taintManagerWork(key, signal), signal),
      ]);
    } finally {
      for (const r of regs) r.remove();
      for (const e of this.#evictions.values()) e.abort.abort();
      this.#evictions.clear();
    }
  }

  #nodeChanged(node: JsonObject): void {
    this.#noScheduleQueue.add(name(node));
    this.#taintManagerQueue.add(`node:${name(node)}`);
  }

  #podChanged(old: JsonObject | undefined, pod: JsonObject): void {
    const oldNode = old === undefined ? '' : nodeName(old);
    const node = nodeName(pod);
    if (oldNode !== node) this.#unindexPod(pod, oldNode);
    if (node === '') return;
    let set = this.#podsByNode.get(node);
    if (set === undefined) {
      set = new Set();
      this.#podsByNode.set(node, set);
    }
    set.add(objectKey(pod));
    if (old === undefined || oldNode !== node || !jsonEqual(tolerationsOf(old), tolerationsOf(pod))) {
      this.#taintManagerQueue.add(`pod:${objectKey(pod)}`);
    }
  }

  #unindexPod(pod: JsonObject, node: string): void {
    if (node === '') return;
    const set = this.#podsByNode.get(node);
    set?.delete(objectKey(pod));
    if (set?.size === 0) this.#podsByNode.delete(node);
  }

  #podsOn(node: string): JsonObject[] {
    const out: JsonObject[] = [];
    for (const k of this.#podsByNode.get(node) ?? []) {
      const p = this.#pods?.store.get(k);
      if (p !== undefined && nodeName(p) === node) out.push(p);
    }
    return out;
  }

  // ---- node health -------------------------------------------------------------------------

  async #monitorLoop(signal: AbortSignal): Promise<void> {
    const period = this.#o.nodeMonitorPeriodMs ?? 5000;
    while (!signal.aborted) {
      await this.#monitorNodeHealth(signal);
      await this.#clock.sleep(period, signal);
    }
  }

  async #monitorNodeHealth(signal: AbortSignal): Promise<void> {
    for (const cached of this.#nodes?.store.list() ?? []) {
      if (signal.aborted) return;
      try {
        await this.#monitorNode(cached, signal);
      } catch (err) {
        if (signal.aborted) return;
        this.#o.onError?.(new Error(`node ${name(cached)}: ${errorMessage(err)}`, { cause: err }));
      }
    }
  }

  async #monitorNode(cached: JsonObject, signal: AbortSignal): Promise<void> {
    let node = cloneJson(cached);
    let result: { observed: JsonObject; current: JsonObject | undefined } | undefined;
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        result = await this.#tryUpdateNodeHealth(node, signal);
        break;
      } catch (err) {
        if (!isConflict(err)) throw err;
        try {
          node = await this.#o.client.request('GET', `${nodesPath}/${encodeURIComponent(name(node))}`, {
            signal,
          });
        } catch (e) {
          if (isNotFound(e)) return;
          throw e;
        }
      }
    }
    if (result === undefined) return;
    const { observed, current } = result;
    await this.#processTaintBasedEviction(node, str(observed['status']), signal);
    if (current === undefined) return;
    const health = this.#health.get(name(node));
    const becameNotReady = str(current['status']) !== 'True' && str(observed['status']) === 'True';
    if (becameNotReady) {
      this.#recorder?.event(
        { apiVersion: 'v1', kind: 'Node', name: name(node), uid: str(meta(node)['uid']) },
        'Normal',
        'NodeNotReady',
        'NodeNotReady',
        `Node ${name(node)} status is now: NodeNotReady`,
      );
    }
    if (becameNotReady || (health?.podsNeedRetry === true && str(observed['status']) !== 'True')) {
      const ok = await this.#markPodsNotReady(name(node), signal);
      if (health !== undefined) health.podsNeedRetry = !ok;
    }
  }

  /** Upstream tryUpdateNodeHealth: the observed Ready condition and the one now written. */
  async #tryUpdateNodeHealth(
    node: JsonObject,
    signal: AbortSignal,
  ): Promise<{ observed: JsonObject; current: JsonObject | undefined }> {
    const now = this.#clock.now();
    const nodeKey = name(node);
    const created = timeOf(meta(node)['creationTimestamp']) ?? now;
    let current = condition(node, 'Ready');
    let observed: JsonObject;
    let grace: number;
    let health = this.#health.get(nodeKey);
    if (current === undefined) {
      observed = {
        type: 'Ready',
        status: 'Unknown',
        lastHeartbeatTime: meta(node)['creationTimestamp'] ?? null,
        lastTransitionTime: meta(node)['creationTimestamp'] ?? null,
      };
      grace = this.#o.nodeStartupGracePeriodMs ?? 60_000;
      if (health === undefined) {
        health = {
          probeTimestamp: created,
          readyTransitionTimestamp: created,
          ready: undefined,
          leaseRenewTime: undefined,
          podsNeedRetry: false,
        };
      } else health.ready = undefined;
    } else {
      observed = cloneJson(current);
      grace = this.#o.nodeMonitorGracePeriodMs ?? 40_000;
    }
    const saved = health?.ready;
    if (health === undefined) {
      health = {
        probeTimestamp: now,
        readyTransitionTimestamp: now,
        ready: current === undefined ? undefined : cloneJson(current),
        leaseRenewTime: undefined,
        podsNeedRetry: false,
      };
    } else if (saved === undefined && current !== undefined) {
      health.probeTimestamp = now;
      health.readyTransitionTimestamp = now;
      health.ready = cloneJson(current);
    } else if (
      saved !== undefined &&
      current !== undefined &&
      saved['lastHeartbeatTime'] !== current['lastHeartbeatTime']
    ) {
      if (saved['lastTransitionTime'] !== current['lastTransitionTime'])
        health.readyTransitionTimestamp = now;
      health.probeTimestamp = now;
      health.ready = cloneJson(current);
    }
    // A renewed Lease counts as a heartbeat.
    const lease = this.#leases?.store.get(keyFor('kube-node-lease', nodeKey));
    const renew = lease === undefined ? undefined : str(obj(lease['spec'])['renewTime']);
    if (
      renew !== undefined &&
      renew !== '' &&
      (health.leaseRenewTime === undefined || renewedAfter(renew, health.leaseRenewTime))
    ) {
      health.leaseRenewTime = renew;
      health.probeTimestamp = now;
    }
    this.#health.set(nodeKey, health);
    if (now <= health.probeTimestamp + grace) return { observed, current };

    const stamp = rfc3339(now);
    const status = obj(node['status']);
    const conditions = arr(status['conditions']).filter(isJsonObject);
    for (const type of ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']) {
      const c = conditions.find((x) => x['type'] === type);
      if (c === undefined) {
        conditions.push({
          type,
          status: 'Unknown',
          lastHeartbeatTime: meta(node)['creationTimestamp'] ?? null,
          lastTransitionTime: stamp,
          reason: 'NodeStatusNeverUpdated',
          message: 'Kubelet never posted node status.',
        });
      } else if (c['status'] !== 'Unknown') {
        c['status'] = 'Unknown';
        c['reason'] = 'NodeStatusUnknown';
        c['message'] = 'Kubelet stopped posting node status.';
        c['lastTransitionTime'] = stamp;
      }
    }
    status['conditions'] = conditions;
    node['status'] = status;
    current = condition(node, 'Ready');
    if (jsonEqual(current ?? null, observed)) return { observed, current };
    const updated = await this.#o.client.request(
      'PUT',
      `${nodesPath}/${encodeURIComponent(nodeKey)}/status`,
      {
        body: node,
        signal,
      },
    );
    const written = condition(updated, 'Ready');
    health.ready = written === undefined ? undefined : cloneJson(written);
    health.readyTransitionTimestamp = now;
    return { observed, current: written };
  }

  /** Upstream processTaintBaseEviction, without the zone rate limiters. */
  async #processTaintBasedEviction(
    node: JsonObject,
    observedReady: string,
    signal: AbortSignal,
  ): Promise<void> {
    const now = rfc3339(this.#clock.now());
    const notReady = { key: taintNotReady, effect: 'NoExecute' };
    const unreachable = { key: taintUnreachable, effect: 'NoExecute' };
    if (observedReady === 'False') {
      await this.#swapTaints(name(node), [{ ...notReady, timeAdded: now }], [unreachable], signal);
    } else if (observedReady === 'Unknown') {
      await this.#swapTaints(name(node), [{ ...unreachable, timeAdded: now }], [notReady], signal);
    } else if (observedReady === 'True') {
      await this.#swapTaints(name(node), [], [notReady, unreachable], signal);
    }
  }

  /** Adds `add` (unless present) and removes `remove` by key and effect; updates the node with retries. */
  async #swapTaints(
    nodeKey: string,
    add: JsonObject[],
    remove: JsonObject[],
    signal: AbortSignal,
  ): Promise<void> {
    let node = this.#nodes?.store.get(nodeKey);
    for (let attempt = 0; node !== undefined; attempt++) {
      const taints = taintsOf(node);
      const kept = taints.filter((t) => !remove.some((r) => sameTaint(r, t)));
      const added = add.filter((a) => !kept.some((t) => sameTaint(a, t)));
      if (kept.length === taints.length && added.length === 0) return;
      const next = [...kept, ...added];
      const body = cloneJson(node);
      const spec = obj(body['spec']);
      if (next.length > 0) spec['taints'] = next;
      else delete spec['taints'];
      body['spec'] = spec;
      try {
        await this.#o.client.request('PUT', `${nodesPath}/${encodeURIComponent(nodeKey)}`, { body, signal });
        return;
      } catch (err) {
        if (isNotFound(err)) return;
        if (!isConflict(err) || attempt >= 4) throw err;
        node = await this.#o.client.request('GET', `${nodesPath}/${encodeURIComponent(nodeKey)}`, { signal });
      }
    }
  }

  /** Upstream MarkPodsNotReady; false when a write failed. */
  async #markPodsNotReady(nodeKey: string, signal: AbortSignal): Promise<boolean> {
    let ok = true;
    for (const cached of this.#podsOn(nodeKey)) {
      const pod = cloneJson(cached);
      const status = obj(pod['status']);
      const conditions = arr(status['conditions']).filter(isJsonObject);
      const ready = conditions.find((c) => c['type'] === 'Ready');
      if (ready === undefined || ready['status'] === 'False') continue;
      ready['status'] = 'False';
      ready['lastTransitionTime'] = rfc3339(this.#clock.now());
      status['conditions'] = conditions;
      pod['status'] = status;
      try {
        await this.#o.client.request('PUT', `${podPath(namespace(pod), name(pod))}/status`, {
          body: pod,
          signal,
        });
      } catch (err) {
        if (isNotFound(err)) continue;
        if (signal.aborted) return false;
        ok = false;
        this.#o.onError?.(err);
        continue;
      }
      this.#recorder?.event(pod, 'Warning', 'NodeNotReady', 'NodeNotReady', 'Node is not ready');
    }
    return ok;
  }

  // ---- NoSchedule taints from conditions ---------------------------------------------------

  async #noScheduleTaintingPass(nodeKey: string, signal: AbortSignal): Promise<undefined> {
    const node = this.#nodes?.store.get(nodeKey);
    if (node === undefined) return undefined;
    const wanted: JsonObject[] = [];
    for (const c of arr(obj(node['status'])['conditions']).filter(isJsonObject)) {
      const key = conditionTaints[str(c['type'])]?.[str(c['status'])];
      if (key !== undefined) wanted.push({ key, effect: 'NoSchedule' });
    }
    if (obj(node['spec'])['unschedulable'] === true)
      wanted.push({ key: taintUnschedulable, effect: 'NoSchedule' });
    const existing = taintsOf(node).filter(
      (t) => t['effect'] === 'NoSchedule' && managedNoScheduleKeys.has(str(t['key'])),
    );
    const toAdd = wanted.filter((w) => !existing.some((t) => sameTaint(w, t)));
    const toRemove = existing.filter((t) => !wanted.some((w) => sameTaint(w, t)));
    if (toAdd.length === 0 && toRemove.length === 0) return undefined;
    await this.#swapTaints(nodeKey, toAdd, toRemove, signal);
    return undefined;
  }

  // ---- the NoExecute taint manager ---------------------------------------------------------

  async #taintManagerWork(key: string, signal: AbortSignal): Promise<undefined> {
    if (key.startsWith('node:')) {
      const nodeKey = key.slice('node:'.length);
      const node = this.#nodes?.store.get(nodeKey);
      for (const pod of this.#podsOn(nodeKey)) this.#processPod(pod, node);
      return undefined;
    }
    if (key.startsWith('evict:')) {
      await this.#evict(key.slice('evict:'.length), signal);
      return undefined;
    }
    const pod = this.#pods?.store.get(key.slice('pod:'.length));
    if (pod !== undefined) this.#processPod(pod, this.#nodes?.store.get(nodeName(pod)));
    return undefined;
  }

  /** Upstream processPodOnNode. */
  #processPod(pod: JsonObject, node: JsonObject | undefined): void {
    const podKey = objectKey(pod);
    const taints = node === undefined ? [] : taintsOf(node).filter((t) => t['effect'] === 'NoExecute');
    if (taints.length === 0 || deleting(pod)) {
      this.#cancelEviction(podKey, deleting(pod) ? undefined : pod);
      return;
    }
    const { all, used } = matchingTolerations(taints, tolerationsOf(pod));
    if (!all) {
      this.#cancelEviction(podKey, undefined);
      this.#taintManagerQueue.add(`evict:${podKey}`);
      return;
    }
    const minToleration = minTolerationMs(used);
    if (minToleration < 0) {
      this.#cancelEviction(podKey, pod);
      return;
    }
    const now = this.#clock.now();
    let createdAt = now;
    const scheduled = this.#evictions.get(podKey);
    if (scheduled !== undefined) {
      createdAt = scheduled.createdAt;
      if (createdAt + minToleration < now + minToleration) return;
      this.#cancelEviction(podKey, undefined);
    }
    const at = createdAt + minToleration;
    const abort = new AbortController();
    this.#evictions.set(podKey, { createdAt, at, abort });
    const signal = this.#signal;
    void this.#clock.sleep(Math.max(0, at - this.#clock.now()), abort.signal).then(() => {
      if (abort.signal.aborted || signal?.aborted === true) return;
      this.#evictions.delete(podKey);
      this.#taintManagerQueue.add(`evict:${podKey}`);
    });
  }

  #cancelEviction(podKey: string, pod: JsonObject | undefined): void {
    const scheduled = this.#evictions.get(podKey);
    if (scheduled === undefined) return;
    scheduled.abort.abort();
    this.#evictions.delete(podKey);
    if (pod !== undefined) {
      this.#recorder?.event(
        pod,
        'Normal',
        'TaintManagerEviction',
        'Delete',
        `Cancelling deletion of Pod ${podKey}`,
      );
    }
  }

  /** Upstream deletePodHandler: DisruptionTarget condition, then delete. */
  async #evict(podKey: string, signal: AbortSignal): Promise<void> {
    const cached = this.#pods?.store.get(podKey);
    if (cached === undefined || deleting(cached)) return;
    // Re-check against the node as it is now (the taint may be gone).
    const node = this.#nodes?.store.get(nodeName(cached));
    const taints = node === undefined ? [] : taintsOf(node).filter((t) => t['effect'] === 'NoExecute');
    if (taints.length === 0) return;
    this.#recorder?.event(
      cached,
      'Normal',
      'TaintManagerEviction',
      'Delete',
      `Marking for deletion Pod ${podKey}`,
    );
    const pod = cloneJson(cached);
    const status = obj(pod['status']);
    const conditions = arr(status['conditions']).filter(isJsonObject);
    if (!conditions.some((c) => c['type'] === 'DisruptionTarget' && c['status'] === 'True')) {
      conditions.push({
        type: 'DisruptionTarget',
        status: 'True',
        lastProbeTime: null,
        lastTransitionTime: rfc3339(this.#clock.now()),
        reason: 'DeletionByTaintManager',
        message: 'Taint manager: deleting due to NoExecute taint',
      });
      status['conditions'] = conditions;
      pod['status'] = status;
      try {
        await this.#o.client.request('PUT', `${podPath(namespace(pod), name(pod))}/status`, {
          body: pod,
          signal,
        });
      } catch (err) {
        if (isNotFound(err)) return;
        throw err;
      }
    }
    try {
      await this.#o.client.request('DELETE', podPath(namespace(pod), name(pod)), { signal });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}

/** RFC 3339 (micro)times: is `a` after `b`? */
function renewedAfter(a: string, b: string): boolean {
  const ta = timeOf(a);
  const tb = timeOf(b);
  if (ta !== undefined && tb !== undefined && ta !== tb) return ta > tb;
  return a !== b && a > b;
}

/** Upstream getMinTolerationTime: 0 for none, -1 for forever. */
export function minTolerationMs(tolerations: readonly JsonObject[]): number {
  if (tolerations.length === 0) return 0;
  let min = Number.POSITIVE_INFINITY;
  for (const t of tolerations) {
    const s = t['tolerationSeconds'];
    if (typeof s === 'number') {
      if (s <= 0) return 0;
      min = Math.min(min, s);
    }
  }
  return min === Number.POSITIVE_INFINITY ? -1 : min * 1000;
}
