/**
 * The DaemonSet controller (upstream v1.27 pkg/controller/daemon): one pod per node
 * that should run it (nodeSelector, required node affinity, taints against the template's
 * tolerations plus the daemon tolerations every daemon pod gets), created with generateName
 * `<name>-` and a required node affinity `metadata.name In [node]` so the scheduler binds it.
 *
 * A sync claims pods as upstream's PodControllerRefManager (matching orphans adopted with a
 * strategic merge patch after re-reading the DaemonSet, owned pods that stopped matching
 * released) and ControllerRevisions the same way (ClaimControllerRevisions), then keeps the
 * template's history as constructHistory does: revisions `<name>-<ComputeHash(template,
 * collisionCount)>` holding the template patch, the current one renumbered past every old one,
 * duplicates of it removed after relabelling their pods, a name collision bumping
 * status.collisionCount; history beyond revisionHistoryLimit whose hash no pod carries is deleted,
 * oldest first. Pods carry `controller-revision-hash` and `pod-template-generation` (the
 * `deprecated.daemonset.template.generation` annotation).
 *
 * manage (podsShouldBeOnNode): a missing pod is created; failed pods are deleted under a per-node
 * backoff (1 s doubling to 15 min) and replaced on a later sync, succeeded pods deleted; excess
 * pods beyond the oldest removed (with maxSurge, an old and a new pod may share a node until the
 * new one is available); every pod on a node that no longer fits (NoExecute taints, labels,
 * affinity) deleted; unscheduled pods for nodes that are gone deleted. At most 250 creations and
 * deletions per sync, creations in slow-start batches. RollingUpdate replaces old pods up to
 * maxUnavailable, or with maxSurge > 0 starts the new pod first; OnDelete waits for deletions.
 * Status as upstream's updateDaemonSetStatus (observedGeneration raised only when the sync acted
 * on that generation).
 */
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import { keyFor } from '../../client/object-meta.js';
import type { RestClient } from '../../client/rest-client.js';
import type { SharedInformer } from '../../client/shared-informer.js';
import type { WorkQueue } from '../../client/workqueue.js';
import { ApiError, hasStatusCause } from '../../client/api-error.js';
import { asSelector } from '../../machinery/labels/metav1.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { cloneJson, isJsonObject, jsonEqual } from '../../util/json.js';
import { claimObjects, recheckOwner } from '../util/claim.js';
import { DelayedAdds, realClock } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { metav1SelectorOf, ownersSelecting, resolveControllerRef } from '../util/controller-ref.js';
import { noEvents } from '../util/events.js';
import type { ControllerEvents } from '../util/events.js';
import { ControllerExpectations } from '../util/expectations.js';
import { computeHash } from '../util/hash.js';
import {
  controllerRevisionHashLabel,
  revisionNumber,
  sortedJson,
  sortRevisions,
  templatePatch,
} from '../util/history.js';
import { NamespaceIndex } from '../util/namespace-index.js';
import {
  asError,
  controllerOf,
  deleting,
  errorMessage,
  labels,
  meta,
  name,
  namespace,
  newControllerRef,
  num,
  obj,
  str,
  stringMap,
  uid,
} from '../util/objects.js';
import type { OwnerRef } from '../util/objects.js';
import { isPodAvailable, isPodReady, podPhase } from '../util/pods.js';
import { controllerQueue, informersSynced, runWorkers } from '../util/workers.js';
import {
  daemonPodTemplate,
  isPodUpdated,
  nodeShouldRunDaemonPod,
  pinToNode,
  targetNodeName,
  templateGeneration,
} from './daemon-pod.js';
import { FailedPodsBackoff } from './failed-pods-backoff.js';

export interface DaemonSetControllerOptions {
  readonly client: RestClient;
  readonly informers: SharedInformerFactory;
  readonly onError?: (err: unknown) => void;
  /** Keys synced in parallel (upstream --concurrent-daemonset-syncs, 2). */
  readonly workers?: number;
  readonly clock?: Clock;
  /** Where SuccessfulCreate/SuccessfulDelete/FailedDaemonPod events go (default: none). */
  readonly events?: ControllerEvents;
  /** Creations and deletions per sync (upstream BurstReplicas, 250). */
  readonly burstReplicas?: number;
  /** The failed-pod backoff's first period (upstream 1 s). */
  readonly failedPodsBackoffMs?: number;
  /** Its cap (upstream 15 min). */
  readonly failedPodsBackoffMaxMs?: number;
}

