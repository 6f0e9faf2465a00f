/**
 * A scheduler for pods whose schedulerName is this scheduler's (`default-scheduler`), in the
 * manner of kube-scheduler v1.27: it follows pods, nodes and namespaces through shared informers,
 * keeps per-node accounting incrementally (O(1) per pod event), takes pods from a priority queue,
 * filters nodes (see filters.ts) starting where the last attempt stopped and stopping once
 * upstream's adaptive number of feasible nodes is found, scores them (score.ts), assumes the pod
 * on the chosen node and binds it through `pods/binding` without waiting for the answer.
 *
 * Pods with schedulingGates are left alone until every gate is removed (AM-10; the API server
 * set their PodScheduled=False/SchedulingGated condition at creation). A pod no node fits gets
 * PodScheduled=False, reason Unschedulable, with upstream's FitError message, a FailedScheduling
 * event, and (basic preemption) lower-priority victims deleted and status.nominatedNodeName set;
 * the room freed is kept for it (nominator.ts) until it is bound.
 * It waits until a cluster event may help (a node added or changed, a pod removed...) and its
 * backoff has passed.
 */
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import { ApiError } from '../../client/api-error.js';
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import type { RestClient } from '../../client/rest-client.js';
import type { HandlerRegistration } from '../../client/shared-informer.js';
import { EventRecorder } from '../../client/event-recorder.js';
import type { EventType, ObjectRef } from '../../client/event-recorder.js';
import { realClock } from '../../util/clock.js';
import type { Clock } from '../../util/clock.js';
import type { JsonObject } from '../../util/json.js';
import { jsonEqual } from '../../util/json.js';
import { metaOf, objAt, rfc3339, strAt, stringMap } from '../json.js';
import { fitErrorMessage, prepareCycle } from './filters.js';
import type { ClusterView, FilterFailure } from './filters.js';
import { NodeInfo, nodeView, nodeViewChanged } from './node-info.js';
import { Nominator, runFiltersWithNominated } from './nominator.js';
import { parsePod } from './pod-info.js';
import type { PodInfo } from './pod-info.js';
import { preempt } from './preemption.js';
import { SchedulingQueue } from './queue.js';
import { selectHost } from './score.js';

export interface SchedulerOptions {
  readonly client: Pick<RestClient, 'request'>;
  readonly informers: SharedInformerFactory;
  /** Pods with this spec.schedulerName are ours (default `default-scheduler`). */
  readonly schedulerName?: string;
  readonly clock?: Clock;
  readonly onError?: (err: unknown) => void;
  /** Bindings sent and not yet answered at most (default 64). */
  readonly maxInFlight?: number;
  /** Scheduled/FailedScheduling events (events.k8s.io/v1; default true). */
  readonly recordEvents?: boolean;
  /** Preempt lower-priority pods (default true). */
  readonly preemption?: boolean;
  /** An unschedulable pod is retried after this long without any event (default 5 min, as upstream). */
  readonly podMaxUnschedulableMs?: number;
}

export const podsPath = '/api/v1/pods';
export const nodesPath = '/api/v1/nodes';
const namespacesPath = '/api/v1/namespaces';

/** Upstream's numFeasibleNodesToFind with the adaptive percentage (percentageOfNodesToScore unset). */
export function numFeasibleNodesToFind(numAllNodes: number): number {
  const minFeasible = 100;
  if (numAllNodes < minFeasible) return numAllNodes;
  const percentage = Math.max(5, 50 - Math.floor(numAllNodes / 125));
  return Math.max(minFeasible, Math.floor((numAllNodes * percentage) / 100));
}

function podPath(p: PodInfo, sub = ''): string {
  return `/api/v1/namespaces/${encodeURIComponent(p.namespace)}/pods/${encodeURIComponent(p.name)}${sub}`;
}

