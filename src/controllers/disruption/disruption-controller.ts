/**
 * The disruption controller (upstream v1.27 pkg/controller/disruption): keeps every
 * PodDisruptionBudget's status current so that pods/eviction can take disruptions from it.
 *
 * A sync lists the pods of the budget's namespace its selector matches (an empty selector matches
 * none), works out expectedPods and desiredHealthy (an integer minAvailable counts the matching
 * pods; a percentage minAvailable and any maxUnavailable scale against the sum of the pods'
 * controllers' spec.replicas — Deployment through its ReplicaSet, ReplicaSet, ReplicationController,
 * StatefulSet — rounding up), counts healthy pods (Ready, not being deleted, not in disruptedPods
 * within the 2 minute DeletionTimeout), drops disruptedPods entries of pods that went away or
 * overstayed, and writes currentHealthy, desiredHealthy, expectedPods, disruptionsAllowed
 * (currentHealthy - desiredHealthy, 0 while expectedPods is 0), observedGeneration and the
 * DisruptionAllowed condition (SufficientPods / InsufficientPods). A failed sync (e.g. a pod
 * without a known controller under a percentage) writes disruptionsAllowed 0 with reason
 * SyncFailed and the error as message (upstream's failSafe); a conflict is only retried.
 * Budgets are resynced every 30 s (upstream's informer resync) and rechecked when a disruptedPods
 * entry expires (a pod overstaying it gets a NotDeleted event).
 *
 * Pods owned by other controllers are scaled through their `/scale` subresource, found by
 * discovery as upstream's getScaleController does with its REST mapper and scale client (a kind
 * not served, or a resource without `/scale`, fails the sync; a scale of another uid is no match).
 *
 * Stale DisruptionTarget conditions (upstream v1.27 stalePodDisruptionTimeout): a pod not being
 * deleted and not terminal whose DisruptionTarget=True condition (any reason but
 * TerminationByKubelet) is older than 2 minutes gets it reset to False, so a pod an eviction
 * marked but did not delete (e.g. a failed delete) is not treated as disrupted forever.
 */
import { ApiError } from '../../client/api-error.js';
import { EventRecorder } from '../../client/event-recorder.js';
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import { keyFor } from '../../client/object-meta.js';
import type { RestClient } from '../../client/rest-client.js';
import type { SharedInformer } from '../../client/shared-informer.js';
import type { WorkQueue } from '../../client/workqueue.js';
import { asSelector } from '../../machinery/labels/metav1.js';
import type { JsonObject } from '../../util/json.js';
import { cloneJson, isJsonObject, jsonEqual } from '../../util/json.js';
import { DelayedAdds, realClock, rfc3339 } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { scaledValueFromIntOrPercent } from '../util/int-or-percent.js';
import { NamespaceIndex } from '../util/namespace-index.js';
import {
  arr,
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
  timeOf,
  uid,
} from '../util/objects.js';
import type { OwnerRef } from '../util/objects.js';
import { isPodReady } from '../util/pods.js';
import { controllerQueue, informersSynced, runWorkers } from '../util/workers.js';

export interface DisruptionControllerOptions {
  readonly client: RestClient;
  readonly informers: SharedInformerFactory;
  readonly onError?: (err: unknown) => void;
  /** Budgets synced in parallel. */
  readonly workers?: number;
  readonly clock?: Clock;
  /** Record events (NoPods, CalculateExpectedPodCountFailed, UnmanagedPods); default true. */
  readonly recordEvents?: boolean;
  /** Every budget is synced again this often (upstream's PDB informer resync, 30 s). */
  readonly resyncPeriodMs?: number;
  /** How long a DisruptionTarget condition may stand on a pod not being deleted (upstream 2 min). */
  readonly stalePodDisruptionTimeoutMs?: number;
}

/** Upstream DeletionTimeout: how long an evicted pod may take to be deleted. */
export const deletionTimeoutMs = 2 * 60 * 1000;