const dsPath = '/apis/apps/v1/daemonsets';
const podsPath = '/api/v1/pods';
const nodesPath = '/api/v1/nodes';
const revisionsPath = '/apis/apps/v1/controllerrevisions';
const dsOf = (ns: string): string => `/apis/apps/v1/namespaces/${encodeURIComponent(ns)}/daemonsets`;
const podsOf = (ns: string): string => `/api/v1/namespaces/${encodeURIComponent(ns)}/pods`;
const revisionsOf = (ns: string): string =>
  `/apis/apps/v1/namespaces/${encodeURIComponent(ns)}/controllerrevisions`;
const podPath = (p: JsonObject): string => `${podsOf(namespace(p))}/${encodeURIComponent(name(p))}`;
const revisionPath = (r: JsonObject): string => `${revisionsOf(namespace(r))}/${encodeURIComponent(name(r))}`;

type Selector = { matches(l: Record<string, string>): boolean };

function isCode(err: unknown, ...codes: number[]): boolean {
  return err instanceof ApiError && codes.includes(err.code);
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

/** podByCreationTimestampAndPhase: scheduled pods first, then oldest, then by name. */
function byAge(a: JsonObject, b: JsonObject): number {
  const sa = str(obj(a['spec'])['nodeName']) !== '';
  const sb = str(obj(b['spec'])['nodeName']) !== '';
  if (sa !== sb) return sa ? -1 : 1;
  const ca = str(meta(a)['creationTimestamp']);
  const cb = str(meta(b)['creationTimestamp']);
  if (ca !== cb) return ca < cb ? -1 : 1;
  return name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0;
}

function isTerminal(p: JsonObject): boolean {
  const phase = podPhase(p);
  return phase === 'Succeeded' || phase === 'Failed';
}

/** getNodesToDaemonPods: claimed pods by target node (terminal pods being deleted only if asked). */
function nodeToDaemonPods(
  pods: readonly JsonObject[],
  includeDeletedTerminal: boolean,
): Map<string, JsonObject[]> {
  const byNode = new Map<string, JsonObject[]>();
  for (const p of pods) {
    if (!includeDeletedTerminal && isTerminal(p) && deleting(p)) continue;
    const n = targetNodeName(p);
    if (n === undefined) continue;
    byNode.set(n, [...(byNode.get(n) ?? []), p]);
  }
  return byNode;
}

/** findUpdatedPodsOnNode: at most one new and one old pod that are not being deleted. */
function updatedPodsOnNode(
  pods: readonly JsonObject[],
  updated: (p: JsonObject) => boolean,
): { newPod?: JsonObject; oldPod?: JsonObject; ok: boolean } {
  let newPod: JsonObject | undefined;
  let oldPod: JsonObject | undefined;
  for (const p of pods) {
    if (deleting(p)) continue;
    if (updated(p)) {
      if (newPod !== undefined) return { ok: false };
      newPod = p;
    } else {
      if (oldPod !== undefined) return { ok: false };
      oldPod = p;
    }
  }
  return {
    ...(newPod !== undefined ? { newPod } : {}),
    ...(oldPod !== undefined ? { oldPod } : {}),
    ok: true,
  };
}

/** What one sync means to do on the nodes. */
interface NodeWork {
  readonly create: string[];
  readonly remove: JsonObject[];
}

/** The revisions of a DaemonSet after constructHistory. */
interface History {
  readonly cur: JsonObject;
  readonly old: JsonObject[];
}

export class DaemonSetController {
  readonly #o: DaemonSetControllerOptions;
  readonly #clock: Clock;
  readonly #queue: WorkQueue;
  readonly #events: ControllerEvents;
  readonly #expectations: ControllerExpectations;
  readonly #failedPodsBackoff: FailedPodsBackoff;
  #ds: SharedInformer | undefined;
  #nodes: SharedInformer | undefined;
  #dsIndex: NamespaceIndex | undefined;
  #podIndex: NamespaceIndex | undefined;
  #revIndex: NamespaceIndex | undefined;
  #delayed: DelayedAdds | undefined;

  constructor(o: DaemonSetControllerOptions) {
    this.#o = o;
    this.#clock = o.clock ?? realClock;
    this.#events = o.events ?? noEvents;
    this.#expectations = new ControllerExpectations(this.#clock);
    this.#failedPodsBackoff = new FailedPodsBackoff(
      o.failedPodsBackoffMs ?? 1000,
      o.failedPodsBackoffMaxMs ?? 15 * 60 * 1000,
    );
    this.#queue = controllerQueue('DaemonSet', o.onError, this.#clock);
  }

  /** Runs until `signal` aborts (the informer factory is started by the caller). */
  async run(signal: AbortSignal): Promise<void> {
    const ds = this.#o.informers.informerFor(dsPath);
    const pods = this.#o.informers.informerFor(podsPath);
    const nodes = this.#o.informers.informerFor(nodesPath);
    const revisions = this.#o.informers.informerFor(revisionsPath);
    this.#ds = ds;
    this.#nodes = nodes;
    this.#dsIndex = new NamespaceIndex(ds);
    this.#podIndex = new NamespaceIndex(pods);
    this.#revIndex = new NamespaceIndex(revisions);
    const delayed = new DelayedAdds(this.#clock, (k) => this.#queue.add(k));
    this.#delayed = delayed;
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
        onAdd: (p) => this.#addPod(p),
        onUpdate: (old, p) => this.#updatePod(old, p),
        onDelete: (p) => this.#deletePod(p),
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
        onAdd: (r) => this.#addHistory(r),
        onUpdate: (old, r) => this.#updateHistory(old, r),
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
      delayed.cancelAll();
    }
  }

  #enqueue(d: JsonObject): void {
    this.#queue.add(keyFor(namespace(d), name(d)));
  }

  #resolve(ns: string, ref: OwnerRef | undefined): JsonObject | undefined {
    return resolveControllerRef(this.#ds, 'DaemonSet', ns, ref);
  }

  /** DaemonSets of the object's namespace whose selector matches its labels (for orphans). */
  #matching(o: JsonObject): JsonObject[] {
    return ownersSelecting(this.#dsIndex?.list(namespace(o)) ?? [], o, metav1SelectorOf);
  }

  #addPod(p: JsonObject): void {
    if (deleting(p)) {
      this.#deletePod(p);
      return;
    }
    const ref = controllerOf(p);
    if (ref !== undefined) {
      const d = this.#resolve(namespace(p), ref);
      if (d === undefined) return;
      const key = keyFor(namespace(d), name(d));
      this.#expectations.creationObserved(key);
      this.#queue.add(key);
      return;
    }
    // An orphan: every matching DaemonSet may want to adopt it.
    for (const d of this.#matching(p)) this.#enqueue(d);
  }

  #updatePod(old: JsonObject, p: JsonObject): void {
    if (str(meta(old)['resourceVersion']) === str(meta(p)['resourceVersion'])) return;
    if (deleting(p)) {
      this.#deletePod(p);
      return;
    }
    const oldRef = controllerOf(old);
    const ref = controllerOf(p);
    const refChanged = !jsonEqual(
      oldRef === undefined ? null : { ...oldRef },
      ref === undefined ? null : { ...ref },
    );
    if (refChanged && oldRef !== undefined) {
      const d = this.#resolve(namespace(old), oldRef);
      if (d !== undefined) this.#enqueue(d);
    }
    if (ref !== undefined) {
      const d = this.#resolve(namespace(p), ref);
      if (d === undefined) return;
      const key = keyFor(namespace(d), name(d));
      this.#queue.add(key);
      const minReady = num(obj(d['spec'])['minReadySeconds']);
      if (minReady > 0 && !isPodReady(old) && isPodReady(p))
        this.#delayed?.addAfter(key, minReady * 1000 + 1000);
      return;
    }
    const labelChanged = !jsonEqual(meta(old)['labels'] ?? {}, meta(p)['labels'] ?? {});
    if (labelChanged || refChanged) for (const d of this.#matching(p)) this.#enqueue(d);
  }

  #deletePod(p: JsonObject): void {
    const d = this.#resolve(namespace(p), controllerOf(p));
    if (d === undefined) return;
    const key = keyFor(namespace(d), name(d));
    this.#expectations.deletionObserved(key, keyFor(namespace(p), name(p)));
    this.#queue.add(key);
  }

  #addHistory(r: JsonObject): void {
    const ref = controllerOf(r);
    if (ref !== undefined) {
      const d = this.#resolve(namespace(r), ref);
      if (d !== undefined) this.#enqueue(d);
      return;
    }
    for (const d of this.#matching(r)) this.#enqueue(d);
  }

  #updateHistory(old: JsonObject, r: JsonObject): void {
    if (str(meta(old)['resourceVersion']) === str(meta(r)['resourceVersion'])) return;
    const oldRef = controllerOf(old);
    const ref = controllerOf(r);
    const refChanged = oldRef?.uid !== ref?.uid;
    if (refChanged && oldRef !== undefined) {
      const d = this.#resolve(namespace(old), oldRef);
      if (d !== undefined) this.#enqueue(d);
    }
    if (ref !== undefined) {
      const d = this.#resolve(namespace(r), ref);
      if (d !== undefined) this.#enqueue(d);
      return;
    }
    const labelChanged = !jsonEqual(meta(old)['labels'] ?? {}, meta(r)['labels'] ?? {});
    if (labelChanged || refChanged) for (const d of this.#matching(r)) this.#enqueue(d);
  }

  /** syncDaemonSet. */
  async #sync(key: string, signal: AbortSignal): Promise<number | undefined> {
    const cached = this.#ds?.store.get(key);
    if (cached === undefined) {
      this.#expectations.delete(key);
      return undefined;
    }
    const ds = cloneJson(cached);
    const sel = asSelector(obj(obj(ds['spec'])['selector']));
    if (!sel.ok) return undefined;
    if (sel.empty) {
      this.#events.event(
        ds,
        'Warning',
        'SelectingAll',
        'This daemon set is selecting all pods. A non-empty selector is required.',
      );
      return undefined;
    }
    // Being deleted: its history may be gone or orphaned already, so nothing is done.
    if (deleting(ds)) return undefined;
    const nodes = this.#nodes?.store.list() ?? [];
    const pods = await this.#claimPods(ds, sel, signal);
    const history = await this.#constructHistory(ds, sel, pods, signal);
    const hash = labels(history.cur)[controllerRevisionHashLabel] ?? '';
    const satisfied = this.#expectations.satisfied(key);
    let err: unknown;
    if (satisfied) {
      try {
        await this.#updateDaemonSet(key, ds, nodes, pods, hash, history.old, signal);
      } catch (e) {
        if (signal.aborted) throw e;
        err = e;
      }
    }
    await this.#updateStatus(ds, nodes, pods, hash, satisfied, signal);
    if (err !== undefined) throw asError(err);
    return undefined;
  }

  /** getDaemonPods: the pods this DaemonSet owns or may adopt, claimed. */
  async #claimPods(ds: JsonObject, sel: Selector, signal: AbortSignal): Promise<JsonObject[]> {
    const candidates = (this.#podIndex?.list(namespace(ds)) ?? []).filter((p) => {
      const ref = controllerOf(p);
      return ref === undefined || ref.uid === uid(ds);
    });
    return claimObjects(candidates, {
      client: this.#o.client,
      owner: ds,
      ownerApiVersion: 'apps/v1',
      ownerKind: 'DaemonSet',
      matches: (p) => sel.matches(labels(p)),
      objectPath: podPath,
      canAdopt: () => this.#recheck(ds, signal),
      signal,
    });
  }

  #recheck(ds: JsonObject, signal: AbortSignal): Promise<void> {
    return recheckOwner(
      this.#o.client,
      `${dsOf(namespace(ds))}/${encodeURIComponent(name(ds))}`,
      ds,
      'DaemonSet',
      signal,
    );
  }

  /**
   * constructHistory: claims the revisions (ClaimControllerRevisions), labels those without the
   * hash label with their name, and splits them into the current one (whose data is the
   * template patch; created when none is, deduplicated when several are, renumbered past the old
   * ones) and the old ones.
   */
  async #constructHistory(
    ds: JsonObject,
    sel: Selector,
    pods: readonly JsonObject[],
    signal: AbortSignal,
  ): Promise<History> {
    const candidates = (this.#revIndex?.list(namespace(ds)) ?? []).filter((r) => {
      const ref = controllerOf(r);
      return ref === undefined || ref.uid === uid(ds);
    });
    const claimed = await claimObjects(candidates, {
      client: this.#o.client,
      owner: ds,
      ownerApiVersion: 'apps/v1',
      ownerKind: 'DaemonSet',
      matches: (r) => sel.matches(labels(r)),
      objectPath: revisionPath,
      canAdopt: () => this.#recheck(ds, signal),
      signal,
    });
    const data = sortedJson(templatePatch(ds));
    const current: JsonObject[] = [];
    const old: JsonObject[] = [];
    for (let r of claimed) {
      if (labels(r)[controllerRevisionHashLabel] === undefined) {
        const copy = cloneJson(r);
        const m = obj(copy['metadata']);
        m['labels'] = { ...stringMap(m['labels']), [controllerRevisionHashLabel]: name(r) };
        copy['metadata'] = m;
        r = await this.#o.client.request('PUT', revisionPath(r), { body: copy, signal });
      }
      if (sortedJson(r['data'] ?? null) === data) current.push(r);
      else old.push(r);
    }
    const next = old.reduce((m, r) => Math.max(m, revisionNumber(r)), 0) + 1;
    let cur: JsonObject;
    if (current.length === 0) {
      cur = await this.#snapshot(ds, next, signal);
    } else {
      cur = await this.#dedupCurrent(current, pods, signal);
      if (revisionNumber(cur) < next) {
        cur = await this.#o.client.request('PATCH', revisionPath(cur), {
          body: { revision: next },
          contentType: 'application/merge-patch+json',
          signal,
        });
      }
    }
    return { cur, old };
  }

  /** snapshot: a new revision of the template; a different revision holding the name bumps collisionCount. */
  async #snapshot(ds: JsonObject, revision: number, signal: AbortSignal): Promise<JsonObject> {
    const ns = namespace(ds);
    const template = obj(obj(ds['spec'])['template']);
    const rawCount = obj(ds['status'])['collisionCount'];
    const collisionCount = typeof rawCount === 'number' ? rawCount : undefined;
    const hash = computeHash(template, collisionCount);
    const dsAnnotations = meta(ds)['annotations'];
    const rev: JsonObject = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name: `${name(ds)}-${hash}`,
        namespace: ns,
        labels: { ...stringMap(obj(template['metadata'])['labels']), [controllerRevisionHashLabel]: hash },
        ...(isJsonObject(dsAnnotations) ? { annotations: cloneJson(dsAnnotations) } : {}),
        ownerReferences: [{ ...newControllerRef(ds, 'apps/v1', 'DaemonSet') }],
      },
      data: templatePatch(ds),
      revision,
    };
    try {
      return await this.#o.client.request('POST', revisionsOf(ns), { body: rev, signal });
    } catch (err) {
      if (!isCode(err, 409)) throw err;
      const existing = await this.#o.client.request('GET', revisionPath(rev), { signal });
      if (sortedJson(existing['data'] ?? null) === sortedJson(rev['data'] ?? null)) return existing;
      const fresh = await this.#o.client.request('GET', `${dsOf(ns)}/${encodeURIComponent(name(ds))}`, {
        signal,
      });
      const freshCount = obj(fresh['status'])['collisionCount'];
      if (freshCount !== rawCount) {
        throw new Error(
          `found a stale collision count (${JSON.stringify(rawCount ?? null)}, expected ${JSON.stringify(freshCount ?? null)}) of DaemonSet "${name(ds)}" while processing; will retry until it is updated`,
        );
      }
      const status = obj(fresh['status']);
      status['collisionCount'] = num(freshCount) + 1;
      await this.#o.client.request('PUT', `${dsOf(ns)}/${encodeURIComponent(name(ds))}/status`, {
        body: { ...fresh, status },
        signal,
      });
      throw err;
    }
  }

  /** dedupCurHistories: keeps the highest revision, relabels pods of the others, deletes them. */
  async #dedupCurrent(
    current: readonly JsonObject[],
    pods: readonly JsonObject[],
    signal: AbortSignal,
  ): Promise<JsonObject> {
    if (current.length === 1) return current[0]!;
    const sorted = sortRevisions([...current]);
    const keep = sorted[sorted.length - 1]!;
    const keepHash = labels(keep)[controllerRevisionHashLabel] ?? '';
    for (const dup of sorted.slice(0, -1)) {
      for (const p of pods) {
        if (labels(p)[controllerRevisionHashLabel] === keepHash) continue;
        try {
          await this.#o.client.request('PATCH', podPath(p), {
            body: { metadata: { labels: { [controllerRevisionHashLabel]: keepHash } } },
            contentType: 'application/strategic-merge-patch+json',
            signal,
          });
        } catch (err) {
          if (!isCode(err, 404)) throw err;
        }
      }
      try {
        await this.#o.client.request('DELETE', revisionPath(dup), { signal });
      } catch (err) {
        if (!isCode(err, 404)) throw err;
      }
    }
    return keep;
  }

  /** updateDaemonSet: manage, then (expectations met) the rolling update, then history cleanup. */
  async #updateDaemonSet(
    key: string,
    ds: JsonObject,
    nodes: readonly JsonObject[],
    pods: readonly JsonObject[],
    hash: string,
    old: readonly JsonObject[],
    signal: AbortSignal,
  ): Promise<void> {
    const generation = templateGeneration(ds);
    const template = daemonPodTemplate(ds, generation, hash);
    const updated = (p: JsonObject): boolean => isPodUpdated(p, hash, generation);
    const byNode = nodeToDaemonPods(pods, false);
    const strategy = obj(obj(ds['spec'])['updateStrategy']);
    const rolling = str(strategy['type']) !== 'OnDelete';
    const ru = obj(strategy['rollingUpdate']);
    const surging = rolling && scaled(ru['maxSurge'] ?? 0, 1, true) > 0;
    const work = this.#manage(ds, nodes, template, byNode, hash, surging);
    await this.#syncNodes(key, ds, template, work, signal);
    if (rolling && this.#expectations.satisfied(key)) {
      const rollWork = this.#rollingUpdate(ds, nodes, template, byNode, updated);
      await this.#syncNodes(key, ds, template, rollWork, signal);
    }
    await this.#cleanupHistory(ds, old, pods, signal);
  }

  /** manage with podsShouldBeOnNode for every node, plus unscheduled pods of nodes that are gone. */
  #manage(
    ds: JsonObject,
    nodes: readonly JsonObject[],
    template: JsonObject,
    byNode: ReadonlyMap<string, JsonObject[]>,
    hash: string,
    surging: boolean,
  ): NodeWork {
    const create: string[] = [];
    const remove: JsonObject[] = [];
    const now = this.#clock.now();
    const minReady = num(obj(ds['spec'])['minReadySeconds']);
    for (const node of nodes) {
      const nodeName = name(node);
      const fit = nodeShouldRunDaemonPod(node, template);
      const onNode = byNode.get(nodeName) ?? [];
      const exists = onNode.length > 0;
      if (fit.shouldRun && !exists) {
        create.push(nodeName);
        continue;
      }
      if (!fit.shouldContinueRunning) {
        remove.push(...onNode.filter((p) => !deleting(p)));
        continue;
      }
      const running: JsonObject[] = [];
      for (const p of onNode) {
        if (deleting(p)) continue;
        const phase = podPhase(p);
        if (phase === 'Failed') {
          // Fighting a kubelet that rejects the pod: delete it at most once per backoff period.
          const backoffKey = `${uid(ds)}/${nodeName}`;
          if (this.#failedPodsBackoff.inBackoff(backoffKey, now)) {
            this.#delayed?.addAfter(keyFor(namespace(ds), name(ds)), this.#failedPodsBackoff.get(backoffKey));
            continue;
          }
          this.#failedPodsBackoff.next(backoffKey, now);
          this.#events.event(
            ds,
            'Warning',
            'FailedDaemonPod',
            `Found failed daemon pod ${namespace(p)}/${name(p)} on node ${nodeName}, will try to kill it`,
          );
          remove.push(p);
        } else if (phase === 'Succeeded') {
          // Daemon pods are not expected to succeed; delete it so a new one replaces it.
          remove.push(p);
        } else {
          running.push(p);
        }
      }
      running.sort(byAge);
      if (!surging) {
        remove.push(...running.slice(1));
        continue;
      }
      if (running.length <= 1) {
        if (running.length === 0 && fit.shouldRun) create.push(nodeName);
        continue;
      }
      // Surging: an old and a new pod may share the node until the new one is available.
      let oldestNew: JsonObject | undefined;
      let oldestOld: JsonObject | undefined;
      for (const p of running) {
        if (labels(p)[controllerRevisionHashLabel] === hash) {
          if (oldestNew === undefined) {
            oldestNew = p;
            continue;
          }
        } else if (oldestOld === undefined) {
          oldestOld = p;
          continue;
        }
        remove.push(p);
      }
      if (oldestNew !== undefined && oldestOld !== undefined) {
        if (!isPodReady(oldestOld) || isPodAvailable(oldestNew, minReady, now)) remove.push(oldestOld);
      }
    }
    // getUnscheduledPodsWithoutNode: pods pinned to a node that is gone and never scheduled.
    const known = new Set(nodes.map(name));
    for (const [nodeName, onNode] of byNode) {
      if (known.has(nodeName)) continue;
      remove.push(...onNode.filter((p) => str(obj(p['spec'])['nodeName']) === '' && !deleting(p)));
    }
    return { create, remove };
  }

  /** rollingUpdate: old pods replaced within maxUnavailable, or surged onto within maxSurge. */
  #rollingUpdate(
    ds: JsonObject,
    nodes: readonly JsonObject[],
    template: JsonObject,
    byNodeIn: ReadonlyMap<string, JsonObject[]>,
    updated: (p: JsonObject) => boolean,
  ): NodeWork {
    // updatedDesiredNodeCounts: nodes that should run a pod and have none count too.
    const byNode = new Map(byNodeIn);
    let desired = 0;
    for (const n of nodes) {
      if (!nodeShouldRunDaemonPod(n, template).shouldRun) continue;
      desired++;
      if (!byNode.has(name(n))) byNode.set(name(n), []);
    }
    const ru = obj(obj(obj(ds['spec'])['updateStrategy'])['rollingUpdate']);
    let maxSurge = scaled(ru['maxSurge'] ?? 0, desired, true);
    let maxUnavailable = scaled(ru['maxUnavailable'] ?? 1, desired, true);
    if (maxSurge < 0) maxSurge = 0;
    if (desired > 0 && maxUnavailable === 0 && maxSurge === 0) maxUnavailable = 1;
    const now = this.#clock.now();
    const minReady = num(obj(ds['spec'])['minReadySeconds']);
    const available = (p: JsonObject): boolean => isPodAvailable(p, minReady, now);
    const remove: JsonObject[] = [];
    if (maxSurge === 0) {
      let unavailable = 0;
      const allowed: JsonObject[] = [];
      const candidates: JsonObject[] = [];
      for (const onNode of byNode.values()) {
        const { newPod, oldPod, ok } = updatedPodsOnNode(onNode, updated);
        if (!ok || (oldPod === undefined) === (newPod === undefined)) {
          unavailable++;
        } else if (newPod !== undefined) {
          if (!available(newPod)) unavailable++;
        } else if (oldPod !== undefined) {
          if (!available(oldPod)) allowed.push(oldPod);
          else if (unavailable < maxUnavailable) candidates.push(oldPod);
        }
      }
      const remaining = Math.min(Math.max(0, maxUnavailable - unavailable), candidates.length);
      return { create: [], remove: [...allowed, ...candidates.slice(0, remaining)] };
    }
    let surge = 0;
    const allowedNodes: string[] = [];
    const candidateNodes: string[] = [];
    for (const [nodeName, onNode] of byNode) {
      const { newPod, oldPod, ok } = updatedPodsOnNode(onNode, updated);
      if (!ok) {
        surge++;
        continue;
      }
      if (oldPod === undefined) continue;
      if (newPod === undefined) {
        if (!available(oldPod)) allowedNodes.push(nodeName);
        else if (surge < maxSurge) candidateNodes.push(nodeName);
      } else if (!available(newPod)) {
        surge++;
      } else {
        remove.push(oldPod);
      }
    }
    const remaining = Math.min(Math.max(0, maxSurge - surge), candidateNodes.length);
    return { create: [...allowedNodes, ...candidateNodes.slice(0, remaining)], remove };
  }

  /** cleanupHistory: beyond revisionHistoryLimit, the oldest old revisions no pod's hash names. */
  async #cleanupHistory(
    ds: JsonObject,
    old: readonly JsonObject[],
    pods: readonly JsonObject[],
    signal: AbortSignal,
  ): Promise<void> {
    let toKill = old.length - num(obj(ds['spec'])['revisionHistoryLimit'], 10);
    if (toKill <= 0) return;
    const live = new Set<string>();
    for (const p of pods) {
      const h = labels(p)[controllerRevisionHashLabel];
      if (h !== undefined && h !== '') live.add(h);
    }
    for (const r of sortRevisions([...old])) {
      if (toKill <= 0) break;
      if (live.has(labels(r)[controllerRevisionHashLabel] ?? '')) continue;
      try {
        await this.#o.client.request('DELETE', revisionPath(r), { signal });
      } catch (err) {
        if (!isCode(err, 404)) throw err;
      }
      toKill--;
    }
  }

  /** syncNodes: at most burstReplicas creations (slow-start batches) and deletions. */
  async #syncNodes(
    key: string,
    ds: JsonObject,
    template: JsonObject,
    work: NodeWork,
    signal: AbortSignal,
  ): Promise<void> {
    const burst = this.#o.burstReplicas ?? 250;
    const create = work.create.slice(0, burst);
    const remove = work.remove.slice(0, burst);
    const removeKeys = remove.map((p) => keyFor(namespace(p), name(p)));
    this.#expectations.expect(key, create.length, removeKeys);
    if (create.length === 0 && remove.length === 0) return;
    const errors: unknown[] = [];
    const ns = namespace(ds);
    const tm = obj(template['metadata']);
    const spec = obj(template['spec']);
    const createOne = async (nodeName: string): Promise<void> => {
      const pod: JsonObject = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          ...cloneJson(tm),
          generateName: `${name(ds)}-`,
          namespace: ns,
          ownerReferences: [{ ...newControllerRef(ds, 'apps/v1', 'DaemonSet') }],
        },
        spec: { ...cloneJson(spec), affinity: pinToNode(spec['affinity'], nodeName) },
      };
      try {
        const made = await this.#o.client.request('POST', podsOf(ns), { body: pod, signal });
        this.#events.event(ds, 'Normal', 'SuccessfulCreate', `Created pod: ${name(made)}`);
      } catch (err) {
        if (hasStatusCause(err, 'NamespaceTerminating')) return;
        this.#expectations.creationObserved(key);
        if (!signal.aborted)
          this.#events.event(ds, 'Warning', 'FailedCreate', `Error creating: ${errorMessage(err)}`);
        errors.push(err);
      }
    };
    for (let pos = 0, batch = Math.min(create.length, 1); pos < create.length;) {
      const before = errors.length;
      await Promise.all(create.slice(pos, pos + batch).map(createOne));
      pos += batch;
      const skipped = create.length - pos;
      if (errors.length > before && skipped > 0) {
        // Never attempted: not expected; the next sync starts slowly again.
        this.#expectations.lowerCreations(key, skipped);
        break;
      }
      batch = Math.min(2 * batch, create.length - pos);
    }
    await Promise.all(
      remove.map(async (p, i) => {
        try {
          await this.#o.client.request('DELETE', podPath(p), { signal });
          this.#events.event(ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name(p)}`);
        } catch (err) {
          this.#expectations.deletionObserved(key, removeKeys[i]!);
          if (isCode(err, 404)) return;
          if (!signal.aborted)
            this.#events.event(ds, 'Warning', 'FailedDelete', `Error deleting: ${errorMessage(err)}`);
          errors.push(err);
        }
      }),
    );
    if (errors.length > 0) throw asError(errors[0]);
  }

  /** updateDaemonSetStatus (with terminal pods being deleted counted, as upstream). */
  async #updateStatus(
    ds: JsonObject,
    nodes: readonly JsonObject[],
    pods: readonly JsonObject[],
    hash: string,
    updateObservedGen: boolean,
    signal: AbortSignal,
  ): Promise<void> {
    const generation = templateGeneration(ds);
    const template = daemonPodTemplate(ds, generation, hash);
    const byNode = nodeToDaemonPods(pods, true);
    const now = this.#clock.now();
    const minReady = num(obj(ds['spec'])['minReadySeconds']);
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
          if (isPodAvailable(pod, minReady, now)) avail++;
        }
        if (isPodUpdated(pod, hash, generation)) updatedCount++;
      } else if (onNode.length > 0) misscheduled++;
    }
    const old = obj(ds['status']);
    const status: JsonObject = {
      currentNumberScheduled: current,
      numberMisscheduled: misscheduled,
      desiredNumberScheduled: desired,
      numberReady: ready,
    };
    // Only a sync that acted on this generation raises observedGeneration.
    const observed = updateObservedGen ? num(meta(ds)['generation']) : num(old['observedGeneration']);
    if (observed !== 0) status['observedGeneration'] = observed;
    if (updatedCount !== 0) status['updatedNumberScheduled'] = updatedCount;
    if (avail !== 0) status['numberAvailable'] = avail;
    if (desired - avail !== 0) status['numberUnavailable'] = desired - avail;
    if (old['collisionCount'] !== undefined) status['collisionCount'] = old['collisionCount'];
    if (old['conditions'] !== undefined) status['conditions'] = old['conditions'];
    if (minReady > 0 && ready !== avail)
      this.#delayed?.addAfter(keyFor(namespace(ds), name(ds)), minReady * 1000);
    if (jsonEqual(status, old)) return;
    let fresh = ds;
    for (let attempt = 0; ; attempt++) {
      try {
        const st = { ...status };
        if (!updateObservedGen && fresh['status'] !== undefined) {
          const o = obj(fresh['status'])['observedGeneration'];
          if (typeof o === 'number' && o !== 0) st['observedGeneration'] = o;
        }
        const fc = obj(fresh['status'])['collisionCount'];
        if (fc !== undefined) st['collisionCount'] = fc;
        await this.#o.client.request('PUT', `${dsOf(namespace(ds))}/${encodeURIComponent(name(ds))}/status`, {
          body: { ...fresh, status: st },
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
