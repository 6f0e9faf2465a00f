/**
 * The resource quota controller (kube-controller-manager v1.27's pkg/controller/resourcequota):
 * keeps each ResourceQuota's `status.hard` (spec.hard) and `status.used` (usage.ts) current from
 * informers over the counted kinds, re-evaluating a namespace's quotas whenever one of its counted
 * objects changes, and all quotas every resync period (upstream --resource-quota-sync-period, 5m).
 */
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import { namespaceIndex } from '../../client/informer-store.js';
import { keyFor } from '../../client/object-meta.js';
import type { RestClient } from '../../client/rest-client.js';
import type { SharedInformer } from '../../client/shared-informer.js';
import type { WorkQueue } from '../../client/workqueue.js';
import { realClock } from '../../util/clock.js';
import type { Clock } from '../../util/clock.js';
import { isJsonObject, jsonEqual } from '../../util/json.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { name, namespace, obj } from '../util/objects.js';
import { canonicalHard, countedCollection, podCounts, quotaUsage, splitCollection } from './usage.js';
import { discoverResources } from '../../client/discovery.js';
import type { ServedResource } from '../../client/discovery.js';
import { controllerQueue } from '../util/workers.js';
import { resourceListOf } from '../../apis/core/v1/quota/resource-list.js';
import { compareQuantity } from '../../machinery/quantity/quantity.js';

export interface ResourceQuotaControllerOptions {
  readonly client: Pick<RestClient, 'request'>;
  readonly informers: SharedInformerFactory;
  readonly onError?: (err: unknown) => void;
  /** Upstream --concurrent-resource-quota-syncs (5). */
  readonly workers?: number;
  /** Upstream --resource-quota-sync-period (5 minutes). */
  readonly resyncPeriodMs?: number;
  readonly clock?: Clock;
}

/** `count/<resource>[.<group>]` collections counted, by their cluster-wide list path. */
const countPaths: Readonly<Record<string, string>> = {
  pods: '/api/v1/pods',
  services: '/api/v1/services',
  configmaps: '/api/v1/configmaps',
  secrets: '/api/v1/secrets',
  persistentvolumeclaims: '/api/v1/persistentvolumeclaims',
  replicationcontrollers: '/api/v1/replicationcontrollers',
  resourcequotas: '/api/v1/resourcequotas',
  'deployments.apps': '/apis/apps/v1/deployments',
  'replicasets.apps': '/apis/apps/v1/replicasets',
  'statefulsets.apps': '/apis/apps/v1/statefulsets',
  'daemonsets.apps': '/apis/apps/v1/daemonsets',
  'controllerrevisions.apps': '/apis/apps/v1/controllerrevisions',
  'jobs.batch': '/apis/batch/v1/jobs',
  'cronjobs.batch': '/apis/batch/v1/cronjobs',
  'horizontalpodautoscalers.autoscaling': '/apis/autoscaling/v2/horizontalpodautoscalers',
  'ingresses.networking.k8s.io': '/apis/networking.k8s.io/v1/ingresses',
  'networkpolicies.networking.k8s.io': '/apis/networking.k8s.io/v1/networkpolicies',
  'poddisruptionbudgets.policy': '/apis/policy/v1/poddisruptionbudgets',
  'leases.coordination.k8s.io': '/apis/coordination.k8s.io/v1/leases',
  'roles.rbac.authorization.k8s.io': '/apis/rbac.authorization.k8s.io/v1/roles',
  'rolebindings.rbac.authorization.k8s.io': '/apis/rbac.authorization.k8s.io/v1/rolebindings',
  serviceaccounts: '/api/v1/serviceaccounts',
  endpoints: '/api/v1/endpoints',
  events: '/api/v1/events',
  limitranges: '/api/v1/limitranges',
  podtemplates: '/api/v1/podtemplates',
};

export class ResourceQuotaController {
  readonly #o: ResourceQuotaControllerOptions;
  readonly #clock: Clock;
  readonly #queue: WorkQueue;
  readonly #quotas: SharedInformer;
  readonly #watched = new Map<string, SharedInformer>();
  readonly #discovering = new Set<string>();
  #discovery: { at: number; resources: Promise<ServedResource[]> } | undefined;
  /** The cluster-wide list path of each watched collection. */
  readonly #paths = new Map<string, string>();

