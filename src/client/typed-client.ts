/**
 * Typed clients per resource (client-go's typed clientset) over a RestClient:
 * `typedClients(rest).core.v1.pods.get('p', { namespace: 'ns' })` answers a `coreV1.Pod`. The
 * types and the table of resources are generated from the declarative schemas and the served
 * resources (scripts/gen-client-types.mjs → ./types/).
 *
 * The JSON boundary: the server is trusted to answer with the kind it declares for the resource
 * (it validates and serves with the schemas these types come from), so its JSON is taken as the
 * type after a cheap check of `kind`; nothing deeper is validated. A wrong kind is an Error, an
 * API refusal an ApiError (as from RestClient), a missing name or namespace a TypeError.
 */
import { isJsonObject } from '../util/json.js';
import type { JsonObject } from '../util/json.js';
import { applyObject } from './applyconfigurations/builder.js';
import type { ApplyInput } from './applyconfigurations/builder.js';
import type { RestClient } from './rest-client.js';
import { queryString, resourcePath } from './typed-client-paths.js';
import type {
  KubeObjectLike,
  ListLike,
  NoSubresources,
  ResourceDescription,
  ResourceType,
} from './typed-client-resource.js';
import { clientset } from './types/clientset.js';
import type { Status } from './types/meta.v1.js';

/** What the typed clients use of a RestClient. */
export type RestLike = Pick<RestClient, 'request' | 'watch'>;

export type PatchType = 'merge' | 'strategic' | 'json';

const patchContentTypes: Readonly<Record<PatchType, string>> = {
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  json: 'application/json-patch+json',
};

/** The content type of a server-side apply: the body is JSON, which is YAML. */
const applyPatchContentType = 'application/apply-patch+yaml';

/** The namespace of a namespaced resource's objects (none for cluster-scoped ones). */
export interface Scope {
  readonly namespace?: string;
}

export interface GetOptions extends Scope {
  readonly resourceVersion?: string;
  readonly signal?: AbortSignal;
}

interface Selection {
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
}

/** Without a namespace, a namespaced resource is listed across all namespaces. */
export interface ListOptions extends Scope, Selection {
  readonly limit?: number;
  readonly continue?: string;
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: 'Exact' | 'NotOlderThan';
  readonly signal?: AbortSignal;
}

export interface WriteOptions {
  /** `dryRun=All`. */
  readonly dryRun?: boolean;
  readonly fieldManager?: string;
  readonly signal?: AbortSignal;
}

/**
 * Options of a server-side apply (client-go's metav1.ApplyOptions). The namespace is the
 * configuration's `metadata.namespace`, else this `namespace`.
 */
export interface ApplyOptions extends Scope {
  /** Who owns the applied fields; required (an Error without it, as client-go). */
  readonly fieldManager: string;
  /** `force=true`: take over the fields other managers own instead of failing with a conflict. */
  readonly force?: boolean;
  /** `dryRun=All`. */
  readonly dryRun?: boolean;
  readonly signal?: AbortSignal;
}

export interface DeleteOptions extends Scope {
  readonly propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  readonly gracePeriodSeconds?: number;
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  readonly dryRun?: boolean;
  readonly signal?: AbortSignal;
}

export type DeleteCollectionOptions = DeleteOptions & Selection & { readonly resourceVersion?: string };

export interface TypedWatchOptions extends Scope, Selection {
  readonly resourceVersion?: string;
  readonly allowWatchBookmarks?: boolean;
  readonly timeoutSeconds?: number;
}

