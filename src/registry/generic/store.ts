/**
 * The generic store: the one create/get/list/update/delete flow every resource shares
 * (upstream's registry/generic/registry.Store). Resource differences live in strategies.
 */
import type { FieldError } from '../../machinery/field/errors.js';
import { apiErrors, StatusError } from '../../machinery/errors.js';
import { fieldErrors } from '../../machinery/field/errors.js';
import type { KubeObject } from '../../machinery/object.js';
import { cloneJson } from '../../util/json.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../machinery/validation/objectmeta.js';
import { StorageError } from '../../storage/errors.js';
import type { ObjectStore, SideWrites } from '../../storage/interfaces.js';
import type { DeleteRequest, ListRequest, WriteRequest } from '../options.js';
import type { RegistryResource } from '../resource.js';
import type { FeatureGateReader, RESTStrategy, StrategyContext } from '../strategy.js';
import type { AdmissionAttributes, MutatingAdmission, ValidatingAdmission } from './admission.js';
import type { HookContext, WriteHooks, WriteOutcome } from './hooks.js';
import { collectionPrefix, objectKey, resourcePrefix } from './keys.js';
import { WatchCache } from '../../storage/cacher/watch-cache.js';
import type { EncodingBudget, ItemEncodings } from '../../storage/cacher/encoded-items.js';
import { decodeContinue, encodeContinue } from '../../storage/continue-token.js';
import { fillSystemFields, formatTime, generateName } from './metadata.js';
import type { GarbageCollectionPolicy } from './gc-finalizers.js';
import {
  defaultGarbageCollectionPolicy,
  deletionFinalizers,
  validateDeleteOptions,
} from './gc-finalizers.js';
import { buildPredicate } from './predicate.js';
import type { Predicate } from './predicate.js';
import { listRead, parseResourceVersion, validateListRequest } from './resource-version.js';
import type { ListRead } from './resource-version.js';
import { translateStorageError } from './translate.js';
import { waitUntilFresh } from './freshness.js';

/** How long the first read of a resource waits for its watch cache to fill before reading storage. */
const cacheFillWaitMs = 3000;

/** What a resource's watch cache counted (read at scrape time by the watch-cache metrics). */
export interface WatchCacheStats {
  readonly ready: boolean;
  readonly objects: number;
  readonly watchers: number;
  /** Events received from storage. */
  readonly events: number;
  readonly dispatched: number;
  readonly terminatedWatchers: number;
  readonly initEvents: number;
  readonly initialisations: number;
  readonly lists: { readonly served: number; readonly fetched: number; readonly returned: number };
  readonly capacity: number;
  /** The storage key prefix the cache holds. */
  readonly prefix: string;
}

export interface GenericStoreOptions {
  readonly resource: RegistryResource;
  readonly storage: ObjectStore;
  readonly features: FeatureGateReader;
  readonly admission?: ValidatingAdmission;
  readonly mutatingAdmission?: MutatingAdmission;
  /** Code that writes with the object in one transaction (allocators). */
  readonly hooks?: WriteHooks;
  readonly clock?: () => Date;
  /** Name generator for generateName (default: upstream's 5 random characters). */
  readonly generateName?: (base: string) => string;
  /**
   * The kind's default propagation when a DELETE names none (upstream's
   * DefaultGarbageCollectionPolicy; default: defaultGarbageCollectionPolicy of the kind).
   */
  readonly garbageCollectionPolicy?: GarbageCollectionPolicy;
  /**
   * The resource's watch cache (started on first use): lists and gets that accept a
   * not-quite-latest state, and watches, are served from it. `false` reads storage every time.
   */
  readonly watchCache?: false | { readonly capacity?: number };
  /** The byte budget of the encoded list items the server's watch caches keep together. */
  readonly encodingBudget?: EncodingBudget;
}

export interface WriteResult {
  readonly object: KubeObject;
  readonly warnings: string[];
  /** True when an update created the object. */
  readonly created: boolean;
}

export interface DeleteResult {
  /** The object as deleted, or as updated with deletionTimestamp when deletion is pending. */
  readonly object: KubeObject;
  /** True when the object is gone now (false: graceful deletion or finalizers pending). */
  readonly deleted: boolean;
  /**
   * The object was already being deleted gracefully and the request did not shorten its grace
   * period: nothing was written, and upstream answers as for a deletion (finalizeDelete: a
   * Success Status, or the object where the resource returns deleted objects).
   */
  readonly pendingGraceful?: boolean;
}

export type { ItemEncodings };

export interface ListResult {
  readonly items: KubeObject[];
  readonly resourceVersion: string;
  readonly continue?: string;
  readonly remainingItemCount?: number;
  /** When the items are the watch cache's objects: the encodings it keeps of them. */
  readonly encodings?: ItemEncodings;
}

/** Produces the object to store from the current one (a PUT body, or a patch applied to `current`). */
export type UpdatedObject = (current: KubeObject | undefined) => KubeObject | Promise<KubeObject>;

/** An update's options. */
export interface UpdateRequest extends WriteRequest {
  readonly strategy?: RESTStrategy;
  readonly subresource?: string;
  /**
   * metadata.uid of a PUT body (upstream's defaultUpdatedObjectInfo.Preconditions), checked by
   * storage against the stored object, or an empty one when there is none.
   */
  readonly uidPrecondition?: string;
  /** Create a missing object even where the strategy does not (server-side apply). */
  readonly forceAllowCreate?: boolean;
}