  constructor(o: ResourceQuotaControllerOptions) {
    this.#o = o;
    this.#clock = o.clock ?? realClock;
    this.#queue = controllerQueue('resourcequota', o.onError, this.#clock);
    this.#quotas = o.informers.informerFor('/api/v1/resourcequotas');
    // Status changes are not followed: quota admission charges status.used with every admitted
    // write, and recalculating on those from informers that have not seen the write yet would hand
    // the charge back (upstream's updateQuota looks at spec.hard only).
    this.#quotas.addEventHandler({
      onAdd: (q) => this.#enqueueQuota(q),
      onUpdate: (old, q) => {
        if (!jsonEqual(obj(old['spec'])['hard'] ?? {}, obj(q['spec'])['hard'] ?? {})) this.#enqueueQuota(q);
      },
    });
    // Pods, Services and PVCs are always needed; other collections when a quota names them.
    for (const collection of ['pods', 'services', 'persistentvolumeclaims']) this.#watch(collection);
  }

  #enqueueQuota(q: JsonObject): void {
    for (const collection of collectionsOf(q)) this.#watch(collection);
    this.#queue.add(keyFor(namespace(q), name(q)));
  }

  /** Starts (once) the informer of a counted collection; its changes re-evaluate the namespace. */
  #watch(collection: string): void {
    if (this.#watched.has(collection)) return;
    const path = countPaths[collection];
    if (path === undefined) {
      void this.#watchDiscovered(collection);
      return;
    }
    this.#startInformer(collection, path);
  }

  /**
   * A collection outside the built-in table (`count/widgets.example.com`): found in discovery
   * (read at most every 30 s), then watched like the others; its quotas are synced again once
   * it is. Until the resource is served it counts as zero.
   */
  async #watchDiscovered(collection: string): Promise<void> {
    if (this.#discovering.has(collection)) return;
    this.#discovering.add(collection);
    try {
      const now = this.#clock.now();
      if (this.#discovery === undefined || now - this.#discovery.at > 30_000) {
        this.#discovery = { at: now, resources: discoverResources(this.#o.client) };
      }
      const { group, resource } = splitCollection(collection);
      const found = (await this.#discovery.resources).find(
        (r) => r.group === group && r.resource === resource && r.namespaced && r.verbs.includes('watch'),
      );
      if (found === undefined || this.#watched.has(collection)) return;
      const base = group === '' ? `/api/${found.version}` : `/apis/${group}/${found.version}`;
      this.#startInformer(collection, `${base}/${resource}`);
      for (const q of this.#quotas.store.list()) {
        if (collectionsOf(q).includes(collection)) this.#queue.add(keyFor(namespace(q), name(q)));
      }
    } catch (err) {
      this.#discovery = undefined;
      this.#o.onError?.(err);
    } finally {
      this.#discovering.delete(collection);
    }
  }

  #startInformer(collection: string, path: string): void {
    const informer = this.#o.informers.informerFor(path);
    this.#watched.set(collection, informer);
    this.#paths.set(collection, path);
    // Creates are charged by admission; the controller hands usage back when objects go away or
    // stop counting (upstream's replenishment: deletes, pods turning terminal, a Service's type or
    // a claim's size changing), and recalculates everything every resync period.
    const touch = (o: JsonObject): void => this.#enqueueNamespace(namespace(o));
    informer.addEventHandler({
      onDelete: touch,
      onUpdate: (a, b) => {
        if (releasesUsage(collection, a, b, this.#clock.now())) touch(b);
      },
    });
  }

  #enqueueNamespace(ns: string): void {
    if (!this.#quotas.hasSynced()) return;
    for (const q of this.#quotas.store.byIndex(namespaceIndex, ns)) this.#queue.add(keyFor(ns, name(q)));
  }

  async run(signal: AbortSignal): Promise<void> {
    const workers = Array.from({ length: this.#o.workers ?? 5 }, () =>
      this.#queue.run((key) => this.#sync(key, signal), signal),
    );
    const period = this.#o.resyncPeriodMs ?? 5 * 60_000;
    const resync = (async () => {
      while (!signal.aborted) {
        await this.#clock.sleep(period, signal);
        for (const q of this.#quotas.store.list()) this.#queue.add(keyFor(namespace(q), name(q)));
      }
    })();
    await Promise.all([...workers, resync]);
  }

  /** The counted collections whose informers have not seen storage up to `quota`'s revision. */
  #laggingFor(quota: JsonObject): string[] {
    const text = obj(quota['metadata'])['resourceVersion'];
    const rv = typeof text === 'string' && /^\d+$/.test(text) ? BigInt(text) : 0n;
    const out: string[] = [];
    for (const [collection, informer] of this.#watched) {
      const at = informer.lastResourceVersion();
      if (!/^\d+$/.test(at) || BigInt(at) < rv) out.push(collection);
    }
    return out;
  }

  /** A namespace's objects of a counted collection, read from the server (a consistent list). */
  async #listFresh(collection: string, ns: string, signal: AbortSignal): Promise<JsonObject[]> {
    const path = this.#paths.get(collection) ?? '';
    const cut = path.lastIndexOf('/');
    const namespaced = `${path.slice(0, cut)}/namespaces/${encodeURIComponent(ns)}${path.slice(cut)}`;
    const list = await this.#o.client.request('GET', namespaced, { signal });
    return Array.isArray(list['items']) ? (list['items'] as JsonObject[]) : [];
  }

  async #sync(key: string, signal: AbortSignal): Promise<undefined> {
    const quota = this.#quotas.store.get(key);
    if (quota === undefined) return undefined;
    for (const collection of collectionsOf(quota)) this.#watch(collection);
    for (const informer of this.#watched.values()) if (!informer.hasSynced()) await informer.synced;
    if (signal.aborted) return undefined;
    const ns = namespace(quota);
    const fresh = new Map<string, JsonObject[]>();
    const list = (collection: string): JsonObject[] =>
      fresh.get(collection) ?? this.#watched.get(collection)?.store.byIndex(namespaceIndex, ns) ?? [];
    const usage = (): Record<string, string> => {
      const counts = new Map<string, number>();
      for (const collection of this.#watched.keys()) counts.set(collection, list(collection).length);
      return quotaUsage(
        quota,
        {
          pods: list('pods'),
          services: list('services'),
          persistentvolumeclaims: list('persistentvolumeclaims'),
          counts,
        },
        this.#clock.now(),
      );
    };
    const current = obj(quota['status']);
    let used = usage();
    // Admission charges status.used before the object it admitted is stored, so an informer that
    // has not seen every write up to the quota's own resourceVersion counts less than was
    // charged; writing that lower usage would hand the charge back and let admission take more
    // than `hard`. A lowering is counted again from the server for the lagging collections.
    if (lowers(current['used'], used)) {
      const lagging = this.#laggingFor(quota);
      if (lagging.length > 0) {
        for (const collection of lagging)
          fresh.set(collection, await this.#listFresh(collection, ns, signal));
        used = usage();
      }
    }
    const status = { hard: canonicalHard(quota), used };
    if (jsonEqual(current['hard'] ?? {}, status.hard) && jsonEqual(current['used'] ?? {}, status.used)) {
      return undefined;
    }
    await this.#o.client.request(
      'PUT',
      `/api/v1/namespaces/${encodeURIComponent(ns)}/resourcequotas/${encodeURIComponent(name(quota))}/status`,
      { body: { ...quota, status }, signal },
    );
    return undefined;
  }
}

/** Whether `next` has some resource below what `current` (a status.used) says. */
function lowers(current: JsonValue | undefined, next: Record<string, string>): boolean {
  const was = resourceListOf(current);
  for (const [k, q] of resourceListOf(next)) {
    const before = was.get(k);
    if (before !== undefined && compareQuantity(q, before) < 0) return true;
  }
  return false;
}

/** The count collections a quota names (`count/x` and the legacy names). */
function collectionsOf(q: JsonObject): string[] {
  const hard = obj(obj(q['spec'])['hard']);
  const out: string[] = [];
  for (const k of Object.keys(isJsonObject(hard) ? hard : {})) {
    const c = countedCollection(k);
    if (c !== undefined) out.push(c);
  }
  return out;
}

/** Whether an update changes what a quota counts (upstream's resource quota monitor's update filter). */
function releasesUsage(collection: string, old: JsonObject, cur: JsonObject, nowMs: number): boolean {
  switch (collection) {
    case 'pods':
      return podCounts(old, nowMs) && !podCounts(cur, nowMs);
    case 'services': {
      const type = (s: JsonObject): unknown => obj(s['spec'])['type'] ?? 'ClusterIP';
      return type(old) !== type(cur);
    }
    case 'persistentvolumeclaims': {
      const storage = (c: JsonObject): JsonValue =>
        obj(obj(obj(c['spec'])['resources'])['requests'])['storage'] ?? null;
      return !jsonEqual(storage(old), storage(cur));
    }
    default:
      return false;
  }
}