/** Upstream stalePodDisruptionTimeout. */
export const stalePodDisruptionTimeoutMs = 2 * 60 * 1000;

/** Queue keys of pods whose DisruptionTarget condition may be stale (upstream's second queue). */
const stalePrefix = 'stale-pod:';

const pdbPath = '/apis/policy/v1/poddisruptionbudgets';
const podsPath = '/api/v1/pods';
const rsPath = '/apis/apps/v1/replicasets';
const rcPath = '/api/v1/replicationcontrollers';
const deploymentsPath = '/apis/apps/v1/deployments';
const statefulSetsPath = '/apis/apps/v1/statefulsets';

const podsOf = (ns: string): string => `/api/v1/namespaces/${encodeURIComponent(ns)}/pods`;
const pdbsOf = (ns: string): string =>
  `/apis/policy/v1/namespaces/${encodeURIComponent(ns)}/poddisruptionbudgets`;

/** The pods' controllers' scale: their uid and spec.replicas. */
interface ControllerScale {
  readonly uid: string;
  readonly scale: number;
}

function groupOf(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

export class DisruptionController {
  readonly #o: DisruptionControllerOptions;
  readonly #clock: Clock;
  readonly #queue: WorkQueue;
  readonly #recorder: EventRecorder | undefined;
  #pdbs: SharedInformer | undefined;
  #pdbIndex: NamespaceIndex | undefined;
  #podIndex: NamespaceIndex | undefined;
  #rs: SharedInformer | undefined;
  #rc: SharedInformer | undefined;
  #deployments: SharedInformer | undefined;
  #statefulSets: SharedInformer | undefined;
  #delayed: DelayedAdds | undefined;

  constructor(o: DisruptionControllerOptions) {
    this.#o = o;
    this.#clock = o.clock ?? realClock;
    const onError = o.onError;
    this.#queue = controllerQueue('PodDisruptionBudget', onError, this.#clock);
    this.#recorder =
      o.recordEvents === false
        ? undefined
        : new EventRecorder({
            client: o.client,
            reportingController: 'controllermanager',
            reportingInstance: 'kube-controller-manager',
            clock: this.#clock,
            ...(onError !== undefined ? { onError } : {}),
          });
  }

  /** Runs until `signal` aborts (the informer factory is started by the caller). */
  async run(signal: AbortSignal): Promise<void> {
    const informers = this.#o.informers;
    const pdbs = informers.informerFor(pdbPath);
    const pods = informers.informerFor(podsPath);
    this.#pdbs = pdbs;
    this.#rs = informers.informerFor(rsPath);
    this.#rc = informers.informerFor(rcPath);
    this.#deployments = informers.informerFor(deploymentsPath);
    this.#statefulSets = informers.informerFor(statefulSetsPath);
    this.#pdbIndex = new NamespaceIndex(pdbs);
    this.#podIndex = new NamespaceIndex(pods);
    this.#pdbIndex.start();
    this.#podIndex.start();
    const delayed = new DelayedAdds(this.#clock, (k) => this.#queue.add(k));
    this.#delayed = delayed;
    const regs = [
      pdbs.addEventHandler({
        onAdd: (p) => this.#enqueue(p),
        onUpdate: (_o, p) => this.#enqueue(p),
        onDelete: (p) => this.#enqueue(p),
      }),
      pods.addEventHandler({
        onAdd: (p) => {
          this.#enqueueForPod(p);
          this.#checkStaleDisruption(p);
        },
        onUpdate: (old, p) => {
          this.#enqueueForPod(p);
          if (!jsonEqual(meta(old)['labels'] ?? {}, meta(p)['labels'] ?? {})) this.#enqueueForPod(old);
          this.#checkStaleDisruption(p);
        },
        onDelete: (p) => this.#enqueueForPod(p),
      }),
    ];
    const all = [pdbs, pods, this.#rs, this.#rc, this.#deployments, this.#statefulSets];
    const resync = new AbortController();
    const onAbort = (): void => resync.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      if (!(await informersSynced(all, signal))) return;
      await Promise.all([
        runWorkers(this.#queue, this.#o.workers ?? 2, (key) => this.#sync(key, signal), signal),
        this.#resyncLoop(resync.signal),
      ]);
    } finally {
      signal.removeEventListener('abort', onAbort);
      resync.abort();
      for (const r of regs) r.remove();
      this.#pdbIndex.stop();
      this.#podIndex.stop();
      delayed.cancelAll();
    }
  }

  async #resyncLoop(signal: AbortSignal): Promise<void> {
    const period = this.#o.resyncPeriodMs ?? 30_000;
    while (!signal.aborted) {
      await this.#clock.sleep(period, signal);
      if (signal.aborted) return;
      for (const p of this.#pdbs?.store.list() ?? []) this.#enqueue(p);
    }
  }

  #enqueue(pdb: JsonObject): void {
    this.#queue.add(keyFor(namespace(pdb), name(pdb)));
  }

  get #staleTimeout(): number {
    return this.#o.stalePodDisruptionTimeoutMs ?? stalePodDisruptionTimeoutMs;
  }

  /** enqueueStalePodDisruptionCleanup when the pod has a DisruptionTarget condition to watch. */
  #checkStaleDisruption(pod: JsonObject): void {
    const wait = staleDisruptionWait(pod, this.#clock.now(), this.#staleTimeout);
    if (wait === undefined) return;
    this.#delayed?.addAfter(`${stalePrefix}${keyFor(namespace(pod), name(pod))}`, wait);
  }

  /** syncStalePodDisruption: resets a stale DisruptionTarget condition to False. */
  async #syncStalePod(podKey: string, signal: AbortSignal): Promise<void> {
    const slash = podKey.indexOf('/');
    const ns = podKey.slice(0, slash);
    const podName = podKey.slice(slash + 1);
    const pod = this.#podIndex?.list(ns).find((p) => name(p) === podName);
    if (pod === undefined) return;
    const wait = staleDisruptionWait(pod, this.#clock.now(), this.#staleTimeout);
    if (wait === undefined) return;
    if (wait > 0) {
      this.#delayed?.addAfter(`${stalePrefix}${podKey}`, wait);
      return;
    }
    try {
      await this.#o.client.request('PATCH', `${podsOf(ns)}/${encodeURIComponent(podName)}/status`, {
        body: {
          metadata: { uid: uid(pod), resourceVersion: str(meta(pod)['resourceVersion']) },
          status: {
            conditions: [
              { type: 'DisruptionTarget', status: 'False', lastTransitionTime: rfc3339(this.#clock.now()) },
            ],
          },
        },
        contentType: 'application/strategic-merge-patch+json',
        signal,
      });
    } catch (err) {
      // Gone: nothing to reset. Changed meanwhile: the update event checks it again.
      if (err instanceof ApiError && (err.code === 404 || err.code === 409)) return;
      throw err;
    }
  }

  /** Every budget of the pod's namespace whose selector matches it. */
  #enqueueForPod(pod: JsonObject): void {
    for (const pdb of this.#pdbIndex?.list(namespace(pod)) ?? []) {
      const sel = asSelector(obj(obj(pdb['spec'])['selector']));
      if (sel.ok && !sel.empty && sel.matches(labels(pod))) this.#enqueue(pdb);
    }
  }

  async #sync(key: string, signal: AbortSignal): Promise<number | undefined> {
    if (key.startsWith(stalePrefix)) {
      await this.#syncStalePod(key.slice(stalePrefix.length), signal);
      return undefined;
    }
    const cached = this.#pdbs?.store.get(key);
    if (cached === undefined) return undefined;
    const pdb = cloneJson(cached);
    try {
      await this.#trySync(pdb, signal);
    } catch (err) {
      if (signal.aborted) throw err;
      if (err instanceof ApiError && (err.code === 409 || err.code === 404)) throw err;
      await this.#failSafe(pdb, err, signal);
      throw err;
    }
    return undefined;
  }

  async #trySync(pdb: JsonObject, signal: AbortSignal): Promise<void> {
    const pods = this.#podsFor(pdb);
    if (pods.length === 0) this.#recorder?.event(pdb, 'Normal', 'NoPods', 'Sync', 'No matching pods found');
    let counts: { expected: number; desired: number; unmanaged: string[] };
    try {
      counts = await this.#expectedPodCount(pdb, pods, signal);
    } catch (err) {
      this.#recorder?.event(
        pdb,
        'Warning',
        'CalculateExpectedPodCountFailed',
        'Sync',
        `Failed to calculate the number of expected pods: ${errorMessage(err)}`,
      );
      throw err;
    }
    if (counts.unmanaged.length > 0) {
      this.#recorder?.event(
        pdb,
        'Warning',
        'UnmanagedPods',
        'Sync',
        `Pods selected by this PodDisruptionBudget (selector: ${selectorString(pdb)}) were found to be unmanaged. ` +
          'As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. ' +
          'To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.',
      );
    }
    const now = this.#clock.now();
    const { disrupted, recheckAt } = buildDisruptedPodMap(pods, pdb, now, (pod) =>
      this.#recorder?.event(
        { apiVersion: 'v1', kind: 'Pod', ...pod },
        'Warning',
        'NotDeleted',
        'Sync',
        `Pod was expected by PDB ${namespace(pdb)}/${name(pdb)} to be deleted but it wasn't`,
      ),
    );
    const healthy = countHealthyPods(pods, disrupted, now);
    await this.#updateStatus(pdb, healthy, counts.desired, counts.expected, disrupted, signal);
    if (recheckAt !== undefined) this.#delayed?.addAfter(keyFor(namespace(pdb), name(pdb)), recheckAt - now);
  }

  #podsFor(pdb: JsonObject): JsonObject[] {
    const sel = asSelector(obj(obj(pdb['spec'])['selector']));
    if (!sel.ok) throw new Error('invalid selector');
    if (sel.empty) return [];
    return (this.#podIndex?.list(namespace(pdb)) ?? []).filter((p) => sel.matches(labels(p)));
  }

  /** Upstream getExpectedPodCount. */
  async #expectedPodCount(
    pdb: JsonObject,
    pods: readonly JsonObject[],
    signal: AbortSignal,
  ): Promise<{ expected: number; desired: number; unmanaged: string[] }> {
    const spec = obj(pdb['spec']);
    const maxUnavailable = spec['maxUnavailable'];
    const minAvailable = spec['minAvailable'];
    if (maxUnavailable !== undefined && maxUnavailable !== null) {
      const { expected, unmanaged } = await this.#expectedScale(pods, signal);
      const max = scaledValueFromIntOrPercent(maxUnavailable, expected, true);
      return { expected, desired: Math.max(0, expected - max), unmanaged };
    }
    if (typeof minAvailable === 'number')
      return { expected: pods.length, desired: minAvailable, unmanaged: [] };
    if (typeof minAvailable === 'string') {
      const { expected, unmanaged } = await this.#expectedScale(pods, signal);
      return { expected, desired: scaledValueFromIntOrPercent(minAvailable, expected, true), unmanaged };
    }
    return { expected: 0, desired: 0, unmanaged: [] };
  }

  /** Upstream getExpectedScale: the sum of the scale of every controller of the pods. */
  async #expectedScale(
    pods: readonly JsonObject[],
    signal: AbortSignal,
  ): Promise<{ expected: number; unmanaged: string[] }> {
    const scales = new Map<string, number>();
    const unmanaged: string[] = [];
    for (const pod of pods) {
      const ref = controllerOf(pod);
      if (ref === undefined) {
        unmanaged.push(name(pod));
        continue;
      }
      if (scales.has(ref.uid)) continue;
      const found =
        this.#controllerScale(ref, namespace(pod)) ??
        (await this.#scaleController(ref, namespace(pod), signal));
      if (found === undefined) throw new Error(`found no controllers for pod "${name(pod)}"`);
      scales.set(found.uid, found.scale);
    }
    let expected = 0;
    for (const s of scales.values()) expected += s;
    return { expected, unmanaged };
  }

  /** The finders: ReplicaSet (not owned by a Deployment), Deployment, ReplicationController, StatefulSet. */
  #controllerScale(ref: OwnerRef, ns: string): ControllerScale | undefined {
    const group = groupOf(ref.apiVersion);
    const get = (i: SharedInformer | undefined, n: string): JsonObject | undefined =>
      i?.store.get(keyFor(ns, n));
    const replicas = (o: JsonObject): number => num(obj(o['spec'])['replicas'], 1);
    if (ref.kind === 'ReplicaSet' && (group === 'apps' || group === 'extensions')) {
      const rs = get(this.#rs, ref.name);
      if (rs === undefined || uid(rs) !== ref.uid) return undefined;
      const owner = controllerOf(rs);
      if (owner !== undefined && owner.kind === 'Deployment') {
        // getPodDeployment: the Deployment's scale.
        if (groupOf(owner.apiVersion) !== 'apps' && groupOf(owner.apiVersion) !== 'extensions')
          return undefined;
        const d = get(this.#deployments, owner.name);
        if (d === undefined || uid(d) !== owner.uid) return undefined;
        return { uid: uid(d), scale: replicas(d) };
      }
      return { uid: uid(rs), scale: replicas(rs) };
    }
    if (ref.kind === 'ReplicationController' && group === '') {
      const rc = get(this.#rc, ref.name);
      return rc !== undefined && uid(rc) === ref.uid ? { uid: uid(rc), scale: replicas(rc) } : undefined;
    }
    if (ref.kind === 'StatefulSet' && group === 'apps') {
      const ss = get(this.#statefulSets, ref.name);
      return ss !== undefined && uid(ss) === ref.uid ? { uid: uid(ss), scale: replicas(ss) } : undefined;
    }
    return undefined;
  }

  /**
   * getScaleController: any other controller through its `/scale` subresource. The resource is
   * found by discovery (the REST mapping); a kind not served, or a 404 from a resource that has no
   * `/scale`, is an error; a 404 otherwise, or a scale of another uid, is no match.
   */
  async #scaleController(
    ref: OwnerRef,
    ns: string,
    signal: AbortSignal,
  ): Promise<ControllerScale | undefined> {
    const slash = ref.apiVersion.indexOf('/');
    const group = slash < 0 ? '' : ref.apiVersion.slice(0, slash);
    const version = slash < 0 ? ref.apiVersion : ref.apiVersion.slice(slash + 1);
    const base = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
    const noMatch = (): Error =>
      new Error(
        `no matches for kind "${ref.kind}" in version "${group === '' ? version : `${group}/${version}`}"`,
      );
    let list: JsonObject;
    try {
      list = await this.#o.client.request('GET', base, { signal });
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) throw noMatch();
      throw err;
    }
    const resources = arr(list['resources']).filter(isJsonObject);
    const resource = resources.find((r) => r['kind'] === ref.kind && !str(r['name']).includes('/'));
    if (resource === undefined) throw noMatch();
    const plural = str(resource['name']);
    const path =
      resource['namespaced'] === true
        ? `${base}/namespaces/${encodeURIComponent(ns)}/${plural}`
        : `${base}/${plural}`;
    let scale: JsonObject;
    try {
      scale = await this.#o.client.request('GET', `${path}/${encodeURIComponent(ref.name)}/scale`, {
        signal,
      });
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) throw err;
      if (!resources.some((r) => r['name'] === `${plural}/scale`)) {
        throw new Error(
          `${group === '' ? plural : `${plural}.${group}`} does not implement the scale subresource`,
        );
      }
      return undefined;
    }
    if (uid(scale) !== ref.uid) return undefined;
    return { uid: uid(scale), scale: num(obj(scale['spec'])['replicas']) };
  }

  /** Upstream updatePdbStatus: writes /status unless everything is already so. */
  async #updateStatus(
    pdb: JsonObject,
    currentHealthy: number,
    desiredHealthy: number,
    expectedPods: number,
    disruptedPods: JsonObject,
    signal: AbortSignal,
  ): Promise<void> {
    let allowed = currentHealthy - desiredHealthy;
    if (expectedPods <= 0 || allowed <= 0) allowed = 0;
    const old = obj(pdb['status']);
    const gen = num(meta(pdb)['generation']);
    if (
      num(old['currentHealthy']) === currentHealthy &&
      num(old['desiredHealthy']) === desiredHealthy &&
      num(old['expectedPods']) === expectedPods &&
      num(old['disruptionsAllowed']) === allowed &&
      jsonEqual(obj(old['disruptedPods']), disruptedPods) &&
      num(old['observedGeneration']) === gen &&
      conditionsUpToDate(pdb)
    ) {
      return;
    }
    const status: JsonObject = {
      ...(Object.keys(disruptedPods).length > 0 ? { disruptedPods } : {}),
      disruptionsAllowed: allowed,
      currentHealthy,
      desiredHealthy,
      expectedPods,
      observedGeneration: gen,
    };
    const conditions = arr(old['conditions'])
      .filter(isJsonObject)
      .map((c) => cloneJson(c));
    setStatusCondition(
      conditions,
      allowed > 0
        ? {
            type: 'DisruptionAllowed',
            status: 'True',
            reason: 'SufficientPods',
            message: '',
            observedGeneration: gen,
          }
        : {
            type: 'DisruptionAllowed',
            status: 'False',
            reason: 'InsufficientPods',
            message: '',
            observedGeneration: gen,
          },
      this.#clock.now(),
    );
    status['conditions'] = conditions;
    await this.#putStatus({ ...pdb, status }, signal);
  }

  /** Upstream failSafe: no disruptions while the budget cannot be computed. */
  async #failSafe(pdb: JsonObject, err: unknown, signal: AbortSignal): Promise<void> {
    const status = cloneJson(obj(pdb['status']));
    status['disruptionsAllowed'] = 0;
    const conditions = arr(status['conditions']).filter(isJsonObject);
    setStatusCondition(
      conditions,
      {
        type: 'DisruptionAllowed',
        status: 'False',
        reason: 'SyncFailed',
        message: errorMessage(err),
        observedGeneration: num(status['observedGeneration']),
      },
      this.#clock.now(),
    );
    status['conditions'] = conditions;
    try {
      await this.#putStatus({ ...pdb, status }, signal);
    } catch (e) {
      if (signal.aborted) return;
      this.#o.onError?.(e);
    }
  }

  async #putStatus(pdb: JsonObject, signal: AbortSignal): Promise<void> {
    await this.#o.client.request('PUT', `${pdbsOf(namespace(pdb))}/${encodeURIComponent(name(pdb))}/status`, {
      body: pdb,
      signal,
    });
  }
}