export class GenericStore {
  readonly resource: RegistryResource;
  readonly #storage: ObjectStore;
  readonly #features: FeatureGateReader;
  readonly #admission: ValidatingAdmission | undefined;
  readonly #mutating: MutatingAdmission | undefined;
  readonly #hooks: WriteHooks;
  readonly #clock: () => Date;
  readonly #generateName: (base: string) => string;
  readonly #garbageCollectionPolicy: GarbageCollectionPolicy | undefined;
  readonly #cache: WatchCache | undefined;

  constructor(o: GenericStoreOptions) {
    this.resource = o.resource;
    const { group, resource } = o.resource.info;
    // Upstream's group-resource string labels the storage metrics: "pods", "deployments.apps".
    const storage = o.storage.forResource?.(group === '' ? resource : `${resource}.${group}`) ?? o.storage;
    this.#storage = storage;
    this.#features = o.features;
    this.#admission = o.admission;
    this.#mutating = o.mutatingAdmission;
    this.#hooks = o.hooks ?? {};
    this.#clock = o.clock ?? (() => new Date());
    this.#generateName = o.generateName ?? generateName;
    this.#garbageCollectionPolicy = o.garbageCollectionPolicy;
    this.#cache =
      o.watchCache === false
        ? undefined
        : new WatchCache({
            storage,
            prefix: resourcePrefix(o.resource.info),
            ...(o.watchCache?.capacity !== undefined ? { capacity: o.watchCache.capacity } : {}),
            ...(o.encodingBudget !== undefined ? { encodingBudget: o.encodingBudget } : {}),
          });
  }

