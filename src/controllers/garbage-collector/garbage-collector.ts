/**
 * The garbage collector (kube-controller-manager v1.27's pkg/controller/garbagecollector, the
 * spec): monitors every resource discovery lists as deletable, listable and watchable (metadata
 * only), keeps the uid graph of owners and dependents (graph.ts), and
 * - deletes objects whose owners are all gone (background deletion, dangling references: an
 *   owner not found by a live GET, or found with another uid, is absent),
 * - for an owner being deleted with `foregroundDeletion`: deletes its dependents (in the
 *   foreground when they have dependents themselves) and removes the finalizer once no
 *   dependent with blockOwnerDeletion=true is left,
 * - for an owner being deleted with `orphan`: removes its ownerReference from every dependent,
 *   then the finalizer,
 * - breaks would-be cycles of foreground deletions by unblocking ownerReferences,
 * - rediscovers resources periodically, so resources added later are collected too.
 * It reaches the cluster only through the client.
 */
import { setMaxListeners } from 'node:events';
import { ApiError } from '../../client/api-error.js';
import { EventNamer } from '../../client/event-writes.js';
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import type { RestClient } from '../../client/rest-client.js';
import { SharedInformer, stripManagedFields } from '../../client/shared-informer.js';
import type { HandlerRegistration } from '../../client/shared-informer.js';
import type { WatchListMode } from '../../client/watch-list.js';
import { WorkQueue } from '../../client/workqueue.js';
import { realClock } from '../../util/clock.js';
import type { Clock } from '../../util/clock.js';
import type { JsonObject } from '../../util/json.js';
import { foregroundFinalizer, GraphBuilder, orphanFinalizer, referenceString } from './graph.js';
import type { GraphEventType, GraphNode, ObjectReference } from './graph.js';
import { metadataAccept, metadataListWatchClient, metadataOf, ownerReferenceJson } from './metadata.js';
import type { ObjectMetadata, OwnerReference } from './metadata.js';
import {
  apiVersionOf,
  collectionPathOf,
  defaultIgnoredResources,
  deletableResources,
  discover,
  RestMapper,
  resourceKey,
} from './rest-mapper.js';
import type { ApiResource } from './rest-mapper.js';

export type RestClientLike = Pick<RestClient, 'request' | 'watch'>;

/** One event the collector reports (upstream records them as core/v1 Events). */
export interface GarbageCollectorEvent {
  readonly involvedObject: ObjectReference;
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
}

export interface GarbageCollectorOptions {
  readonly client: RestClientLike;
  /**
   * Where the monitors' informers come from. Its client must ask for metadata only (build it
   * with `metadataListWatchClient`); informers of resources that disappear keep running there.
   * Default: the collector's own metadata-only informers, stopped when their resource goes.
   */
  readonly informers?: SharedInformerFactory;
  readonly onError?: (err: unknown) => void;
  /** How its own monitors' informers sync (SharedInformer's option; default: theirs). */
  readonly useWatchList?: WatchListMode;
  /** Workers per queue (attemptToDelete, attemptToOrphan); upstream's default is 20. */
  readonly workers?: number;
  /** How often discovery is read again (upstream: 30 s). */
  readonly resyncPeriodMs?: number;
  /** How long to wait for the first sync of every monitor before collecting anyway (60 s). */
  readonly initialSyncTimeoutMs?: number;
  /** Resources never monitored (default: core and events.k8s.io events). */
  readonly ignoredResources?: readonly { readonly group: string; readonly resource: string }[];
  /** Where events go (default: a core/v1 Event from `garbage-collector-controller`). */
  readonly recordEvent?: (event: GarbageCollectorEvent) => void;
  /**
   * What rediscovery, the initial sync timeout, retries and its own informers wait on, and event
   * timestamps read (default: the real clock).
   */
  readonly clock?: Clock;
}

/** A worker's verdict: look again later, with backoff (not an error worth reporting). */
class Requeue extends Error {}

/** The item is gone: a virtual delete event was produced (upstream enqueuedVirtualDeleteEventErr). */
class VirtualDeleteEnqueued extends Error {}

/** A cluster-scoped object names a namespaced owner: retrying cannot help. */
class NamespacedOwnerOfClusterScopedObject extends Error {}

function isStatus(err: unknown, code: number): boolean {
  return err instanceof ApiError && err.code === code;
}