/** Whether an update of an unassigned pod could change where (or whether) it fits. */
function specChanged(oldObj: JsonObject, newObj: JsonObject): boolean {
  if (!jsonEqual(objAt(oldObj, 'spec'), objAt(newObj, 'spec'))) return true;
  return !jsonEqual(stringMap(metaOf(oldObj), 'labels'), stringMap(metaOf(newObj), 'labels'));
}

export class Scheduler {
  readonly #o: SchedulerOptions;
  readonly #clock: Clock;
  readonly #name: string;
  readonly #queue: SchedulingQueue;
  readonly #nodes = new Map<string, NodeInfo>();
  #order: NodeInfo[] | undefined;
  /** Node of every pod in the cache (bound or assumed). */
  readonly #podNode = new Map<string, string>();
  readonly #assumed = new Set<string>();
  readonly #antiAffinityPods = new Map<string, { pod: PodInfo; node: NodeInfo }>();
  readonly #inFlight = new Set<Promise<void>>();
  readonly #nominator = new Nominator();
  readonly #recorder: EventRecorder | undefined;
  #nextStart = 0;
  #cluster: ClusterView;
  #namespaceLabels: (ns: string) => Readonly<Record<string, string>> | undefined = () => undefined;

  constructor(o: SchedulerOptions) {
    this.#o = o;
    this.#clock = o.clock ?? realClock;
    this.#name = o.schedulerName ?? 'default-scheduler';
    this.#queue = new SchedulingQueue(this.#clock);
    const onError = o.onError;
    this.#recorder =
      o.recordEvents === false
        ? undefined
        : new EventRecorder({
            client: o.client,
            reportingController: this.#name,
            reportingInstance: `${this.#name}-${hostname()}`,
            clock: this.#clock,
            ...(onError !== undefined ? { onError } : {}),
          });
    this.#cluster = {
      nodes: { [Symbol.iterator]: () => this.#nodeList()[Symbol.iterator]() },
      podsWithAntiAffinity: { [Symbol.iterator]: () => this.#antiAffinityPods.values() },
      namespaceLabels: (ns) => this.#namespaceLabels(ns),
    };
  }

  /** Pods waiting in the queue (active, backing off or unschedulable); for tests and metrics. */
  pending(): { active: number; unschedulable: number } {
    return { active: this.#queue.activeSize, unschedulable: this.#queue.unschedulableSize };
  }

  /** Runs until `signal` aborts (the informer factory is started by the caller). */
  async run(outer: AbortSignal): Promise<void> {
    // One listener on the caller's signal; bindings, patches and waits listen on ours.
    const stop = new AbortController();
    setMaxListeners(0, stop.signal);
    const onAbort = (): void => stop.abort();
    if (outer.aborted) stop.abort();
    else outer.addEventListener('abort', onAbort, { once: true });
    const signal = stop.signal;
    const pods = this.#o.informers.informerFor(podsPath);
    const nodes = this.#o.informers.informerFor(nodesPath);
    const namespaces = this.#o.informers.informerFor(namespacesPath);
    this.#namespaceLabels = (ns) => {
      const obj = namespaces.store.get(ns);
      return obj === undefined ? undefined : stringMap(metaOf(obj), 'labels');
    };
    const registrations: HandlerRegistration[] = [
      nodes.addEventHandler({
        onAdd: (n) => this.#onNode(n),
        onUpdate: (_, n) => this.#onNode(n),
        onDelete: (n) => this.#onNodeDelete(n),
      }),
      pods.addEventHandler({
        onAdd: (p) => this.#onPod(undefined, p),
        onUpdate: (old, p) => this.#onPod(old, p),
        onDelete: (p) => this.#onPodDelete(p),
      }),
    ];
    const recording = this.#recorder?.run(signal);
    try {
      if (!(await pods.synced) || !(await nodes.synced)) return;
      await namespaces.synced;
      const flushMs = this.#o.podMaxUnschedulableMs ?? 300_000;
      while (!signal.aborted) {
        const pod = this.#queue.pop();
        if (pod === undefined) {
          await this.#queue.wait(Math.min(this.#queue.nextBackoffMs() ?? 1000, 1000), signal);
          this.#queue.flushUnschedulable(flushMs);
          continue;
        }
        try {
          await this.#scheduleOne(pod, signal);
        } catch (err) {
          this.#o.onError?.(err);
          this.#queue.addBackoff(pod);
        }
      }
    } finally {
      outer.removeEventListener('abort', onAbort);
      for (const r of registrations) r.remove();
      await Promise.allSettled([...this.#inFlight]);
      await recording;
    }
  }

  // --- informer events --------------------------------------------------------------------

  #onNode(obj: JsonObject): void {
    const view = nodeView(obj);
    let info = this.#nodes.get(view.name);
    if (info === undefined) {
      info = new NodeInfo(view.name);
      this.#nodes.set(view.name, info);
    }
    const changed = info.node === undefined || nodeViewChanged(info.node, view);
    if (info.node === undefined) this.#order = undefined;
    info.node = view;
    if (changed) this.#queue.moveOnEvent('NodeChange');
  }

  #onNodeDelete(obj: JsonObject): void {
    const name = strAt(metaOf(obj), 'name') ?? '';
    const info = this.#nodes.get(name);
    if (info === undefined) return;
    info.node = undefined;
    if (info.pods.size === 0) this.#nodes.delete(name);
    this.#order = undefined;
  }

  #responsible(p: PodInfo): boolean {
    return p.schedulerName === this.#name && !p.terminating && !p.terminal && !p.gated;
  }