  get #gr() {
    return { group: this.resource.info.group, resource: this.resource.info.resource };
  }

  get #gk() {
    return { group: this.resource.info.group, kind: this.resource.info.kind };
  }

  #ctx(namespace: string, req?: WriteRequest): StrategyContext {
    const version = req?.requestVersion;
    return {
      namespace,
      features: this.#features,
      ...(version !== undefined ? { requestVersion: version } : {}),
      ...(req !== undefined ? { user: req.user } : {}),
    };
  }

  key(namespace: string, name: string): string {
    return objectKey(this.resource.info, namespace, name);
  }

  prefix(namespace: string): string {
    return collectionPrefix(this.resource.info, namespace);
  }

  get storage(): ObjectStore {
    return this.#storage;
  }

  /** Stops the watch cache's storage watch (a resource no longer served, e.g. a deleted CRD's). */
  stop(): void {
    this.#cache?.stop();
  }

  /**
   * Starts filling the watch cache now rather than on first use, as upstream's cachers start with
   * the server: a watch from a resourceVersion older than the cache's first list cannot be served
   * from it (the events in between are unknown to it) and goes to storage instead.
   */
  startWatchCache(): void {
    this.#cache?.start();
  }

  // ---- get / list ----

  /**
   * The watch cache once it is filled, else undefined (reads go to storage). It starts on first
   * use, and that first read waits briefly for it to fill.
   */
  async watchCache(): Promise<WatchCache | undefined> {
    const cache = this.#cache;
    if (cache === undefined) return undefined;
    if (cache.ready) return cache;
    return (await cache.whenReady(cacheFillWaitMs)) ? cache : undefined;
  }

  /** The watch cache's statistics (for metrics), when the resource has one. */
  get watchCacheStats(): WatchCacheStats | undefined {
    const c = this.#cache;
    if (c === undefined) return undefined;
    return {
      ready: c.ready,
      objects: c.objects,
      watchers: c.watchers,
      events: c.eventsReceived,
      dispatched: c.eventsDispatched,
      terminatedWatchers: c.terminatedWatchers,
      initEvents: c.initEvents,
      initialisations: c.initialisations,
      lists: c.listStats,
      capacity: c.capacity,
      prefix: resourcePrefix(this.resource.info),
    };
  }

  /**
   * The watch cache's copy of `key` for an update to start from (upstream's Cacher.GuaranteedUpdate
   * hands etcd3 the cached object as cachedExistingObject); undefined when the cache is not ready,
   * and for kinds stored with a lease (TTL), which the copy lacks.
   */
  cachedObject(key: string): KubeObject | undefined {
    if (this.resource.ttlSeconds !== undefined) return undefined;
    return this.#cache?.ready === true ? this.#cache.get(key) : undefined;
  }

  /**
   * The watch cache's objects of a namespace ('' for all), in key order, when the cache is ready;
   * undefined otherwise. For in-process readers that accept a slightly stale state and no
   * selectors (admission plugins' lookups), without a list request's machinery.
   */
  cachedItems(namespace: string): readonly KubeObject[] | undefined {
    const cache = this.#cache;
    if (cache?.ready !== true || this.resource.ttlSeconds !== undefined) return undefined;
    return cache.list(this.prefix(namespace)).items;
  }

  /** As `cachedItems`, one object: null when the ready cache has none, undefined when it is not ready. */
  cachedItem(namespace: string, name: string): KubeObject | null | undefined {
    const cache = this.#cache;
    if (cache?.ready !== true || this.resource.ttlSeconds !== undefined) return undefined;
    return cache.get(this.key(namespace, name)) ?? null;
  }

  async get(namespace: string, name: string, resourceVersion?: string): Promise<KubeObject> {
    const rv = resourceVersion ?? '';
    const minimum = rv !== '' && rv !== '0' ? parseResourceVersion(rv) : 0;
    // A resourceVersion means "at least this new": the watch cache may answer (upstream's Cacher.Get).
    const cache = rv !== '' ? await this.watchCache() : undefined;
    let obj: KubeObject | undefined;
    if (cache !== undefined) {
      if (minimum > 0) await waitUntilFresh(cache, minimum);
      obj = cache.get(this.key(namespace, name));
    } else {
      if (minimum > 0) await this.#ensureNotFuture(minimum);
      obj = await this.#storage.get(this.key(namespace, name));
    }
    if (obj === undefined) throw apiErrors.notFound(this.#gr, name);
    return obj;
  }

  /** A read at a resourceVersion the store has not reached waits up to 3 s, then 504. */
  async #ensureNotFuture(revision: number): Promise<void> {
    await waitUntilFresh(this.#storage, revision);
  }

  async list(namespace: string, req: ListRequest): Promise<ListResult> {
    validateListRequest(req, false, this.#features.enabled('WatchList'));
    const predicate = buildPredicate(this.resource, req.labelSelector, req.fieldSelector);
    const read = listRead(req);
    const cached = await this.#listFromCache(namespace, req, read, predicate);
    if (cached !== undefined) return cached;
    let revision = 0;
    if (read.kind !== 'current') await this.#ensureNotFuture(read.revision);
    if (read.kind === 'exact') revision = read.revision;
    try {
      const r = await this.#storage.list({
        prefix: this.prefix(namespace),
        revision,
        ...(req.limit !== undefined && req.limit > 0 ? { limit: req.limit } : {}),
        ...(req.continue !== undefined && req.continue !== '' ? { continueToken: req.continue } : {}),
        ...(predicate.everything ? {} : { predicate: (o: KubeObject) => predicate.matches(o) }),
      });
      return {
        items: r.items,
        resourceVersion: String(r.revision),
        ...(r.continueToken !== undefined ? { continue: r.continueToken } : {}),
        ...(r.remainingItemCount !== undefined ? { remainingItemCount: r.remainingItemCount } : {}),
      };
    } catch (err) {
      if (req.continue !== undefined && req.continue !== '' && isExpired(err)) {
        // As etcd3's store: the 410 offers a token continuing from the same key at the latest
        // revision, for a client willing to accept an inconsistent list.
        const { start } = decodeContinue(req.continue);
        throw apiErrors.resourceExpired(
          'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
          encodeContinue({ revision: -1, start }),
        );
      }
      throw translateStorageError(err, this.#gr, '', 'list');
    }
  }

  /**
   * Upstream's Cacher.GetList: resourceVersion "0" (any state) and NotOlderThan without a continue
   * token are answered from the watch cache, all matches at once (v1.27's cache does not page);
   * Exact lists read storage.
   *
   * A most-recent list without a limit (what a client's plain list call sends) is answered from
   * the cache too, once the cache has caught up with storage's current revision (upstream's
   * consistent reads from cache, KEP-2340, on by default since v1.31): the same state a storage
   * read would give, without building every object afresh for each request, so concurrent
   * unpaginated lists of large objects share the cached objects instead of each holding a copy.
   * When the cache does not catch up within 3 s, storage answers, as upstream falls back to etcd.
   * Paginated most-recent lists are answered the same way (upstream's list from a cache snapshot,
   * KEP-4988): the first page once the cache has caught up; a continued page when the cache is
   * still at the token's revision (and that revision is not compacted), so every page shows one
   * state. Otherwise storage serves the page at the token's revision, as it would have without
   * the cache. Every page without selectors but the last says how many items remain, as etcd3's
   * store does.
   */
  async #listFromCache(
    namespace: string,
    req: ListRequest,
    read: ListRead,
    predicate: Predicate,
  ): Promise<ListResult | undefined> {
    const rv = req.resourceVersion ?? '';
    if (read.kind === 'exact') return undefined;
    const continued = (req.continue ?? '') !== '';
    const limit = req.limit !== undefined && req.limit > 0 ? req.limit : 0;
    if (continued || (rv === '' && limit > 0)) return this.#pageFromCache(namespace, req, limit, predicate);
    const cache = await this.watchCache();
    if (cache === undefined) return undefined;
    const prefix = this.prefix(namespace);
    const select = predicate.everything ? undefined : (o: KubeObject) => predicate.matches(o);
    const answer = (): ListResult => {
      const r = cache.list(prefix, select);
      return { items: r.items, resourceVersion: String(r.revision), encodings: cache.encodings };
    };
    if (rv === '') return (await this.#caughtUp(cache)) ? answer() : undefined;
    if (read.kind !== 'current') await waitUntilFresh(cache, read.revision);
    return answer();
  }

  /** Whether the cache reached storage's current revision within 3 s (else storage answers). */
  async #caughtUp(cache: WatchCache): Promise<boolean> {
    const current = await this.#storage.currentRevision();
    try {
      await waitUntilFresh(cache, current);
      return true;
    } catch (err) {
      if (err instanceof StatusError && err.status.code === 504) return false;
      throw err;
    }
  }

  /** A most-recent list's page (the first, or one continued) from the cache; see #listFromCache. */
  async #pageFromCache(
    namespace: string,
    req: ListRequest,
    limit: number,
    predicate: Predicate,
  ): Promise<ListResult | undefined> {
    const cache = await this.watchCache();
    if (cache === undefined) return undefined;
    const prefix = this.prefix(namespace);
    let start = prefix;
    const continued = (req.continue ?? '') !== '';
    if (continued) {
      let token;
      try {
        token = decodeContinue(req.continue ?? '');
      } catch {
        // Storage answers a token it cannot read with the error it deserves.
        return undefined;
      }
      // A page of a compacted revision is 410 from storage, as upstream, even when the cache
      // still holds that state.
      if (cache.revision !== token.revision || token.revision < (await this.#storage.compactedRevision()))
        return undefined;
      start = prefix + token.start;
    } else if (!(await this.#caughtUp(cache))) return undefined;
    const select = predicate.everything ? undefined : (o: KubeObject) => predicate.matches(o);
    const page = cache.page(prefix, start, limit, select);
    const result: { -readonly [K in keyof ListResult]: ListResult[K] } = {
      items: page.items,
      resourceVersion: String(page.revision),
      encodings: cache.encodings,
    };
    if (page.more && page.lastKey !== undefined) {
      result.continue = encodeContinue({
        revision: page.revision,
        start: `${page.lastKey}\u0000`.slice(prefix.length),
      });
      if (predicate.everything) result.remainingItemCount = page.count - page.items.length;
    }
    return result;
  }

  // ---- create ----

  #checkNamespace(obj: KubeObject, namespace: string): void {
    if (this.resource.info.namespaced) {
      const ns = obj.metadata.namespace;
      if (ns !== undefined && ns !== '' && ns !== namespace) {
        throw apiErrors.badRequest(
          'the namespace of the provided object does not match the namespace sent on the request',
        );
      }
      obj.metadata.namespace = namespace;
    } else {
      delete obj.metadata.namespace;
    }
  }

  #validateCreate(strategy: RESTStrategy, ctx: StrategyContext, obj: KubeObject): void {
    const errs: FieldError[] = [
      ...validateObjectMeta(obj.metadata, {
        namespaced: strategy.namespaced,
        nameValidation: strategy.nameValidation,
      }),
      ...strategy.validate(ctx, obj),
    ];
    if (errs.length > 0) throw apiErrors.invalid(this.#gk, obj.metadata.name ?? '', errs);
  }

  /**
   * Everything of a create up to (not including) the write: returns the object to store and
   * warnings. `requestName` is the URL's name (a PUT that creates), '' for a POST.
   */
  async #prepareCreate(
    namespace: string,
    obj: KubeObject,
    req: WriteRequest,
    requestName = '',
  ): Promise<string[]> {
    const strategy = this.resource.strategy;
    const ctx = this.#ctx(namespace, req);
    const loading = strategy.loadValidation?.();
    if (loading !== undefined) await loading;
    this.#checkNamespace(obj, namespace);
    // Warnings in the order upstream adds them: mutating admission, the strategy, validating admission.
    const warnings: string[] = [];
    await this.#mutating?.(
      this.#attributes('CREATE', { namespace, name: obj.metadata.name ?? '' }, req, obj, undefined, warnings),
    );
    await this.#hooks.checkWrite?.(
      { namespace, dryRun: req.dryRun, user: req.user },
      { operation: 'CREATE', requestName, obj },
    );
    delete obj.metadata.deletionTimestamp;
    delete obj.metadata.deletionGracePeriodSeconds;
    // System fields come first (upstream fills them in the handler): strategies such as Job's
    // derive labels from the uid and name.
    fillSystemFields(obj, this.#clock());
    const name = obj.metadata.name ?? '';
    if (name === '' && (obj.metadata.generateName ?? '') !== '') {
      obj.metadata.name = this.#generateName(obj.metadata.generateName!);
    }
    strategy.prepareForCreate(ctx, obj);
    this.#validateCreate(strategy, ctx, obj);
    warnings.push(...strategy.warningsOnCreate(ctx, obj));
    strategy.canonicalize(obj);
    await this.#admission?.(
      this.#attributes('CREATE', { namespace, name: obj.metadata.name ?? '' }, req, obj, undefined, warnings),
    );
    return warnings;
  }

  /** What admission sees of one write. */
  #attributes(
    operation: AdmissionAttributes['operation'],
    target: { readonly namespace: string; readonly name: string; readonly subresource?: string },
    req: WriteRequest,
    object: KubeObject,
    oldObject?: KubeObject,
    warnings?: string[],
  ): AdmissionAttributes & { readonly object: KubeObject } {
    return {
      operation,
      resource: this.resource.info,
      subresource: target.subresource ?? '',
      namespace: target.namespace,
      name: target.name,
      object,
      ...(oldObject !== undefined ? { oldObject } : {}),
      dryRun: req.dryRun,
      user: req.user,
      ...(req.addAuditAnnotation !== undefined ? { addAuditAnnotation: req.addAuditAnnotation } : {}),
      ...(warnings !== undefined ? { addWarning: (m: string) => warnings.push(m) } : {}),
      ...(req.signal !== undefined ? { signal: req.signal } : {}),
      ...(req.requestVersion !== undefined ? { requestVersion: req.requestVersion } : {}),
    };
  }

  /** Tells the hooks how a write ended; a hook that throws cannot undo or hide that outcome. */
  async #afterWrite(ctx: HookContext, outcome: WriteOutcome): Promise<void> {
    try {
      await this.#hooks.afterWrite?.(ctx, outcome);
    } catch {
      // The contract says afterWrite does not throw; the write's own outcome stands either way.
    }
  }

  /**
   * The revision watches have reached (a watch's progress for bookmarks): the watch cache's when it
   * serves them, else storage's.
   */
  currentRevision(): Promise<number> {
    return (this.#cache?.ready === true ? this.#cache : this.#storage).currentRevision();
  }

  async create(namespace: string, obj: KubeObject, req: WriteRequest): Promise<WriteResult> {
    const warnings = await this.#prepareCreate(namespace, obj, req);
    const name = obj.metadata.name ?? '';
    const hookCtx: HookContext = { namespace, dryRun: req.dryRun, user: req.user };
    const before = this.#hooks.beforeCreate;
    if (req.dryRun) {
      await before?.(hookCtx, obj);
      if ((await this.#storage.get(this.key(namespace, name))) !== undefined) {
        const err = apiErrors.alreadyExists(this.#gr, name);
        await this.#afterWrite(hookCtx, { operation: 'CREATE', ok: false, error: err });
        throw err;
      }
      await this.#afterWrite(hookCtx, { operation: 'CREATE', ok: true, object: obj });
      return { object: obj, warnings, created: true };
    }
    let stored: KubeObject | undefined;
    try {
      const ttl = this.resource.ttlSeconds;
      // A side condition that failed means another write moved what the hook looked at: ask again.
      for (let attempt = 0; stored === undefined; attempt++) {
        const sideWrites = await before?.(hookCtx, obj);
        try {
          stored = await this.#storage.create(this.key(namespace, name), obj, {
            ...(ttl !== undefined ? { ttlSeconds: ttl } : {}),
            ...(sideWrites !== undefined ? { sideWrites } : {}),
          });
        } catch (err) {
          const retry = err instanceof StorageError && err.code === 'SideConditionFailed' && attempt < 16;
          if (!retry) throw err;
        }
      }
    } catch (err) {
      await this.#afterWrite(hookCtx, { operation: 'CREATE', ok: false, error: err });
      if (
        err instanceof StorageError &&
        err.code === 'KeyExists' &&
        (obj.metadata.generateName ?? '') !== ''
      ) {
        throw apiErrors.serverTimeoutForKind(this.#gk, 'POST');
      }
      throw translateStorageError(err, this.#gr, name, 'create');
    }
    await this.#afterWrite(hookCtx, { operation: 'CREATE', ok: true, object: stored });
    return { object: stored, warnings, created: true };
  }

  // ---- update ----

  /**
   * Update (PUT, PATCH, or a subresource with `strategy`). `updatedObject` receives the current
   * object and returns the desired one; the strategy then prepares and validates it.
   */
  async update(
    namespace: string,
    name: string,
    updatedObject: UpdatedObject,
    req: UpdateRequest,
  ): Promise<WriteResult> {
    const strategy = req.strategy ?? this.resource.strategy;
    const ctx = this.#ctx(namespace, req);
    const key = this.key(namespace, name);
    const loading = strategy.loadValidation?.();
    if (loading !== undefined) await loading;
    let warnings: string[] = [];
    let created = false;
    let deleteAfter = false;

    const tryUpdate = async (current: KubeObject | undefined): Promise<KubeObject> => {
      warnings = [];
      created = false;
      deleteAfter = false;
      // Upstream's storage.Preconditions.Check, before anything else (etcd3 GuaranteedUpdate).
      const uid = req.uidPrecondition;
      if (uid !== undefined && uid !== (current?.metadata.uid ?? '')) {
        throw apiErrors.conflict(
          this.#gr,
          name,
          `StorageError: invalid object, Code: 4, Key: ${this.key(namespace, name)}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${uid}, UID in object meta: ${current?.metadata.uid ?? ''}`,
        );
      }
      if (current === undefined) {
        if (!(strategy.allowCreateOnUpdate || req.forceAllowCreate === true) || req.subresource !== undefined)
          throw apiErrors.notFound(this.#gr, name);
        const obj = cloneJson(await updatedObject(undefined));
        if ((obj.metadata.name ?? '') !== name) {
          throw apiErrors.badRequest('the name of the object does not match the name on the URL');
        }
        delete obj.metadata.resourceVersion;
        warnings = await this.#prepareCreate(namespace, obj, req, name);
        created = true;
        return obj;
      }
      // A copy: this attempt fills in resourceVersion and system fields, and a retry after a
      // concurrent write must start again from what the caller gave (upstream deep-copies too).
      const obj = cloneJson(await updatedObject(current));
      if ((obj.metadata.name ?? '') !== name) {
        throw apiErrors.badRequest('the name of the object does not match the name on the URL');
      }
      // Mutating admission sees the object as sent (upstream: before BeforeUpdate restores the
      // system fields below, so a plugin cannot change them).
      const target = { namespace, name, subresource: req.subresource ?? '' };
      const attributes = this.#attributes('UPDATE', target, req, obj, current, warnings);
      await this.#mutating?.(attributes);
      await this.#hooks.checkWrite?.(
        { namespace, dryRun: req.dryRun, user: req.user },
        { operation: 'UPDATE', requestName: name, obj, old: current },
      );
      this.#checkNamespace(obj, namespace);
      const rv = obj.metadata.resourceVersion ?? '';
      if (rv === '') {
        if (!strategy.allowUnconditionalUpdate) {
          throw apiErrors.invalid(this.#gk, name, [
            fieldErrors.invalid('metadata.resourceVersion', 0, 'must be specified for an update'),
          ]);
        }
        obj.metadata.resourceVersion = current.metadata.resourceVersion!;
      } else if (rv !== current.metadata.resourceVersion) {
        throw apiErrors.modifiedConflict(this.#gr, name);
      }
      // System fields the client may not change (upstream rest.BeforeUpdate).
      const old = current.metadata;
      obj.metadata.creationTimestamp = old.creationTimestamp ?? null;
      if ((obj.metadata.uid ?? '') === '') obj.metadata.uid = old.uid!;
      if (old.deletionTimestamp !== undefined) obj.metadata.deletionTimestamp = old.deletionTimestamp;
      else delete obj.metadata.deletionTimestamp;
      if (old.deletionGracePeriodSeconds !== undefined) {
        obj.metadata.deletionGracePeriodSeconds = old.deletionGracePeriodSeconds;
      } else delete obj.metadata.deletionGracePeriodSeconds;
      if (old.generation !== undefined) obj.metadata.generation = old.generation;
      else delete obj.metadata.generation;
      strategy.prepareForUpdate(ctx, obj, current);
      const errs: FieldError[] = [
        ...validateObjectMetaUpdate(obj.metadata, current.metadata),
        ...validateObjectMeta(obj.metadata, {
          namespaced: strategy.namespaced,
          nameValidation: strategy.nameValidation,
        }),
        ...strategy.validateUpdate(ctx, obj, current),
      ];
      if (errs.length > 0) throw apiErrors.invalid(this.#gk, name, errs);
      warnings.push(...strategy.warningsOnUpdate(ctx, obj, current));
      strategy.canonicalize(obj);
      await this.#admission?.(attributes);
      // Removing the last finalizer of an object being deleted completes the deletion: the
      // update is not written, the stored object is deleted (upstream ShouldDeleteDuringUpdate
      // and deleteWithoutFinalizers; watchers see it DELETED as it was last stored).
      deleteAfter =
        current.metadata.deletionTimestamp !== undefined &&
        (obj.metadata.finalizers ?? []).length === 0 &&
        (current.metadata.deletionGracePeriodSeconds ?? 0) === 0 &&
        !(this.resource.deletionPending?.(obj) ?? false);
      if (deleteAfter && !req.dryRun) throw new EmptiedFinalizers(obj, current);
      return obj;
    };

    const hookCtx: HookContext = { namespace, dryRun: req.dryRun, user: req.user };
    const sideWrites = (current: KubeObject | undefined, updated: KubeObject | undefined) =>
      updated === undefined
        ? undefined
        : current === undefined
          ? this.#hooks.beforeCreate?.(hookCtx, updated)
          : this.#hooks.beforeUpdate?.(hookCtx, updated, current);
    const operation = (): WriteOutcome['operation'] => (created ? 'CREATE' : 'UPDATE');
    let result: WriteResult;
    try {
      if (req.dryRun) {
        const current = await this.#storage.get(key);
        const obj = await tryUpdate(current);
        await sideWrites(current, obj);
        result = { object: obj, warnings, created };
      } else {
        let stored: KubeObject | undefined;
        for (let attempt = 0; stored === undefined; attempt++) {
          try {
            stored = await this.#storage.guaranteedUpdate(key, tryUpdate, {
              ignoreNotFound: true,
              sideWrites,
              cachedExisting: attempt === 0 ? this.cachedObject(key) : undefined,
            });
          } catch (err) {
            if (!(err instanceof EmptiedFinalizers)) throw err;
            try {
              const last = await this.#storage.delete(key, {
                preconditions: { resourceVersion: err.current.metadata.resourceVersion! },
                ...this.#deleteSideWrites(hookCtx),
              });
              await this.#afterWrite(hookCtx, { operation: 'DELETE', ok: true, object: last });
            } catch (deleteErr) {
              const raced =
                deleteErr instanceof StorageError &&
                (deleteErr.code === 'ResourceVersionConflicts' || deleteErr.code === 'PreconditionFailed');
              // Deletion is racy: several updates may empty the finalizers; one deletes.
              const gone = deleteErr instanceof StorageError && deleteErr.code === 'NotFound';
              if (raced && attempt < 16) continue;
              if (!gone) throw deleteErr;
            }
            // Clients expect the updated object from a PUT, not a Status.
            return { object: err.updated, warnings, created };
          }
        }
        result = { object: stored, warnings, created };
      }
    } catch (err) {
      await this.#afterWrite(hookCtx, { operation: operation(), ok: false, error: err });
      throw translateStorageError(err, this.#gr, name, created ? 'create' : 'update');
    }
    await this.#afterWrite(hookCtx, { operation: operation(), ok: true, object: result.object });
    return result;
  }

  /** The delete hook as the storage's side-write callback (none when there is no hook). */
  #deleteSideWrites(ctx: HookContext): {
    sideWrites?: (current: KubeObject | undefined) => Promise<SideWrites | undefined>;
  } {
    const before = this.#hooks.beforeDelete;
    if (before === undefined) return {};
    return { sideWrites: async (current) => (current === undefined ? undefined : before(ctx, current)) };
  }

  // ---- delete ----

  async delete(namespace: string, name: string, req: DeleteRequest): Promise<DeleteResult> {
    // apimachinery's ValidateDeleteOptions (the handler checks unknown policies first).
    const optionErrors = validateDeleteOptions(req);
    if (optionErrors.length > 0) {
      throw apiErrors.invalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', optionErrors);
    }
    // Mutating admission for a delete sees no object (upstream's handler calls it first).
    await this.#mutating?.({
      operation: 'DELETE',
      resource: this.resource.info,
      subresource: '',
      namespace,
      name,
      dryRun: req.dryRun,
      user: req.user,
      ...(req.addAuditAnnotation !== undefined ? { addAuditAnnotation: req.addAuditAnnotation } : {}),
      ...(req.signal !== undefined ? { signal: req.signal } : {}),
    });
    // Every write compares on the resourceVersion read; when another write lands in between,
    // start again (upstream retries too) unless the client pinned a resourceVersion.
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#deleteOnce(namespace, name, req);
      } catch (err) {
        const raced =
          err instanceof StorageError &&
          (err.code === 'ResourceVersionConflicts' || err.code === 'PreconditionFailed') &&
          req.preconditions?.resourceVersion === undefined;
        if (!raced || attempt >= 16) throw translateStorageError(err, this.#gr, name, 'delete');
      }
    }
  }

  async #deleteOnce(namespace: string, name: string, req: DeleteRequest): Promise<DeleteResult> {
    const key = this.key(namespace, name);
    const current = await this.#storage.get(key);
    if (current === undefined) throw apiErrors.notFound(this.#gr, name);
    this.#checkDeletePreconditions(current, req);
    const keep = this.resource.deletionPending?.(current) ?? false;
    await this.#admission?.({
      operation: 'DELETE',
      resource: this.resource.info,
      subresource: '',
      namespace,
      name,
      oldObject: current,
      dryRun: req.dryRun,
      user: req.user,
      ...(req.addAuditAnnotation !== undefined ? { addAuditAnnotation: req.addAuditAnnotation } : {}),
      ...(req.signal !== undefined ? { signal: req.signal } : {}),
    });
    const hookCtx: HookContext = { namespace, dryRun: req.dryRun, user: req.user };
    if (keep) {
      // The resource's own finalization (namespaces): the first DELETE starts it, later ones
      // answer the object as it is until it is done (upstream's namespace REST).
      if (current.metadata.deletionTimestamp !== undefined) return { object: current, deleted: false };
      return await this.#startFinalization(key, current, req);
    }
    // upstream Store.Delete: rest.BeforeDelete first on what was read...
    const first = this.#beforeDelete(cloneJson(current), req);
    if (first.pending) return { object: current, deleted: false, pendingGraceful: true };
    const pendingFinalizers = (current.metadata.finalizers ?? []).length > 0;
    const gc = deletionFinalizers(current.metadata.finalizers ?? [], req, this.#gcPolicy);
    if (!first.graceful && !pendingFinalizers && !gc.changed) {
      return await this.#deleteNow(key, current, hookCtx, req.dryRun);
    }
    // ...then updateForGracefulDeletionAndFinalizers: the same again in one CAS update.
    // What the last attempt of the update decided (upstream pendingFinalizers / lastGraceful).
    const state = { pendingFinalizers: false, lastGrace: 0 };
    const apply = (obj: KubeObject): KubeObject => {
      state.pendingFinalizers = false;
      state.lastGrace = 0;
      const b = this.#beforeDelete(obj, req);
      if (b.pending) throw new AlreadyDeleting();
      const next = deletionFinalizers(obj.metadata.finalizers ?? [], req, this.#gcPolicy);
      if (next.changed) {
        if (next.finalizers.length > 0) obj.metadata.finalizers = [...next.finalizers];
        else delete obj.metadata.finalizers;
      }
      const pending = (obj.metadata.finalizers ?? []).length > 0;
      if (!b.graceful) {
        if (!pending) throw new DeleteNow(obj);
        markAsDeleting(obj, this.#clock());
        state.pendingFinalizers = true;
        return obj;
      }
      state.pendingFinalizers = pending;
      state.lastGrace = b.grace;
      return obj;
    };
    let updated: KubeObject;
    try {
      if (req.dryRun) {
        updated = apply(cloneJson(current));
      } else {
        updated = await this.#storage.guaranteedUpdate(
          key,
          (obj) => {
            if (obj === undefined) throw apiErrors.notFound(this.#gr, name);
            return apply(obj);
          },
          { preconditions: this.#storagePreconditions(req) },
        );
      }
    } catch (err) {
      if (err instanceof AlreadyDeleting) return { object: current, deleted: false, pendingGraceful: true };
      if (err instanceof DeleteNow) return await this.#deleteNow(key, err.seen, hookCtx, req.dryRun);
      throw err;
    }
    if (state.pendingFinalizers || state.lastGrace > 0) return { object: updated, deleted: false };
    // Graceful deletion with a zero grace period: gone now (someone else may have won the race).
    if (req.dryRun) return { object: updated, deleted: true };
    try {
      return await this.#deleteNow(key, updated, hookCtx, false);
    } catch (err) {
      if (err instanceof StorageError && err.code === 'NotFound') return { object: updated, deleted: true };
      throw err;
    }
  }

  /** rest.BeforeDelete's precondition checks, naming the kind (not the resource). */
  #checkDeletePreconditions(current: KubeObject, req: DeleteRequest): void {
    const pre = req.preconditions;
    const name = current.metadata.name ?? '';
    const byKind = { group: this.resource.info.group, resource: this.resource.info.kind };
    if (pre?.uid !== undefined && pre.uid !== current.metadata.uid) {
      throw apiErrors.conflict(
        byKind,
        name,
        `the UID in the precondition (${pre.uid}) does not match the UID in record (${current.metadata.uid ?? ''}). The object might have been deleted and then recreated`,
      );
    }
    if (pre?.resourceVersion !== undefined && pre.resourceVersion !== current.metadata.resourceVersion) {
      throw apiErrors.conflict(
        byKind,
        name,
        `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${current.metadata.resourceVersion ?? ''}). The object might have been modified`,
      );
    }
  }

  #storagePreconditions(req: DeleteRequest): { uid?: string; resourceVersion?: string } {
    const pre = req.preconditions;
    return {
      ...(pre?.uid !== undefined ? { uid: pre.uid } : {}),
      ...(pre?.resourceVersion !== undefined ? { resourceVersion: pre.resourceVersion } : {}),
    };
  }

  get #gcPolicy(): GarbageCollectionPolicy {
    return this.#garbageCollectionPolicy ?? defaultGarbageCollectionPolicy(this.resource.info);
  }

  /** Removes the object as last seen (`seen`'s resourceVersion is the condition). */
  async #deleteNow(
    key: string,
    seen: KubeObject,
    hookCtx: HookContext,
    dryRun: boolean,
  ): Promise<DeleteResult> {
    if (dryRun) {
      await this.#hooks.beforeDelete?.(hookCtx, seen);
      return { object: seen, deleted: true };
    }
    let last: KubeObject;
    try {
      last = await this.#storage.delete(key, {
        preconditions: { resourceVersion: seen.metadata.resourceVersion! },
        ...this.#deleteSideWrites(hookCtx),
      });
    } catch (err) {
      await this.#afterWrite(hookCtx, { operation: 'DELETE', ok: false, error: err });
      throw err;
    }
    await this.#afterWrite(hookCtx, { operation: 'DELETE', ok: true, object: last });
    return { object: last, deleted: true };
  }

  /**
   * rest.BeforeDelete's graceful part on `obj` (mutated): whether deletion is graceful (the
   * resource has a grace period strategy), already pending with a grace period no longer than
   * the one asked for, and the grace period set.
   */
  #beforeDelete(obj: KubeObject, req: DeleteRequest): { graceful: boolean; pending: boolean; grace: number } {
    const graceful = this.resource.graceful;
    const none = { graceful: false, pending: false, grace: 0 };
    if (graceful === undefined) return none;
    const meta = obj.metadata;
    // Negative values count as 1 s on the delete path.
    const requested =
      req.gracePeriodSeconds !== undefined && req.gracePeriodSeconds < 0 ? 1 : req.gracePeriodSeconds;
    if (meta.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds < 0) {
      meta.deletionGracePeriodSeconds = 1;
    }
    if (meta.deletionTimestamp !== undefined) {
      const pendingGrace = meta.deletionGracePeriodSeconds ?? 0;
      // Already at zero (an update that succeeded before its delete failed): delete now.
      if (pendingGrace === 0) return none;
      // Only a shorter grace period may be given.
      if (requested === undefined || requested >= pendingGrace)
        return { graceful: false, pending: true, grace: 0 };
      const started = Date.parse(meta.deletionTimestamp) - pendingGrace * 1000;
      meta.deletionTimestamp = formatTime(new Date(started + requested * 1000));
      meta.deletionGracePeriodSeconds = requested;
      return { graceful: true, pending: false, grace: requested };
    }
    const grace = Math.max(0, graceful.gracePeriodSeconds(obj, requested));
    meta.deletionTimestamp = formatTime(new Date(this.#clock().getTime() + grace * 1000));
    meta.deletionGracePeriodSeconds = grace;
    if ((meta.generation ?? 0) > 0) meta.generation = meta.generation! + 1;
    return { graceful: true, pending: false, grace };
  }

  /** The first DELETE of an object its resource finalizes itself (a namespace turns Terminating). */
  async #startFinalization(key: string, current: KubeObject, req: DeleteRequest): Promise<DeleteResult> {
    const apply = (obj: KubeObject): KubeObject => {
      const meta = obj.metadata;
      if (meta.deletionTimestamp === undefined) meta.deletionTimestamp = formatTime(this.#clock());
      this.resource.beforeDelete?.(obj);
      const next = deletionFinalizers(meta.finalizers ?? [], req, 'DeleteDependents');
      if (next.changed) {
        if (next.finalizers.length > 0) meta.finalizers = [...next.finalizers];
        else delete meta.finalizers;
      }
      return obj;
    };
    if (req.dryRun) return { object: apply(cloneJson(current)), deleted: false };
    const updated = await this.#storage.guaranteedUpdate(
      key,
      (obj) => {
        if (obj === undefined) throw apiErrors.notFound(this.#gr, current.metadata.name ?? '');
        return apply(obj);
      },
      { preconditions: this.#storagePreconditions(req) },
    );
    return { object: updated, deleted: false };
  }

  async deleteCollection(namespace: string, list: ListRequest, req: DeleteRequest): Promise<KubeObject[]> {
    const { items } = await this.list(namespace, { ...list, limit: 0 });
    const out: KubeObject[] = [];
    const workers = 16;
    let next = 0;
    const run = async (): Promise<void> => {
      while (next < items.length) {
        const item = items[next++]!;
        try {
          out.push((await this.delete(item.metadata.namespace ?? '', item.metadata.name ?? '', req)).object);
        } catch (err) {
          if (!(err instanceof StatusError && err.code === 404)) throw err;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(workers, items.length) }, run));
    return out;
  }
}

/** Thrown out of an update that removed the last finalizer of an object being deleted. */
class EmptiedFinalizers extends Error {
  readonly updated: KubeObject;
  readonly current: KubeObject;
  constructor(updated: KubeObject, current: KubeObject) {
    super('finalizers emptied');
    this.updated = updated;
    this.current = current;
  }
}

/** Thrown out of a delete's update: a graceful deletion is already pending (upstream errAlreadyDeleting). */
class AlreadyDeleting extends Error {}

/** Thrown out of a delete's update: nothing keeps the object, delete it as seen (errDeleteNow). */
class DeleteNow extends Error {
  readonly seen: KubeObject;
  constructor(seen: KubeObject) {
    super('delete now');
    this.seen = seen;
  }
}

/**
 * upstream markAsDeleting: deletionTimestamp now unless an earlier one is set, grace period 0,
 * generation bumped when deletion starts.
 */
function markAsDeleting(obj: KubeObject, now: Date): void {
  const meta = obj.metadata;
  if (meta.deletionTimestamp === undefined && (meta.generation ?? 0) > 0) {
    meta.generation = meta.generation! + 1;
  }
  const existing = meta.deletionTimestamp;
  if (existing === undefined || Date.parse(existing) > now.getTime())
    meta.deletionTimestamp = formatTime(now);
  meta.deletionGracePeriodSeconds = 0;
}

function isExpired(err: unknown): boolean {
  return err instanceof StorageError && err.code === 'Expired';
}