/** metav1.FormatLabelSelector-ish text of the budget's selector, for the UnmanagedPods event. */
function selectorString(pdb: JsonObject): string {
  const sel = obj(obj(pdb['spec'])['selector']);
  const parts: string[] = [];
  for (const [k, v] of Object.entries(obj(sel['matchLabels']))) parts.push(`${k}=${str(v)}`);
  for (const e of arr(sel['matchExpressions']).filter(isJsonObject)) {
    const values = arr(e['values']).map((v) => str(v));
    const op = str(e['operator']);
    if (op === 'Exists') parts.push(str(e['key']));
    else if (op === 'DoesNotExist') parts.push(`!${str(e['key'])}`);
    else parts.push(`${str(e['key'])} ${op === 'In' ? 'in' : 'notin'} (${values.join(',')})`);
  }
  return parts.length === 0 ? '<none>' : parts.join(',');
}

/** Upstream buildDisruptedPodMap: entries of pods still there and not overdue; the next expiry. */
export function buildDisruptedPodMap(
  pods: readonly JsonObject[],
  pdb: JsonObject,
  now: number,
  onOverdue?: (pod: JsonObject) => void,
): { disrupted: JsonObject; recheckAt: number | undefined } {
  const existing = obj(obj(pdb['status'])['disruptedPods']);
  const disrupted: JsonObject = {};
  let recheckAt: number | undefined;
  for (const pod of pods) {
    if (deleting(pod)) continue;
    const raw = existing[name(pod)];
    const at = timeOf(raw);
    if (raw === undefined || at === undefined) continue;
    const expected = at + deletionTimeoutMs;
    if (expected < now) {
      // Overdue: counted as healthy again.
      onOverdue?.(pod);
      continue;
    }
    recheckAt = recheckAt === undefined ? expected : Math.min(recheckAt, expected);
    disrupted[name(pod)] = raw;
  }
  return { disrupted, recheckAt };
}