  #onPod(oldObj: JsonObject | undefined, obj: JsonObject): void {
    const p = parsePod(obj);
    if (p.nodeName !== '') {
      this.#nominator.delete(p.key);
      this.#queue.delete(p.key);
      const wasAssumed = this.#assumed.delete(p.key);
      if (p.terminal) {
        if (this.#removeFromCache(p.key)) this.#queue.moveOnEvent('AssignedPodDelete');
        return;
      }
      const known = this.#podNode.has(p.key);
      this.#addToCache(p);
      if (!known && !wasAssumed) this.#queue.moveOnEvent('AssignedPodAdd');
      return;
    }
    if (this.#assumed.has(p.key)) return;
    if (!this.#responsible(p)) {
      this.#nominator.delete(p.key);
      this.#queue.delete(p.key);
      return;
    }
    // An update that does not (yet) show the nomination made in memory keeps it, as upstream.
    this.#nominator.set(p, p.nominatedNodeName || (this.#nominator.nodeOf(p.key) ?? ''));
    if (this.#queue.has(p.key) && oldObj !== undefined && !specChanged(oldObj, obj)) this.#queue.update(p);
    else this.#queue.add(p);
  }

  #onPodDelete(obj: JsonObject): void {
    const p = parsePod(obj);
    this.#nominator.delete(p.key);
    this.#queue.delete(p.key);
    this.#assumed.delete(p.key);
    if (this.#removeFromCache(p.key)) this.#queue.moveOnEvent('AssignedPodDelete');
  }

  #addToCache(p: PodInfo): void {
    const prev = this.#podNode.get(p.key);
    if (prev !== undefined && prev !== p.nodeName) this.#removeFromCache(p.key);
    let info = this.#nodes.get(p.nodeName);
    if (info === undefined) {
      info = new NodeInfo(p.nodeName);
      this.#nodes.set(p.nodeName, info);
    }
    info.addPod(p);
    this.#podNode.set(p.key, p.nodeName);
    if (p.antiAffinityTerms.length > 0) this.#antiAffinityPods.set(p.key, { pod: p, node: info });
    else this.#antiAffinityPods.delete(p.key);
  }

  #removeFromCache(key: string): boolean {
    const nodeName = this.#podNode.get(key);
    if (nodeName === undefined) return false;
    this.#podNode.delete(key);
    this.#antiAffinityPods.delete(key);
    const info = this.#nodes.get(nodeName);
    info?.removePod(key);
    if (info !== undefined && info.node === undefined && info.pods.size === 0) this.#nodes.delete(nodeName);
    return true;
  }