interface Monitor {
  readonly resource: ApiResource;
  readonly informer: SharedInformer;
  readonly registration: HandlerRegistration;
  /** Stops an informer of our own (undefined for the factory's). */
  readonly stop: AbortController | undefined;
  readonly run: Promise<void> | undefined;
}

export class GarbageCollector {
  readonly #client: RestClientLike;
  readonly #informers: SharedInformerFactory | undefined;
  readonly #onError: (err: unknown) => void;
  readonly #workers: number;
  readonly #resyncPeriodMs: number;
  readonly #initialSyncTimeoutMs: number;
  readonly #ignored: readonly { readonly group: string; readonly resource: string }[];
  readonly #recordEvent: (event: GarbageCollectorEvent) => void;
  readonly #clock: Clock;
  readonly #useWatchList: WatchListMode | undefined;
  readonly #eventNames = new EventNamer();
  readonly #graph: GraphBuilder;
  readonly #deleteQueue: WorkQueue;
  readonly #orphanQueue: WorkQueue;
  readonly #monitors = new Map<string, Monitor>();
  #mapper = new RestMapper([]);
  #signal: AbortSignal | undefined;

  constructor(o: GarbageCollectorOptions) {
    this.#client = o.client;
    this.#informers = o.informers;
    this.#onError = o.onError ?? (() => undefined);
    this.#workers = Math.max(1, o.workers ?? 20);
    this.#resyncPeriodMs = o.resyncPeriodMs ?? 30_000;
    this.#initialSyncTimeoutMs = o.initialSyncTimeoutMs ?? 60_000;
    this.#ignored = o.ignoredResources ?? defaultIgnoredResources;
    this.#recordEvent = o.recordEvent ?? ((e) => void this.#postEvent(e));
    this.#clock = o.clock ?? realClock;
    this.#useWatchList = o.useWatchList;
    const report = (queue: string) => (err: unknown, uid: string) => {
      if (err instanceof Requeue) return;
      const node = this.#graph.node(uid);
      const what = node !== undefined ? referenceString(node.identity) : uid;
      this.#onError(
        new Error(`${queue} ${what}: ${err instanceof Error ? err.message : String(err)}`, { cause: err }),
      );
    };
    this.#deleteQueue = new WorkQueue({ onError: report('attemptToDelete'), clock: this.#clock });
    this.#orphanQueue = new WorkQueue({ onError: report('attemptToOrphan'), clock: this.#clock });
    this.#graph = new GraphBuilder({
      attemptToDelete: (uid, rateLimited) => {
        if (rateLimited === true && this.#signal !== undefined)
          this.#deleteQueue.addRateLimited(uid, this.#signal);
        else this.#deleteQueue.add(uid);
      },
      attemptToOrphan: (uid) => this.#orphanQueue.add(uid),
      invalidNamespaceOwnerRef: (dependent, owner) =>
        this.#recordEvent({
          involvedObject: dependent,
          type: 'Warning',
          reason: 'OwnerRefInvalidNamespace',
          message: `ownerRef ${referenceString(owner)} does not exist in namespace ${JSON.stringify(dependent.namespace)}`,
        }),
    });
  }

  /** Whether the graph knows `uid` (tests). */
  graphHasUid(uid: string): boolean {
    return this.#graph.node(uid) !== undefined;
  }

  /** Resources currently monitored, as `apiVersion/resource`. */
  monitoredResources(): string[] {
    return [...this.#monitors.keys()].sort();
  }

  /** Runs until `signal` aborts; every informer, worker and timer of its own has stopped then. */
  async run(signal: AbortSignal): Promise<void> {
    if (this.#signal !== undefined) throw new Error('the garbage collector is already running');
    const stop = new AbortController();
    setMaxListeners(0, stop.signal);
    const onAbort = (): void => stop.abort();
    if (signal.aborted) stop.abort();
    else signal.addEventListener('abort', onAbort, { once: true });
    this.#signal = stop.signal;
    try {
      // The first discovery: retried until it works.
      for (let failures = 0; !stop.signal.aborted; failures++) {
        try {
          await this.#sync(stop.signal);
          break;
        } catch (err) {
          if (stop.signal.aborted) break;
          this.#onError(err);
          await this.#clock.sleep(Math.min(500 * 2 ** failures, this.#resyncPeriodMs), stop.signal);
        }
      }
      await this.#waitForSync(stop.signal);
      const runs: Promise<void>[] = [];
      for (let i = 0; i < this.#workers; i++) {
        runs.push(this.#deleteQueue.run((uid) => this.#attemptToDeleteWorker(uid), stop.signal));
        runs.push(this.#orphanQueue.run((uid) => this.#attemptToOrphanWorker(uid), stop.signal));
      }
      runs.push(this.#resyncLoop(stop.signal));
      await Promise.all(runs);
    } finally {
      signal.removeEventListener('abort', onAbort);
      stop.abort();
      for (const m of this.#monitors.values()) m.registration.remove();
      await Promise.all([...this.#monitors.values()].flatMap((m) => (m.run !== undefined ? [m.run] : [])));
      this.#monitors.clear();
      this.#signal = undefined;
    }
  }

  async #resyncLoop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      await this.#clock.sleep(this.#resyncPeriodMs, signal);
      if (signal.aborted) return;
      try {
        await this.#sync(signal);
      } catch (err) {
        if (!signal.aborted) this.#onError(err);
      }
    }
  }

  async #waitForSync(signal: AbortSignal): Promise<void> {
    const synced = Promise.all([...this.#monitors.values()].map((m) => m.informer.synced));
    // Its own signal, so the timeout's sleep ends once the monitors have synced.
    const stopTimeout = new AbortController();
    const onAbort = (): void => stopTimeout.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    const timeout = this.#clock
      .sleep(this.#initialSyncTimeoutMs, stopTimeout.signal)
      .then(() => 'timeout' as const);
    const r = await Promise.race([synced, timeout]);
    signal.removeEventListener('abort', onAbort);
    stopTimeout.abort();
    if (r === 'timeout' && !signal.aborted) {
      this.#onError(new Error('not all resource monitors could be synced, proceeding anyway'));
    }
  }

  /** Reads discovery; starts monitors of new resources and stops those of gone ones. */
  async #sync(signal: AbortSignal): Promise<void> {
    const d = await discover(this.#client, signal);
    this.#mapper = new RestMapper(d.all);
    const wanted = new Map(deletableResources(d, this.#ignored).map((r) => [resourceKey(r), r]));
    for (const [key, m] of this.#monitors) {
      // Keep monitors of group-versions whose discovery failed this time.
      if (wanted.has(key) || d.failed.has(`${m.resource.group}/${m.resource.version}`)) continue;
      m.registration.remove();
      m.stop?.abort();
      this.#monitors.delete(key);
    }
    for (const [key, r] of wanted) {
      if (!this.#monitors.has(key)) this.#monitors.set(key, this.#startMonitor(r, signal));
    }
  }

  #startMonitor(r: ApiResource, signal: AbortSignal): Monitor {
    const apiVersion = apiVersionOf(r);
    const kind = r.kind;
    const send = (type: GraphEventType, obj: JsonObject, old?: JsonObject): void => {
      const meta = metadataOf(obj);
      if (meta.uid === '') return;
      this.#graph.process({
        type,
        apiVersion,
        kind,
        meta,
        ...(old !== undefined ? { old: metadataOf(old) } : {}),
      });
    };
    const handler = {
      onAdd: (obj: JsonObject) => send('add', obj),
      onUpdate: (old: JsonObject, obj: JsonObject) => send('update', obj, old),
      onDelete: (obj: JsonObject) => send('delete', obj),
    };
    const path = collectionPathOf(r, '');
    if (this.#informers !== undefined) {
      const informer = this.#informers.informerFor(path);
      return {
        resource: r,
        informer,
        registration: informer.addEventHandler(handler),
        stop: undefined,
        run: undefined,
      };
    }
    const informer = new SharedInformer({
      client: metadataListWatchClient(this.#client),
      path,
      clock: this.#clock,
      // The collector reads owners, finalizers and deletion: its caches hold no managedFields.
      transform: stripManagedFields,
      ...(this.#useWatchList !== undefined ? { useWatchList: this.#useWatchList } : {}),
      onError: (err) =>
        this.#onError(new Error(`monitor ${path}: ${err instanceof Error ? err.message : String(err)}`)),
    });
    const registration = informer.addEventHandler(handler);
    const stop = new AbortController();
    const onAbort = (): void => stop.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    const run = informer
      .run(stop.signal)
      .catch((err: unknown) => this.#onError(err))
      .finally(() => signal.removeEventListener('abort', onAbort));
    return { resource: r, informer, registration, stop, run };
  }

  // ---- attemptToDelete ----

  async #attemptToDeleteWorker(uid: string): Promise<number | undefined> {
    const n = this.#graph.node(uid);
    if (n === undefined) return undefined;
    try {
      await this.#attemptToDeleteItem(n);
    } catch (err) {
      if (err instanceof VirtualDeleteEnqueued || err instanceof NamespacedOwnerOfClusterScopedObject)
        return undefined;
      throw err;
    }
    // A virtual node the API server has: keep looking until an informer observes it (or it goes).
    if (n.virtual) throw new Requeue('not observed yet');
    return undefined;
  }

  async #attemptToDeleteItem(item: GraphNode): Promise<void> {
    // Being deleted is a one-way trip: wait for the deletion, then handle the dependents.
    if (item.beingDeleted && !item.deletingDependents) return;
    const id = item.identity;
    let latest: ObjectMetadata;
    try {
      latest = await this.#getObject(id);
    } catch (err) {
      if (isStatus(err, 404)) this.#virtualDelete(id);
      throw err;
    }
    if (latest.uid !== id.uid) this.#virtualDelete(id);
    if (item.deletingDependents) return this.#processDeletingDependentsItem(item);
    const refs = latest.ownerReferences;
    if (refs.length === 0) return;
    const { solid, dangling, waiting } = await this.#classifyReferences(item, refs);
    if (solid.length > 0) {
      if (dangling.length === 0 && waiting.length === 0) return;
      // Drop references to absent owners and to owners waiting for this one (they would wait
      // forever otherwise).
      const uids = [...dangling, ...waiting].map((r) => r.uid);
      await this.#patch(item, this.#deleteOwnerRefsPatch(item, uids), () =>
        this.#deleteOwnerRefsMergePatch(item, uids),
      );
      return;
    }
    if (waiting.length > 0 && item.dependents.size > 0) {
      for (const dep of item.dependents) {
        if (dep.deletingDependents) {
          // An owner and a dependent both wait for their dependents: a possible cycle. Make
          // this object's references non-blocking, then delete it in the foreground.
          await this.#patch(item, this.#unblockPatch(item), () => this.#unblockMergePatch(item));
          break;
        }
      }
      await this.#deleteOrVirtual(id, 'Foreground');
      return;
    }
    // No solid owner and no owner waiting for it: garbage. Honour a GC finalizer it already has.
    const policy = latest.finalizers.includes(orphanFinalizer)
      ? 'Orphan'
      : latest.finalizers.includes(foregroundFinalizer)
        ? 'Foreground'
        : 'Background';
    await this.#deleteOrVirtual(id, policy);
  }

  async #deleteOrVirtual(id: ObjectReference, policy: 'Orphan' | 'Foreground' | 'Background'): Promise<void> {
    try {
      await this.#deleteObject(id, policy);
    } catch (err) {
      if (isStatus(err, 404)) this.#virtualDelete(id);
      throw err;
    }
  }

  /** Queues a virtual delete event for `id` and ends the attempt (upstream enqueueVirtualDeleteEvent). */
  #virtualDelete(id: ObjectReference): never {
    this.#graph.virtualDelete(id);
    throw new VirtualDeleteEnqueued();
  }

  async #processDeletingDependentsItem(item: GraphNode): Promise<void> {
    const blocking = item.blockingDependents();
    if (blocking.length === 0) {
      await this.#removeFinalizer(item, foregroundFinalizer);
      return;
    }
    for (const dep of blocking) {
      if (!dep.deletingDependents) this.#deleteQueue.add(dep.identity.uid);
    }
  }

  /** Whether `ref` names an owner that does not exist (for `item`), and the owner when it does. */
  async #isDangling(
    ref: OwnerReference,
    item: GraphNode,
  ): Promise<{ dangling: true } | { dangling: false; owner: ObjectMetadata }> {
    const key = { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace: '' };
    if (this.#graph.absentOwnerCache.has(key)) return { dangling: true };
    const namespacedKey = { ...key, namespace: item.identity.namespace };
    if (this.#graph.absentOwnerCache.has(namespacedKey)) return { dangling: true };
    const mapping = this.#mapper.mapping(ref.apiVersion, ref.kind);
    const absentKey = mapping.namespaced ? namespacedKey : key;
    if (item.identity.namespace === '' && mapping.namespaced) {
      throw new NamespacedOwnerOfClusterScopedObject(
        `${referenceString(item.identity)} is cluster-scoped, but refers to a namespaced owner of type ${ref.apiVersion}/${ref.kind}`,
      );
    }
    let owner: ObjectMetadata;
    try {
      owner = await this.#getMetadata(
        this.#mapper.objectPath(ref.apiVersion, ref.kind, item.identity.namespace, ref.name),
      );
    } catch (err) {
      if (!isStatus(err, 404)) throw err;
      this.#graph.absentOwnerCache.add(absentKey);
      return { dangling: true };
    }
    if (owner.uid !== ref.uid) {
      this.#graph.absentOwnerCache.add(absentKey);
      return { dangling: true };
    }
    return { dangling: false, owner };
  }

  async #classifyReferences(
    item: GraphNode,
    refs: readonly OwnerReference[],
  ): Promise<{ solid: OwnerReference[]; dangling: OwnerReference[]; waiting: OwnerReference[] }> {
    const solid: OwnerReference[] = [];
    const dangling: OwnerReference[] = [];
    const waiting: OwnerReference[] = [];
    for (const ref of refs) {
      const r = await this.#isDangling(ref, item);
      if (r.dangling) dangling.push(ref);
      else if (r.owner.deletionTimestamp !== undefined && r.owner.finalizers.includes(foregroundFinalizer)) {
        waiting.push(ref);
      } else solid.push(ref);
    }
    return { solid, dangling, waiting };
  }

  // ---- attemptToOrphan ----

  async #attemptToOrphanWorker(uid: string): Promise<undefined> {
    const owner = this.#graph.node(uid);
    if (owner === undefined) return undefined;
    const failures: string[] = [];
    await Promise.all(
      [...owner.dependents].map(async (dep) => {
        try {
          await this.#patch(dep, this.#deleteOwnerRefsPatch(dep, [uid]), () =>
            this.#deleteOwnerRefsMergePatch(dep, [uid]),
          );
        } catch (err) {
          if (isStatus(err, 404)) return;
          failures.push(
            `orphaning ${referenceString(dep.identity)} failed, ${err instanceof Error ? err.message : String(err)}`,
          );
        }
      }),
    );
    if (failures.length > 0) {
      throw new Error(
        `failed to orphan dependents of owner ${referenceString(owner.identity)}, got errors: [${failures.join(', ')}]`,
      );
    }
    await this.#removeFinalizer(owner, orphanFinalizer);
    return undefined;
  }

  // ---- talking to the API server ----

  #path(id: ObjectReference): string {
    return this.#mapper.objectPath(id.apiVersion, id.kind, id.namespace, id.name);
  }

  async #getMetadata(path: string): Promise<ObjectMetadata> {
    const opts = this.#signal !== undefined ? { signal: this.#signal } : {};
    return metadataOf(await this.#client.request('GET', path, { ...opts, accept: metadataAccept }));
  }

  #getObject(id: ObjectReference): Promise<ObjectMetadata> {
    return this.#getMetadata(this.#path(id));
  }

  async #deleteObject(id: ObjectReference, policy: 'Orphan' | 'Foreground' | 'Background'): Promise<void> {
    await this.#client.request('DELETE', this.#path(id), {
      body: {
        kind: 'DeleteOptions',
        apiVersion: 'meta.k8s.io/v1',
        preconditions: { uid: id.uid },
        propagationPolicy: policy,
      },
      accept: metadataAccept,
      ...(this.#signal !== undefined ? { signal: this.#signal } : {}),
    });
  }

  async #patchObject(id: ObjectReference, patch: JsonObject, contentType: string): Promise<void> {
    await this.#client.request('PATCH', this.#path(id), {
      body: patch,
      contentType,
      accept: metadataAccept,
      ...(this.#signal !== undefined ? { signal: this.#signal } : {}),
    });
  }

  /** A strategic merge patch, or (where the resource has none: 415) a JSON merge patch. */
  async #patch(item: GraphNode, smp: JsonObject, mergePatch: () => Promise<JsonObject>): Promise<void> {
    try {
      await this.#patchObject(item.identity, smp, 'application/strategic-merge-patch+json');
    } catch (err) {
      if (!isStatus(err, 415)) throw err;
      await this.#patchObject(item.identity, await mergePatch(), 'application/merge-patch+json');
    }
  }

  /** Deletes the references to `uids`; the item's uid is the precondition. */
  #deleteOwnerRefsPatch(item: GraphNode, uids: readonly string[]): JsonObject {
    return {
      metadata: {
        ownerReferences: uids.map((uid) => ({ $patch: 'delete', uid })),
        uid: item.identity.uid,
      },
    };
  }

  async #deleteOwnerRefsMergePatch(item: GraphNode, uids: readonly string[]): Promise<JsonObject> {
    const latest = await this.#getObject(item.identity);
    return {
      metadata: {
        resourceVersion: latest.resourceVersion,
        ownerReferences: latest.ownerReferences.filter((r) => !uids.includes(r.uid)).map(ownerReferenceJson),
      },
    };
  }

  /** Sets blockOwnerDeletion=false on the item's blocking references. */
  #unblockPatch(item: GraphNode): JsonObject {
    return {
      metadata: {
        ownerReferences: item.owners
          .filter((r) => r.blockOwnerDeletion === true)
          .map((r) => ownerReferenceJson({ ...r, blockOwnerDeletion: false })),
        uid: item.identity.uid,
      },
    };
  }

  async #unblockMergePatch(item: GraphNode): Promise<JsonObject> {
    const latest = await this.#getObject(item.identity);
    return {
      metadata: {
        resourceVersion: latest.resourceVersion,
        uid: item.identity.uid,
        ownerReferences: latest.ownerReferences.map((r) =>
          ownerReferenceJson(r.blockOwnerDeletion === true ? { ...r, blockOwnerDeletion: false } : r),
        ),
      },
    };
  }

  /** Removes `finalizer` from the object (GET, then a merge patch on its resourceVersion; conflicts retried). */
  async #removeFinalizer(item: GraphNode, finalizer: string): Promise<void> {
    const attempts = 4;
    for (let i = 0; ; i++) {
      let latest: ObjectMetadata;
      try {
        latest = await this.#getObject(item.identity);
      } catch (err) {
        if (isStatus(err, 404)) return;
        throw new Error(
          `cannot finalize owner ${referenceString(item.identity)}, because cannot get it: ${err instanceof Error ? err.message : String(err)}. The garbage collector will retry later`,
        );
      }
      if (!latest.finalizers.includes(finalizer)) return;
      try {
        await this.#patchObject(
          item.identity,
          {
            metadata: {
              resourceVersion: latest.resourceVersion,
              finalizers: latest.finalizers.filter((f) => f !== finalizer),
            },
          },
          'application/merge-patch+json',
        );
        return;
      } catch (err) {
        if (!isStatus(err, 409)) throw err;
        if (i + 1 >= attempts) {
          throw new Error(
            `updateMaxRetries(${attempts}) has reached. The garbage collector will retry later for owner ${referenceString(item.identity)}`,
          );
        }
      }
    }
  }

  /** A core/v1 Event as upstream's recorder writes one (no aggregation). */
  async #postEvent(e: GarbageCollectorEvent): Promise<void> {
    const now = this.#clock.now();
    const ts = new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const ns = e.involvedObject.namespace === '' ? 'default' : e.involvedObject.namespace;
    const name = this.#eventNames.next(e.involvedObject.name, now);
    try {
      await this.#client.request('POST', `/api/v1/namespaces/${encodeURIComponent(ns)}/events`, {
        body: {
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { name, namespace: ns },
          involvedObject: {
            apiVersion: e.involvedObject.apiVersion,
            kind: e.involvedObject.kind,
            name: e.involvedObject.name,
            uid: e.involvedObject.uid,
            ...(e.involvedObject.namespace !== '' ? { namespace: e.involvedObject.namespace } : {}),
          },
          reason: e.reason,
          message: e.message,
          type: e.type,
          source: { component: 'garbage-collector-controller' },
          firstTimestamp: ts,
          lastTimestamp: ts,
          count: 1,
          reportingComponent: '',
          reportingInstance: '',
        },
        ...(this.#signal !== undefined ? { signal: this.#signal } : {}),
      });
    } catch (err) {
      if (this.#signal?.aborted !== true) this.#onError(err);
    }
  }
}