/**
 * nonTerminatingPodHasStaleDisruptionCondition: undefined when the pod has no DisruptionTarget
 * condition to clean up (being deleted, terminal, none True, or set by the kubelet), else how
 * long until it is stale (0: now).
 */
export function staleDisruptionWait(pod: JsonObject, now: number, timeoutMs: number): number | undefined {
  if (deleting(pod)) return undefined;
  const status = obj(pod['status']);
  const phase = str(status['phase']);
  if (phase === 'Succeeded' || phase === 'Failed') return undefined;
  const cond = arr(status['conditions'])
    .filter(isJsonObject)
    .find((c) => c['type'] === 'DisruptionTarget');
  if (cond === undefined || cond['status'] !== 'True' || cond['reason'] === 'TerminationByKubelet')
    return undefined;
  const since = timeOf(cond['lastTransitionTime']) ?? 0;
  return Math.max(0, timeoutMs - (now - since));
}

/** Upstream countHealthyPods. */
export function countHealthyPods(pods: readonly JsonObject[], disrupted: JsonObject, now: number): number {
  let healthy = 0;
  for (const pod of pods) {
    if (deleting(pod)) continue;
    const at = timeOf(disrupted[name(pod)]);
    if (at !== undefined && at + deletionTimeoutMs > now) continue;
    if (isPodReady(pod)) healthy++;
  }
  return healthy;
}