  #nodeList(): NodeInfo[] {
    if (this.#order === undefined) {
      this.#order = [...this.#nodes.values()]
        .filter((n) => n.node !== undefined)
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    }
    return this.#order;
  }

  // --- one scheduling attempt -------------------------------------------------------------

  async #scheduleOne(pod: PodInfo, signal: AbortSignal): Promise<void> {
    const nodes = this.#nodeList();
    if (nodes.length === 0) {
      this.#queue.addUnschedulable(pod, new Set(['NodeChange']));
      this.#track(
        this.#setUnschedulable(pod, 'SchedulerError', 'no nodes available to schedule pods', signal),
      );
      return;
    }
    const state = prepareCycle(pod, this.#cluster);
    const nsLabels = this.#cluster.namespaceLabels;
    const want = numFeasibleNodesToFind(nodes.length);
    const feasible: NodeInfo[] = [];
    const failures = new Map<string, FilterFailure>();
    const start = this.#nextStart % nodes.length;
    let processed = 0;
    for (let i = 0; i < nodes.length && feasible.length < want; i++) {
      const info = nodes[(start + i) % nodes.length]!;
      processed++;
      const ahead = this.#nominator.ahead(pod, info.name);
      const failure = runFiltersWithNominated(pod, info, state, nsLabels, ahead);
      if (failure === undefined) feasible.push(info);
      else failures.set(info.name, failure);
    }
    this.#nextStart = (start + processed) % nodes.length;
    if (feasible.length === 0) {
      this.#unschedulable(pod, nodes, failures, state, signal);
      return;
    }
    const chosen = feasible[selectHost(pod, feasible)]!;
    await this.#assumeAndBind(pod, chosen, signal);
  }

  #unschedulable(
    pod: PodInfo,
    nodes: readonly NodeInfo[],
    failures: ReadonlyMap<string, FilterFailure>,
    state: ReturnType<typeof prepareCycle>,
    signal: AbortSignal,
  ): void {
    const plugins = new Set([...failures.values()].map((f) => f.plugin));
    let postFilter = '';
    let nominate: string | undefined;
    if (this.#o.preemption !== false) {
      const result = preempt(pod, nodes, failures, state, this.#cluster.namespaceLabels, {
        nodeOf: (p) => this.#nominator.nodeOf(p.key) ?? p.nominatedNodeName,
        ahead: (p, node) => this.#nominator.ahead(p, node),
      });
      postFilter = result.message;
      if (result.candidate !== undefined) {
        nominate = result.candidate.node;
        this.#nominator.set(pod, nominate);
        for (const v of result.candidate.victims) this.#track(this.#deleteVictim(v, pod, signal));
        // The victims' deletions bring the pod back.
        plugins.add('NodeResourcesFit');
      }
    }
    const msg = fitErrorMessage(nodes.length, failures.values(), postFilter);
    this.#queue.addUnschedulable(pod, plugins);
    this.#track(this.#setUnschedulable(pod, 'Unschedulable', msg, signal, nominate));
  }

  async #assumeAndBind(pod: PodInfo, node: NodeInfo, signal: AbortSignal): Promise<void> {
    const assumed: PodInfo = { ...pod, nodeName: node.name };
    this.#nominator.delete(pod.key);
    this.#assumed.add(pod.key);
    this.#addToCache(assumed);
    this.#queue.done(pod.key);
    const max = this.#o.maxInFlight ?? 64;
    while (this.#inFlight.size >= max) await Promise.race(this.#inFlight);
    this.#track(this.#bind(pod, node.name, signal));
  }

  async #bind(pod: PodInfo, nodeName: string, signal: AbortSignal): Promise<void> {
    try {
      await this.#o.client.request('POST', podPath(pod, '/binding'), {
        body: {
          apiVersion: 'v1',
          kind: 'Binding',
          metadata: { name: pod.name, namespace: pod.namespace, uid: pod.uid },
          target: { apiVersion: 'v1', kind: 'Node', name: nodeName },
        },
        signal,
      });
    } catch (err) {
      if (signal.aborted) return;
      if (this.#assumed.delete(pod.key)) {
        this.#removeFromCache(pod.key);
        this.#queue.moveOnEvent('AssignedPodDelete');
      }
      // Gone, or bound by someone else (the informer tells us where): nothing to retry.
      if (err instanceof ApiError && (err.code === 404 || err.code === 409)) return;
      this.#o.onError?.(err);
      this.#queue.addBackoff(pod);
      return;
    }
    this.#event(
      pod,
      'Normal',
      'Scheduled',
      'Binding',
      `Successfully assigned ${pod.namespace}/${pod.name} to ${nodeName}`,
    );
  }

  async #deleteVictim(victim: PodInfo, preemptor: PodInfo, signal: AbortSignal): Promise<void> {
    try {
      await this.#o.client.request('DELETE', podPath(victim), {
        body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: victim.uid } },
        signal,
      });
    } catch (err) {
      if (!(err instanceof ApiError && (err.code === 404 || err.code === 409)) && !signal.aborted) {
        this.#o.onError?.(err);
      }
      return;
    }
    this.#event(
      victim,
      'Normal',
      'Preempted',
      'Preempting',
      `Preempted by pod ${preemptor.uid} on node ${this.#podNode.get(victim.key) ?? ''}`,
      preemptor,
    );
  }

  /** PodScheduled=False with `reason` and `msg` (written only when it changes), and the event. */
  async #setUnschedulable(
    pod: PodInfo,
    reason: string,
    msg: string,
    signal: AbortSignal,
    nominatedNodeName?: string,
  ): Promise<void> {
    const old = pod.scheduledCondition;
    const same =
      strAt(old, 'status') === 'False' && strAt(old, 'reason') === reason && strAt(old, 'message') === msg;
    const nominate = nominatedNodeName !== undefined && nominatedNodeName !== pod.nominatedNodeName;
    if (!same || nominate) {
      const lastTransitionTime =
        strAt(old, 'status') === 'False' && strAt(old, 'lastTransitionTime') !== undefined
          ? strAt(old, 'lastTransitionTime')!
          : rfc3339(this.#clock.now());
      const status: JsonObject = {
        conditions: [
          {
            type: 'PodScheduled',
            status: 'False',
            lastProbeTime: null,
            lastTransitionTime,
            reason,
            message: msg,
          },
        ],
      };
      if (nominatedNodeName !== undefined) status['nominatedNodeName'] = nominatedNodeName;
      try {
        await this.#o.client.request('PATCH', podPath(pod, '/status'), {
          body: { status },
          contentType: 'application/strategic-merge-patch+json',
          signal,
        });
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 404) && !signal.aborted) this.#o.onError?.(err);
        return;
      }
    }
    this.#event(pod, 'Warning', 'FailedScheduling', 'Scheduling', msg);
  }

  /** An events.k8s.io/v1 Event about `pod` (series-aggregated by the recorder, as upstream's). */
  #event(
    pod: PodInfo,
    type: EventType,
    reason: string,
    action: string,
    note: string,
    related?: PodInfo,
  ): void {
    const ref = (p: PodInfo): ObjectRef => ({
      apiVersion: 'v1',
      kind: 'Pod',
      namespace: p.namespace,
      name: p.name,
      uid: p.uid,
    });
    this.#recorder?.event(
      ref(pod),
      type,
      reason,
      action,
      note,
      related === undefined ? undefined : ref(related),
    );
  }

  #track(p: Promise<void>): void {
    const tracked = p.finally(() => this.#inFlight.delete(tracked));
    this.#inFlight.add(tracked);
  }
}