/** A watch event; a BOOKMARK's object carries only `metadata.resourceVersion` (and annotations). */
export type TypedWatchEvent<T> =
  | { readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK'; readonly object: T }
  | { readonly type: 'ERROR'; readonly object: Status };

function checkKind(o: JsonObject, kind: string): void {
  const got = o['kind'];
  if (got !== undefined && got !== kind) {
    throw new Error(`expected a ${kind} from the server, got ${JSON.stringify(got)}`);
  }
}

function isStatus(o: JsonObject): boolean {
  return o['kind'] === 'Status';
}

/** The JSON boundary for Status answers (every Status field is optional: no assertion needed). */
function asStatus(o: JsonObject): Status {
  return o;
}

function writeQuery(o: WriteOptions): string {
  return queryString({ dryRun: o.dryRun === true ? 'All' : undefined, fieldManager: o.fieldManager });
}

/** The body of a DELETE: meta/v1 DeleteOptions with the given fields. */
function deleteBody(o: DeleteOptions): JsonObject {
  const body: JsonObject = { apiVersion: 'v1', kind: 'DeleteOptions' };
  if (o.propagationPolicy !== undefined) body['propagationPolicy'] = o.propagationPolicy;
  if (o.gracePeriodSeconds !== undefined) body['gracePeriodSeconds'] = o.gracePeriodSeconds;
  if (o.preconditions !== undefined) body['preconditions'] = { ...o.preconditions };
  if (o.dryRun === true) body['dryRun'] = ['All'];
  return body;
}

function signalOf(o: { readonly signal?: AbortSignal }): { signal?: AbortSignal } {
  return o.signal === undefined ? {} : { signal: o.signal };
}

/** One subresource of one object (`pods/p/eviction`, `deployments/d/scale`, ...). */
export class SubresourceClient<U> {
  readonly path: string;
  readonly #rest: RestLike;
  readonly #kind: string;

  constructor(rest: RestLike, path: string, kind: string) {
    this.#rest = rest;
    this.path = path;
    this.#kind = kind;
  }

  async get(o: { readonly resourceVersion?: string; readonly signal?: AbortSignal } = {}): Promise<U> {
    const q = queryString({ resourceVersion: o.resourceVersion });
    return this.#decode(await this.#rest.request('GET', this.path + q, signalOf(o)));
  }

  /** POST; undefined when the server answers a Status (eviction, binding), else the answer (token). */
  async create(body: U, o: WriteOptions = {}): Promise<U | undefined> {
    const answer = await this.#rest.request('POST', this.path + writeQuery(o), { body, ...signalOf(o) });
    return isStatus(answer) ? undefined : this.#decode(answer);
  }

  async update(body: U, o: WriteOptions = {}): Promise<U> {
    const answer = await this.#rest.request('PUT', this.path + writeQuery(o), { body, ...signalOf(o) });
    return this.#decode(answer);
  }

  async patch(patch: object, type: PatchType, o: WriteOptions = {}): Promise<U> {
    const answer = await this.#rest.request('PATCH', this.path + writeQuery(o), {
      body: patch,
      contentType: patchContentTypes[type],
      ...signalOf(o),
    });
    return this.#decode(answer);
  }

  /** The JSON boundary (see the module comment). */
  #decode(o: JsonObject): U {
    checkKind(o, this.#kind);
    return o as unknown as U;
  }
}

/** The typed client of one resource: `T` its kind, `L` its list kind, `S` its subresources. */
export class ResourceClient<T extends KubeObjectLike, L extends ListLike<T>, S> {
  readonly resource: ResourceDescription;
  readonly #rest: RestLike;

  constructor(rest: RestLike, resource: ResourceType<T, L, S>) {
    this.#rest = rest;
    this.resource = resource;
  }

  async get(name: string, o: GetOptions = {}): Promise<T> {
    const path = resourcePath(this.resource, { namespace: o.namespace, name });
    const q = queryString({ resourceVersion: o.resourceVersion });
    return this.#object(await this.#rest.request('GET', path + q, signalOf(o)));
  }

  async list(o: ListOptions = {}): Promise<L> {
    const path = resourcePath(this.resource, { namespace: o.namespace });
    const q = queryString({
      labelSelector: o.labelSelector,
      fieldSelector: o.fieldSelector,
      limit: o.limit,
      continue: o.continue,
      resourceVersion: o.resourceVersion,
      resourceVersionMatch: o.resourceVersionMatch,
    });
    return this.#list(await this.#rest.request('GET', path + q, signalOf(o)));
  }