/** pdbhelper.ConditionsAreUpToDate. */
function conditionsUpToDate(pdb: JsonObject): boolean {
  const status = obj(pdb['status']);
  const cond = arr(status['conditions'])
    .filter(isJsonObject)
    .find((c) => c['type'] === 'DisruptionAllowed');
  if (cond === undefined) return false;
  if (num(status['observedGeneration']) !== num(meta(pdb)['generation'])) return false;
  if (num(status['disruptionsAllowed']) > 0)
    return cond['status'] === 'True' && cond['reason'] === 'SufficientPods';
  return cond['status'] === 'False' && cond['reason'] === 'InsufficientPods';
}

/** apimeta.SetStatusCondition: lastTransitionTime moves only when the status changes. */
function setStatusCondition(conditions: JsonObject[], next: JsonObject, now: number): void {
  const i = conditions.findIndex((c) => c['type'] === next['type']);
  const existing = conditions[i];
  const ltt =
    existing === undefined || existing['status'] !== next['status']
      ? rfc3339(now)
      : (existing['lastTransitionTime'] ?? rfc3339(now));
  // metav1.Condition's field order.
  const cond: JsonObject = {
    type: next['type'] ?? '',
    status: next['status'] ?? '',
    observedGeneration: next['observedGeneration'] ?? 0,
    lastTransitionTime: ltt,
    reason: next['reason'] ?? '',
    message: next['message'] ?? '',
  };
  if (existing === undefined) conditions.push(cond);
  else conditions[i] = cond;
}
