/**
 * The DaemonSet controller (upstream v1.27 pkg/controller/daemon, issue #7): one pod per node
 * that should run it (nodeSelector, required node affinity, taints against the template's
 * tolerations plus the daemon tolerations every daemon pod gets), created with generateName
 * `<name>-` and a required node affinity `metadata.name In [node]` so the scheduler binds it;
 * pods on nodes that no longer fit (NoExecute taints, labels) are deleted, failed pods replaced,
 * extra pods on a node removed. The template's history is kept in ControllerRevisions
 * `<name>-<hash>`; pods carry `controller-revision-hash` and `pod-template-generation`.
 * RollingUpdate replaces old pods up to maxUnavailable, or with maxSurge > 0 starts the new pod
 * first and deletes the old one once the new one is available; OnDelete waits for deletions.
 * Status as upstream's updateDaemonSetStatus.
 */
import { ApiError } from '../../client/api-error.js';
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import { keyFor } from '../../client/object-meta.js';
import type { RestClient } from '../../client/rest-client.js';
import type { SharedInformer } from '../../client/shared-informer.js';
import type { WorkQueue } from '../../client/workqueue.js';
import { asSelector } from '../../machinery/labels/metav1.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { cloneJson, jsonEqual } from '../../util/json.js';
import { DelayedAdds, realClock } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { noEvents } from '../util/events.js';
import type { ControllerEvents } from '../util/events.js';
import { ControllerExpectations } from '../util/expectations.js';
import { controllerRevisionHashLabel } from '../util/history.js';
import { NamespaceIndex } from '../util/namespace-index.js';
import {
  controllerOf,
  deleting,
  errorMessage,
  labels,
  meta,
  name,
  namespace,
  num,
  obj,
  str,
  uid,
} from '../util/objects.js';
import type { OwnerRef } from '../util/objects.js';
import { isPodAvailable, isPodReady, podPhase } from '../util/pods.js';
import { syncRevisions, truncateHistory } from '../util/revisions.js';
import {
  daemonPodTemplate,
  nodeShouldRunDaemonPod,
  pinToNode,
  targetNodeName,
  templateGenerationLabel,
} from './daemon-pod.js';
import { controllerQueue, informersSynced, runWorkers } from '../util/workers.js';
import { resolveControllerRef } from '../util/controller-ref.js';

export interface DaemonSetControllerOptions {
  readonly client: RestClient;
  readonly informers: SharedInformerFactory;
  readonly onError?: (err: unknown) => void;
  /** Keys synced in parallel (upstream --concurrent-daemonset-syncs, 2). */
  readonly workers?: number;
  readonly clock?: Clock;
  /** Where SuccessfulCreate/SuccessfulDelete/FailedDaemonPod events go (default: none). */
  readonly events?: ControllerEvents;
}

const dsPath = '/apis/apps/v1/daemonsets';
const podsPath = '/api/v1/pods';
const nodesPath = '/api/v1/nodes';
const revisionsPath = '/apis/apps/v1/controllerrevisions';
const dsOf = (ns: string): string => `/apis/apps/v1/namespaces/${encodeURIComponent(ns)}/daemonsets`;
const podsOf = (ns: string): string => `/api/v1/namespaces/${encodeURIComponent(ns)}/pods`;

function isCode(err: unknown, code: number): boolean {
  return err instanceof ApiError && err.code === code;
}

