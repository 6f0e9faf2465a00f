/**
 * A stored resource seen at one served version: the generic store works in the storage version;
 * this converts request objects into it and results, lists and table rows out of it. For the
 * storage version itself every conversion is the identity and costs nothing.
 */
import type { ResourceInfo } from '../apis/resource.js';
import { apiErrors } from '../machinery/errors.js';
import {
  defaultFieldLabelConversion,
  FieldSelector,
  parseFieldSelector,
} from '../machinery/fields/selector.js';
import type { KubeObject } from '../machinery/object.js';
import type { TableConvertor } from '../machinery/table.js';
import type { DeleteResult, GenericStore, ListResult, UpdatedObject, WriteResult } from './generic/store.js';
import type { DeleteRequest, ListRequest, WriteRequest } from './options.js';
import type { RegistryResource, ServedVersion } from './resource.js';
import type { RESTStrategy } from './strategy.js';

/** The identity conversion of a resource served only at its storage version. */
export function storageVersionOf(info: ResourceInfo): ServedVersion {
  return { info, toStorage: (o) => o, fromStorage: (o) => o };
}

/** Each served version of a resource, with what discovery shows of it (the storage version's hash). */
export function servedVersionsOf(resource: RegistryResource): readonly ServedVersion[] {
  const storage = resource.info;
  const versions = resource.servedVersions ?? [storageVersionOf(storage)];
  return versions.map((v) => {
    const same = v.info.group === storage.group && v.info.version === storage.version;
    if (same) return v;
    const storageVersion = { group: storage.group, version: storage.version, kind: storage.kind };
    return { ...v, info: { ...v.info, storageVersion } };
  });
}

export class VersionedStore {
  readonly hub: GenericStore;
  readonly version: ServedVersion;
  readonly #identity: boolean;
  /** Table rows for objects of this version (printers work on storage-version objects). */
  readonly table: TableConvertor | undefined;

  constructor(hub: GenericStore, version: ServedVersion) {
    this.hub = hub;
    this.version = version;
    const storage = hub.resource.info;
    this.#identity =
      version.info.group === storage.group &&
      version.info.version === storage.version &&
      version.alwaysConvert !== true;
    const printer = hub.resource.table;
    this.table =
      version.table ??
      (printer === undefined || this.#identity
        ? printer
        : { columns: printer.columns, cells: (obj, now) => printer.cells(version.toStorage(obj), now) });
  }

  get resource(): RegistryResource {
    return this.hub.resource;
  }

  /** A stored object as this version. */
  out(obj: KubeObject): KubeObject {
    return this.#identity ? obj : this.version.fromStorage(obj);
  }

  /** A request object of this version as the storage version. */
  in(obj: KubeObject): KubeObject {
    return this.#identity ? obj : this.version.toStorage(obj);
  }

  /** Whether conversions need I/O (`outMany`/`inOne` must be used; `out`/`in` are stand-ins). */
  get convertsAsync(): boolean {
    return !this.#identity && this.version.convertAsync !== undefined;
  }

  /** Stored objects as this version, through the asynchronous conversion when there is one. */
  async outMany(objects: readonly KubeObject[]): Promise<KubeObject[]> {
    if (this.#identity) return [...objects];
    const conv = this.version.convertAsync;
    return conv !== undefined ? conv.fromStorage(objects) : objects.map((o) => this.version.fromStorage(o));
  }

  async #outOne(obj: KubeObject): Promise<KubeObject> {
    if (this.#identity || this.version.convertAsync === undefined) return this.out(obj);
    return (await this.version.convertAsync.fromStorage([obj]))[0]!;
  }

  async #inOne(obj: KubeObject): Promise<KubeObject> {
    if (this.#identity || this.version.convertAsync === undefined) return this.in(obj);
    return (await this.version.convertAsync.toStorage([obj]))[0]!;
  }

  async get(namespace: string, name: string, resourceVersion?: string): Promise<KubeObject> {
    return this.#outOne(await this.hub.get(namespace, name, resourceVersion));
  }

  /**
   * The request with its field selector in the storage version's labels: each label goes through
   * this version's field label conversion (upstream's list/watch/deletecollection handlers call
   * `ConvertFieldLabel` with the served kind); an unsupported one is a 400 with its message.
   */
  listRequest<T extends ListRequest>(req: T): T {
    const convert =
      this.version.fieldLabel ??
      (this.#identity ? this.resource.fieldLabels : undefined) ??
      defaultFieldLabelConversion;
    const selector = req.fieldSelector;
    if (selector === undefined || selector === '') return req;
    let parsed: FieldSelector;
    try {
      parsed = parseFieldSelector(selector);
    } catch {
      return req; // The generic store reports the parse error.
    }
    const converted = parsed.requirements().map((r) => {
      const result = convert(r.field);
      if ('error' in result) throw apiErrors.badRequest(result.error);
      return { ...r, field: result.label };
    });
    return { ...req, fieldSelector: new FieldSelector(converted).toString() };
  }

  async list(namespace: string, req: ListRequest): Promise<ListResult> {
    const r = await this.hub.list(namespace, this.listRequest(req));
    if (this.#identity) return r;
    // Converted items are new objects: the cache's encodings are not theirs.
    const items = await this.outMany(r.items);
    return {
      items,
      resourceVersion: r.resourceVersion,
      ...(r.continue !== undefined ? { continue: r.continue } : {}),
      ...(r.remainingItemCount !== undefined ? { remainingItemCount: r.remainingItemCount } : {}),
    };
  }

  /** The request's version for strategies, when it is not the storage version. */
  #request<T extends WriteRequest>(req: T): T {
    if (this.#identity) return req;
    return { ...req, requestVersion: { group: this.version.info.group, version: this.version.info.version } };
  }

  async create(namespace: string, obj: KubeObject, req: WriteRequest): Promise<WriteResult> {
    const r = await this.hub.create(namespace, await this.#inOne(obj), this.#request(req));
    return { ...r, object: await this.#outOne(r.object) };
  }

  async update(
    namespace: string,
    name: string,
    updatedObject: UpdatedObject,
    req: WriteRequest & {
      readonly strategy?: RESTStrategy;
      readonly subresource?: string;
      readonly forceAllowCreate?: boolean;
    },
  ): Promise<WriteResult> {
    const converted: UpdatedObject = this.#identity
      ? updatedObject
      : async (current) =>
          this.#inOne(await updatedObject(current === undefined ? undefined : await this.#outOne(current)));
    const r = await this.hub.update(namespace, name, converted, this.#request(req));
    return { ...r, object: await this.#outOne(r.object) };
  }

  async delete(namespace: string, name: string, req: DeleteRequest): Promise<DeleteResult> {
    const r = await this.hub.delete(namespace, name, req);
    return { ...r, object: await this.#outOne(r.object) };
  }

  async deleteCollection(namespace: string, list: ListRequest, req: DeleteRequest): Promise<KubeObject[]> {
    return this.outMany(await this.hub.deleteCollection(namespace, this.listRequest(list), req));
  }
}