  /** POST; the namespace is `o.namespace`, else the object's. */
  async create(obj: T, o: WriteOptions & Scope = {}): Promise<T> {
    const namespace = this.resource.namespaced ? (o.namespace ?? obj.metadata?.namespace) : o.namespace;
    if (this.resource.namespaced && (namespace === undefined || namespace === '')) {
      throw new TypeError(`${this.resource.resource} is namespaced: create needs a namespace`);
    }
    const path = resourcePath(this.resource, { namespace });
    return this.#object(
      await this.#rest.request('POST', path + writeQuery(o), { body: obj, ...signalOf(o) }),
    );
  }

  /** PUT of the object at its own name and namespace. */
  async update(obj: T, o: WriteOptions = {}): Promise<T> {
    return this.#object(await this.#put(obj, undefined, o));
  }

  /** PUT of the status subresource (404 when the resource has none). */
  async updateStatus(obj: T, o: WriteOptions = {}): Promise<T> {
    return this.#object(await this.#put(obj, 'status', o));
  }

  /** PATCH; `patch` is a JSON array of operations for 'json', an object otherwise. */
  async patch(name: string, patch: object, type: PatchType, o: WriteOptions & Scope = {}): Promise<T> {
    const path = resourcePath(this.resource, { namespace: o.namespace, name });
    const answer = await this.#rest.request('PATCH', path + writeQuery(o), {
      body: patch,
      contentType: patchContentTypes[type],
      ...signalOf(o),
    });
    return this.#object(answer);
  }

  /**
   * Server-side apply (client-go's Apply): a PATCH of content type `application/apply-patch+yaml`
   * whose body is the configuration's JSON (a builder of ./applyconfigurations, e.g.
   * `appsV1.deployment('d', 'ns')`, or the plain object), at `metadata.name` in `metadata.namespace`
   * (else `o.namespace`), as `o.fieldManager`. A configuration of another kind or apiVersion, one
   * without a name, or two different namespaces are TypeErrors.
   */
  async apply(config: ApplyInput<T>, o: ApplyOptions): Promise<T> {
    return this.#object(await this.#apply(config, undefined, o));
  }

  /**
   * Server-side apply of the status subresource (client-go's ApplyStatus); only the status (and
   * metadata) of the configuration count. A TypeError for a resource without a status subresource.
   */
  async applyStatus(config: 'status' extends keyof S ? ApplyInput<T> : never, o: ApplyOptions): Promise<T> {
    if (this.resource.subresources['status'] === undefined) {
      throw new TypeError(`${this.resource.resource} has no status subresource`);
    }
    return this.#object(await this.#apply(config, 'status', o));
  }

  /**
   * DELETE; answers the object while it is still there (finalizers, graceful deletion) or when the
   * resource returns deleted objects, undefined when the server answers a Status (it is gone).
   */
  async delete(name: string, o: DeleteOptions = {}): Promise<T | undefined> {
    const path = resourcePath(this.resource, { namespace: o.namespace, name });
    const answer = await this.#rest.request('DELETE', path, { body: deleteBody(o), ...signalOf(o) });
    return isStatus(answer) ? undefined : this.#object(answer);
  }

  /** DELETE of the collection (one namespace, or all); answers the deleted objects. */
  async deleteCollection(o: DeleteCollectionOptions = {}): Promise<L> {
    const path = resourcePath(this.resource, { namespace: o.namespace });
    const q = queryString({
      labelSelector: o.labelSelector,
      fieldSelector: o.fieldSelector,
      resourceVersion: o.resourceVersion,
    });
    const answer = await this.#rest.request('DELETE', path + q, { body: deleteBody(o), ...signalOf(o) });
    return this.#list(answer);
  }

  /** A watch until `signal` aborts or the server ends it (as RestClient.watch). */
  async *watch(signal: AbortSignal, o: TypedWatchOptions = {}): AsyncGenerator<TypedWatchEvent<T>> {
    const path = resourcePath(this.resource, { namespace: o.namespace });
    const q = queryString({
      watch: 1,
      labelSelector: o.labelSelector,
      fieldSelector: o.fieldSelector,
      resourceVersion: o.resourceVersion,
      allowWatchBookmarks: o.allowWatchBookmarks,
      timeoutSeconds: o.timeoutSeconds,
    });
    for await (const e of this.#rest.watch(path + q, signal)) {
      if (e.type === 'ERROR') yield { type: 'ERROR', object: asStatus(e.object) };
      else yield { type: e.type, object: this.#object(e.object) };
    }
  }

  /** One object's subresource, e.g. `subresource('p', 'eviction', { namespace })`. */
  subresource<K extends keyof S & string>(name: string, sub: K, scope: Scope = {}): SubresourceClient<S[K]> {
    const kind = this.resource.subresources[sub];
    if (kind === undefined) throw new TypeError(`${this.resource.resource} has no subresource ${sub}`);
    const path = resourcePath(this.resource, { namespace: scope.namespace, name, subresource: sub });
    return new SubresourceClient(this.#rest, path, kind);
  }

  #put(obj: T, subresource: string | undefined, o: WriteOptions): Promise<JsonObject> {
    const name = obj.metadata?.name;
    if (name === undefined || name === '') {
      throw new TypeError(`${this.resource.resource}: update needs metadata.name`);
    }
    const namespace = this.resource.namespaced ? obj.metadata?.namespace : undefined;
    const path = resourcePath(this.resource, { namespace, name, subresource });
    return this.#rest.request('PUT', path + writeQuery(o), { body: obj, ...signalOf(o) });
  }

  #apply(config: ApplyInput<T>, subresource: 'status' | undefined, o: ApplyOptions): Promise<JsonObject> {
    const r = this.resource;
    const what = `${r.resource}: ${subresource === undefined ? 'apply' : 'applyStatus'}`;
    // (Checked at run time too: JavaScript callers, and '' passes the type.)
    if (typeof o.fieldManager !== 'string' || o.fieldManager === '') {
      throw new Error(`${what} needs a fieldManager (server-side apply requires one)`);
    }
    const body: unknown = applyObject(config);
    if (!isJsonObject(body)) throw new TypeError(`${what}: the configuration is not an object`);
    const apiVersion = r.group === '' ? r.version : `${r.group}/${r.version}`;
    for (const [field, want] of [
      ['apiVersion', apiVersion],
      ['kind', r.kind],
    ] as const) {
      const got = body[field];
      if (got !== undefined && got !== want) {
        throw new TypeError(`${what}: ${field} ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
      }
    }
    const meta = isJsonObject(body['metadata']) ? body['metadata'] : {};
    const name = meta['name'];
    if (typeof name !== 'string' || name === '') throw new TypeError(`${what} needs metadata.name`);
    let namespace = o.namespace;
    const own = meta['namespace'];
    if (r.namespaced && typeof own === 'string' && own !== '') {
      if (namespace !== undefined && namespace !== '' && namespace !== own) {
        throw new TypeError(`${what}: metadata.namespace ${own} but namespace ${namespace} given`);
      }
      namespace = own;
    }
    const path = resourcePath(r, { namespace, name, subresource });
    const q = queryString({
      dryRun: o.dryRun === true ? 'All' : undefined,
      fieldManager: o.fieldManager,
      force: o.force === true ? true : undefined,
    });
    return this.#rest.request('PATCH', path + q, {
      body,
      contentType: applyPatchContentType,
      ...signalOf(o),
    });
  }

  /** The JSON boundary (see the module comment). */
  #object(o: JsonObject): T {
    checkKind(o, this.resource.kind);
    return o as unknown as T;
  }

  #list(o: JsonObject): L {
    checkKind(o, this.resource.listKind ?? `${this.resource.kind}List`);
    return o as unknown as L;
  }
}

/** The client of a create-only resource (the reviews). */
export type CreateOnlyClient<T extends KubeObjectLike> = Pick<
  ResourceClient<T, never, NoSubresources>,
  'resource' | 'create'
>;

/** How the generated clientset builds its clients. */
export interface ClientMaker {
  full<T extends KubeObjectLike, L extends ListLike<T>, S>(r: ResourceType<T, L, S>): ResourceClient<T, L, S>;
  createOnly<T extends KubeObjectLike>(r: ResourceType<T, never, NoSubresources>): CreateOnlyClient<T>;
}

export type Clientset = ReturnType<typeof clientset>;

/** Typed clients of every served resource: `.core.v1.pods`, `.apps.v1.deployments`, ... */
export function typedClients(rest: RestLike): Clientset {
  return clientset({
    full: (r) => new ResourceClient(rest, r),
    createOnly: (r) => new ResourceClient(rest, r),
  });
}