/** intstr.GetScaledValueFromIntOrPercent. */
function scaled(v: JsonValue | undefined, total: number, roundUp: boolean): number {
  if (typeof v === 'number') return Math.trunc(v);
  if (typeof v !== 'string' || !/^[+-]?\d+%$/.test(v)) {
    throw new Error(`invalid value for IntOrString: ${JSON.stringify(v ?? null)}`);
  }
  const x = (Number(v.slice(0, -1)) * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}

function created(p: JsonObject): string {
  return str(meta(p)['creationTimestamp']);
}

/** Oldest first, then by name (podByCreationTimestampAndPhase, roughly). */
function byAge(a: JsonObject, b: JsonObject): number {
  const ca = created(a);
  const cb = created(b);
  if (ca !== cb) return ca < cb ? -1 : 1;
  return name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0;
}

export class DaemonSetController {
  readonly #o: DaemonSetControllerOptions;
  readonly #clock: Clock;
  readonly #queue: WorkQueue;
  readonly #events: ControllerEvents;
  readonly #expectations: ControllerExpectations;
  #ds: SharedInformer | undefined;
  #nodes: SharedInformer | undefined;
  #podIndex: NamespaceIndex | undefined;
  #revIndex: NamespaceIndex | undefined;

  constructor(o: DaemonSetControllerOptions) {
    this.#o = o;
    this.#clock = o.clock ?? realClock;
    this.#events = o.events ?? noEvents;
    this.#expectations = new ControllerExpectations(this.#clock);
    this.#queue = controllerQueue('DaemonSet', o.onError);
  }

  /** Runs until `signal` aborts (the informer factory is started by the caller). */
  async run(signal: AbortSignal): Promise<void> {
    const ds = this.#o.informers.informerFor(dsPath);
    const pods = this.#o.informers.informerFor(podsPath);
    const nodes = this.#o.informers.informerFor(nodesPath);
    const revisions = this.#o.informers.informerFor(revisionsPath);
    this.#ds = ds;
    this.#nodes = nodes;
    this.#podIndex = new NamespaceIndex(pods);
    this.#revIndex = new NamespaceIndex(revisions);
    this.#podIndex.start();
    this.#revIndex.start();
    const delayed = new DelayedAdds(this.#clock, (k) => this.#queue.add(k));
    const all = (): void => {
      for (const d of ds.store.list()) this.#enqueue(d);
    };
    const regs = [
      ds.addEventHandler({
        onAdd: (d) => this.#enqueue(d),
        onUpdate: (_o, d) => this.#enqueue(d),
        onDelete: (d) => {
          const key = keyFor(namespace(d), name(d));
          this.#expectations.delete(key);
          this.#queue.add(key);
        },
      }),
      pods.addEventHandler({
        onAdd: (p) => {
          const key = this.#ownerKey(p);
          if (key === undefined) return;
          if (deleting(p)) this.#expectations.deletionObserved(key, keyFor(namespace(p), name(p)));
          else this.#expectations.creationObserved(key);
          this.#queue.add(key);
        },
        onUpdate: (old, p) => {
          if (str(meta(old)['resourceVersion']) === str(meta(p)['resourceVersion'])) return;
          const key = this.#ownerKey(p);
          if (key === undefined) return;
          if (deleting(p)) this.#expectations.deletionObserved(key, keyFor(namespace(p), name(p)));
          this.#queue.add(key);
          const d = ds.store.get(key);
          const minReady = d === undefined ? 0 : num(obj(d['spec'])['minReadySeconds']);
          if (minReady > 0 && !isPodReady(old) && isPodReady(p))
            delayed.addAfter(key, minReady * 1000 + 1000);
        },
        onDelete: (p) => {
          const key = this.#ownerKey(p);
          if (key === undefined) return;
          this.#expectations.deletionObserved(key, keyFor(namespace(p), name(p)));
          this.#queue.add(key);
        },
      }),
      nodes.addEventHandler({
        onAdd: all,
        onUpdate: (old, n) => {
          const relevant = (x: JsonObject): JsonValue => [
            meta(x)['labels'] ?? null,
            obj(x['spec'])['taints'] ?? null,
            obj(x['spec'])['unschedulable'] ?? null,
          ];
          if (!jsonEqual(relevant(old), relevant(n))) all();
        },
        onDelete: all,
      }),
      revisions.addEventHandler({
        onDelete: (r) => {
          const d = this.#resolve(namespace(r), controllerOf(r));
          if (d !== undefined) this.#enqueue(d);
        },
      }),
    ];
    try {
      if (!(await informersSynced([ds, pods, nodes, revisions], signal))) return;
      await runWorkers(this.#queue, this.#o.workers ?? 2, (key) => this.#sync(key, signal), signal);
    } finally {
      for (const r of regs) r.remove();
      this.#podIndex.stop();
      this.#revIndex.stop();
      delayed.cancelAll();
    }
  }

  #enqueue(d: JsonObject): void {
    this.#queue.add(keyFor(namespace(d), name(d)));
  }

  #resolve(ns: string, ref: OwnerRef | undefined): JsonObject | undefined {
    return resolveControllerRef(this.#ds, 'DaemonSet', ns, ref);
  }

  #ownerKey(pod: JsonObject): string | undefined {
    const d = this.#resolve(namespace(pod), controllerOf(pod));
    return d === undefined ? undefined : keyFor(namespace(d), name(d));
  }

  async #sync(key: string, signal: AbortSignal): Promise<number | undefined> {
    const cached = this.#ds?.store.get(key);
    if (cached === undefined) {
      this.#expectations.delete(key);
      return undefined;
    }
    const ds = cloneJson(cached);
    const sel = asSelector(obj(obj(ds['spec'])['selector']));
    if (!sel.ok || sel.empty) return undefined;
    if (deleting(ds)) return undefined;
    const ns = namespace(ds);
    const generation = num(meta(ds)['generation']);
    const revisions = (this.#revIndex?.list(ns) ?? []).filter((r) => controllerOf(r)?.uid === uid(ds));
    const synced = await syncRevisions({
      client: this.#o.client,
      owner: ds,
      ownerApiVersion: 'apps/v1',
      ownerKind: 'DaemonSet',
      revisions,
      collisionCount: num(obj(ds['status'])['collisionCount']),
      signal,
    });
    const hash = labels(synced.update)[controllerRevisionHashLabel] ?? '';
    const template = daemonPodTemplate(ds, generation, hash);
    const pods = (this.#podIndex?.list(ns) ?? []).filter(
      (p) => controllerOf(p)?.uid === uid(ds) && sel.matches(labels(p)),
    );
    const byNode = new Map<string, JsonObject[]>();
    for (const p of pods) {
      const n = targetNodeName(p);
      if (n === undefined) continue;
      byNode.set(n, [...(byNode.get(n) ?? []), p]);
    }
    const nodes = this.#nodes?.store.list() ?? [];
    const now = this.#clock.now();
    const minReady = num(obj(ds['spec'])['minReadySeconds']);
    const available = (p: JsonObject): boolean => isPodAvailable(p, minReady, now);
    const updated = (p: JsonObject): boolean =>
      (hash !== '' && labels(p)[controllerRevisionHashLabel] === hash) ||
      labels(p)[templateGenerationLabel] === String(generation);

    const strategy = obj(obj(ds['spec'])['updateStrategy']);
    const rolling = str(strategy['type']) !== 'OnDelete';
    const ru = obj(strategy['rollingUpdate']);
    let desired = 0;
    for (const n of nodes) if (nodeShouldRunDaemonPod(n, template).shouldRun) desired++;
    let maxSurge = rolling ? scaled(ru['maxSurge'] ?? 0, desired, true) : 0;
    let maxUnavailable = rolling ? scaled(ru['maxUnavailable'] ?? 1, desired, true) : 0;
    if (rolling && maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
    if (maxSurge < 0) maxSurge = 0;

    if (this.#expectations.satisfied(key)) {
      // manage: pods onto nodes that need them, off nodes that must not run them.
      const create: string[] = [];
      const remove: JsonObject[] = [];
      for (const n of nodes) {
        const fit = nodeShouldRunDaemonPod(n, template);
        const onNode = byNode.get(name(n)) ?? [];
        const live: JsonObject[] = [];
        for (const p of onNode) {
          if (deleting(p)) continue;
          if (podPhase(p) === 'Failed') {
            if (fit.shouldContinueRunning) {
              this.#events.event(
                ds,
                'Warning',
                'FailedDaemonPod',
                `Found failed daemon pod ${namespace(p)}/${name(p)} on node ${name(n)}, will try to kill it`,
              );
            }
            remove.push(p);
            continue;
          }
          live.push(p);
        }
        if (fit.shouldRun && live.length === 0) create.push(name(n));
        else if (!fit.shouldContinueRunning) remove.push(...live);
        else if (live.length > 1) {
          live.sort(byAge);
          if (maxSurge > 0 && live.length === 2 && updated(live[1]!) !== updated(live[0]!)) continue;
          remove.push(...live.slice(1));
        }
      }
      for (const nodeName of byNode.keys()) {
        if (!nodes.some((n) => name(n) === nodeName)) {
          remove.push(...(byNode.get(nodeName) ?? []).filter((p) => !deleting(p)));
        }
      }
      // rollingUpdate.
      if (rolling && create.length === 0 && remove.length === 0) {
        let unavailable = 0;
        let surging = 0;
        const allowed: JsonObject[] = [];
        const candidates: JsonObject[] = [];
        const surgeAllowed: string[] = [];
        const surgeCandidates: string[] = [];
        for (const [nodeName, onNode] of byNode) {
          let newPod: JsonObject | undefined;
          let oldPod: JsonObject | undefined;
          let ok = true;
          for (const p of onNode) {
            if (deleting(p)) continue;
            if (updated(p)) {
              if (newPod !== undefined) ok = false;
              newPod = p;
            } else {
              if (oldPod !== undefined) ok = false;
              oldPod = p;
            }
          }
          if (!ok) {
            unavailable++;
            continue;
          }
          if (maxSurge === 0) {
            if ((oldPod === undefined) === (newPod === undefined)) unavailable++;
            else if (newPod !== undefined) {
              if (!available(newPod)) unavailable++;
            } else if (oldPod !== undefined) {
              if (!available(oldPod)) allowed.push(oldPod);
              else if (unavailable < maxUnavailable) candidates.push(oldPod);
            }
          } else if (oldPod !== undefined) {
            if (newPod === undefined) {
              if (!available(oldPod)) surgeAllowed.push(nodeName);
              else surgeCandidates.push(nodeName);
            } else if (!available(newPod)) surging++;
            else remove.push(oldPod);
          }
        }
        if (maxSurge === 0) {
          const remaining = Math.min(Math.max(0, maxUnavailable - unavailable), candidates.length);
          remove.push(...allowed, ...candidates.slice(0, remaining));
        } else {
          const remaining = Math.min(Math.max(0, maxSurge - surging), surgeCandidates.length);
          create.push(...surgeAllowed, ...surgeCandidates.slice(0, remaining));
        }
      }
      await this.#syncNodes(key, ds, template, create, remove, signal);
    }
    await this.#updateStatus(ds, nodes, template, byNode, updated, available, synced.collisionCount, signal);
    const live = new Set<string>([name(synced.update)]);
    for (const p of pods) {
      const h = labels(p)[controllerRevisionHashLabel];
      if (h !== undefined) live.add(`${name(ds)}-${h}`);
    }
    await truncateHistory({
      client: this.#o.client,
      revisions: synced.all,
      live,
      limit: num(obj(ds['spec'])['revisionHistoryLimit'], 10),
      signal,
    });
    return undefined;
  }

  async #syncNodes(
    key: string,
    ds: JsonObject,
    template: JsonObject,
    create: readonly string[],
    remove: readonly JsonObject[],
    signal: AbortSignal,
  ): Promise<void> {
    if (create.length === 0 && remove.length === 0) return;
    if (create.length > 0) this.#expectations.expectCreations(key, create.length);
    else
      this.#expectations.expectDeletions(
        key,
        remove.map((p) => keyFor(namespace(p), name(p))),
      );
    const errors: unknown[] = [];
    const ns = namespace(ds);
    await Promise.all(
      create.map(async (nodeName) => {
        const tm = obj(template['metadata']);
        const spec = obj(template['spec']);
        const pod: JsonObject = {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            ...tm,
            generateName: `${name(ds)}-`,
            namespace: ns,
            ownerReferences: [
              {
                apiVersion: 'apps/v1',
                kind: 'DaemonSet',
                name: name(ds),
                uid: uid(ds),
                controller: true,
                blockOwnerDeletion: true,
              },
            ],
          },
          spec: { ...spec, affinity: pinToNode(spec['affinity'], nodeName) },
        };
        try {
          const made = await this.#o.client.request('POST', podsOf(ns), { body: pod, signal });
          this.#events.event(ds, 'Normal', 'SuccessfulCreate', `Created pod: ${name(made)}`);
        } catch (err) {
          this.#expectations.creationObserved(key);
          if (!signal.aborted)
            this.#events.event(ds, 'Warning', 'FailedCreate', `Error creating: ${errorMessage(err)}`);
          errors.push(err);
        }
      }),
    );
    await Promise.all(
      remove.map(async (p) => {
        try {
          await this.#o.client.request('DELETE', `${podsOf(ns)}/${encodeURIComponent(name(p))}`, {
            body: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: uid(p) } },
            signal,
          });
          this.#events.event(ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name(p)}`);
        } catch (err) {
          this.#expectations.deletionObserved(key, keyFor(namespace(p), name(p)));
          if (isCode(err, 404) || isCode(err, 409)) return;
          if (!signal.aborted)
            this.#events.event(ds, 'Warning', 'FailedDelete', `Error deleting: ${errorMessage(err)}`);
          errors.push(err);
        }
      }),
    );
    if (errors.length > 0) throw errors[0] instanceof Error ? errors[0] : new Error(errorMessage(errors[0]));
  }

  /** updateDaemonSetStatus. */
  async #updateStatus(
    ds: JsonObject,
    nodes: readonly JsonObject[],
    template: JsonObject,
    byNode: ReadonlyMap<string, JsonObject[]>,
    updated: (p: JsonObject) => boolean,
    available: (p: JsonObject) => boolean,
    collisionCount: number,
    signal: AbortSignal,
  ): Promise<void> {
    let desired = 0;
    let current = 0;
    let misscheduled = 0;
    let ready = 0;
    let avail = 0;
    let updatedCount = 0;
    for (const n of nodes) {
      const fit = nodeShouldRunDaemonPod(n, template);
      const onNode = [...(byNode.get(name(n)) ?? [])];
      if (fit.shouldRun) {
        desired++;
        if (onNode.length === 0) continue;
        current++;
        onNode.sort(byAge);
        const pod = onNode[0]!;
        if (isPodReady(pod)) {
          ready++;
          if (available(pod)) avail++;
        }
        if (updated(pod)) updatedCount++;
      } else if (onNode.length > 0) misscheduled++;
    }
    const status: JsonObject = {
      currentNumberScheduled: current,
      numberMisscheduled: misscheduled,
      desiredNumberScheduled: desired,
      numberReady: ready,
    };
    const generation = num(meta(ds)['generation']);
    if (generation !== 0) status['observedGeneration'] = generation;
    if (updatedCount !== 0) status['updatedNumberScheduled'] = updatedCount;
    if (avail !== 0) status['numberAvailable'] = avail;
    if (desired - avail !== 0) status['numberUnavailable'] = desired - avail;
    const old = obj(ds['status']);
    if (old['collisionCount'] !== undefined || collisionCount !== 0)
      status['collisionCount'] = collisionCount;
    if (old['conditions'] !== undefined) status['conditions'] = old['conditions'];
    if (jsonEqual(status, old)) return;
    let fresh = ds;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.#o.client.request('PUT', `${dsOf(namespace(ds))}/${encodeURIComponent(name(ds))}/status`, {
          body: { ...fresh, status },
          signal,
        });
        return;
      } catch (err) {
        if (isCode(err, 404)) return;
        if (!isCode(err, 409) || attempt >= 3) throw err;
        fresh = await this.#o.client.request(
          'GET',
          `${dsOf(namespace(ds))}/${encodeURIComponent(name(ds))}`,
          {
            signal,
          },
        );
        if (uid(fresh) !== uid(ds)) return;
      }
    }
  }
}
