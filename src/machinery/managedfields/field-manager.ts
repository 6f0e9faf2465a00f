/**
 * The field manager of one endpoint (a resource or a subresource at one API version), as
 * apimachinery's FieldManager chain: decode managedFields (the request's, or the live object's),
 * skip tracking of objects whose managers were reset, attribute the change to its manager
 * (Update: what it changed; Apply: what it applies), strip object metadata from the writer's set,
 * cap Update managers at 10 ("ancient-changes"), stamp the time of a manager that changed
 * something, and encode the result back into `metadata.managedFields`.
 *
 * Objects are at the endpoint's API version; managers of other versions are compared through
 * `versionOf` (conversion and type), and dropped when the resource has no such version.
 */
import { apiErrors, StatusError } from '../errors.js';
import { isJsonObject } from '../../util/json.js';
import type { KubeObject } from '../object.js';
import { fieldElement, pathString } from '../fieldpath/path-element.js';
import type { Path } from '../fieldpath/path-element.js';
import { FieldSet } from '../fieldpath/set.js';
import type { Atom, TypeModel } from '../typed/atom.js';
import { TypedErrors } from '../typed/value.js';
import { compare } from '../typed/compare.js';
import { toFieldSet, validate } from '../typed/walk.js';
import { goJson } from '../fieldpath/value.js';
import {
  decodeManagedFields,
  emptyManaged,
  encodeManagedFields,
  managerIdentifier,
  parseIdentifier,
} from './managed-fields.js';
import type { Managed, ManagedFieldsEntry, VersionedSet } from './managed-fields.js';
import { ConflictsError, MissingVersion, Updater } from './updater.js';

/**
 * metadata.managedFields as the request sent them, before decoding (which drops an empty list,
 * the request to reset them).
 */
export interface SentManagedFields {
  readonly managedFields: unknown;
}

/** The managedFields of a request body as sent. */
export function sentManagedFields(body: unknown): SentManagedFields {
  const meta = isJsonObject(body) ? body['metadata'] : undefined;
  return { managedFields: isJsonObject(meta) ? meta['managedFields'] : undefined };
}

/**
 * What upstream checks of an applied configuration first (400s): its apiVersion is the
 * endpoint's, and it carries no managedFields.
 */
export function checkApplyConfig(config: unknown, apiVersion: string): void {
  const cfg = isJsonObject(config) ? config : {};
  const version = typeof cfg['apiVersion'] === 'string' ? cfg['apiVersion'] : '';
  if (version !== apiVersion) {
    throw apiErrors.badRequest(
      `Incorrect version specified in apply patch. Specified patch version: ${version}, expected: ${apiVersion}`,
    );
  }
  const meta = cfg['metadata'];
  if (isJsonObject(meta) && meta['managedFields'] !== undefined) {
    throw apiErrors.badRequest('metadata.managedFields must be nil');
  }
}

/** Update managers kept before the oldest are merged (upstream's DefaultMaxUpdateManagers). */
export const maxUpdateManagers = 10;
const currentOperation = 'current-operation';
/** kubectl's server-side apply manager, which upstream's last-applied handling is for. */
const kubectlManager = 'kubectl';
const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';
/** Upstream's TotalAnnotationSizeLimitB. */
const totalAnnotationSizeLimit = 256 * 1024;
const beforeFirstApply = 'before-first-apply';
const ancientChanges = 'ancient-changes';

/** Another API version of the resource: its type and the conversion of an endpoint object to it. */
export interface OtherVersion {
  readonly atom: Atom;
  readonly convert: (obj: unknown) => unknown;
}

export interface FieldManagerOptions {
  readonly model: TypeModel;
  /** The kind's definition at the endpoint's version (e.g. io.k8s.api.apps.v1.Deployment). */
  readonly definition: string;
  /** The endpoint's group/version ("apps/v1", "v1"). */
  readonly apiVersion: string;
  readonly kind: string;
  /** "" for the resource itself, else the subresource ("status"). */
  readonly subresource: string;
  /** The strategy's reset fields at the endpoint's version: owned by nobody. */
  readonly resetFields?: FieldSet | undefined;
  /** Another API version of the resource, or undefined when it has none such. */
  readonly versionOf?: ((apiVersion: string) => OtherVersion | undefined) | undefined;
  /** Now, as managedFields times are written (RFC 3339, seconds). */
  readonly now?: () => string;
}

const metaPaths: readonly Path[] = [
  [fieldElement('apiVersion')],
  [fieldElement('kind')],
  [fieldElement('metadata')],
  ...[
    'name',
    'namespace',
    'creationTimestamp',
    'selfLink',
    'uid',
    'clusterName',
    'generation',
    'managedFields',
    'resourceVersion',
  ].map((f) => [fieldElement('metadata'), fieldElement(f)]),
];
const strippedMeta = FieldSet.of(...metaPaths);

let lastSecond = -1;
let lastSecondText = '';

/** Now in RFC 3339 with seconds (every tracked write asks; the text changes once a second). */
function nowSeconds(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    lastSecondText = new Date(second * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
  }
  return lastSecondText;
}

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

type Managers = Map<string, VersionedSet>;

export class FieldManager {
  readonly #o: FieldManagerOptions;
  readonly #atom: Atom;
  readonly #updater: Updater;
  readonly #now: () => string;
  /** The kind's empty object, frozen: what an update of a new object is compared with. */
  #emptyFrozen: KubeObject | undefined;

  constructor(o: FieldManagerOptions) {
    this.#o = o;
    const atom = o.model.definition(o.definition);
    if (atom === undefined) throw new Error(`no schema for ${o.definition}`);
    this.#atom = atom;
    this.#now = o.now ?? nowSeconds;
    this.#updater = new Updater({
      atomFor: (v) => (v === o.apiVersion ? atom : this.#other(v).atom),
      convert: (obj, v) => (v === o.apiVersion ? obj : this.#other(v).convert(obj)),
      ignored: (v) => (v === o.apiVersion ? o.resetFields : undefined),
    });
  }

  #other(apiVersion: string): OtherVersion {
    const other = this.#o.versionOf?.(apiVersion);
    if (other === undefined)
      throw new MissingVersion(`no corresponding type for ${apiVersion}, Kind=${this.#o.kind}`);
    return other;
  }

  /** The kind's empty object at the endpoint's version (what a create starts from). */
  #empty(): KubeObject {
    const zero = this.#o.model.zero(this.#o.definition) ?? {};
    return { ...zero, apiVersion: this.#o.apiVersion, kind: this.#o.kind } as KubeObject;
  }

  /** `#empty()` shared and frozen, for comparisons only (a merge may hand its parts on). */
  #emptyToCompare(): KubeObject {
    return (this.#emptyFrozen ??= deepFreeze(this.#empty()));
  }

  /**
   * Records a create or update by `manager` (the fieldManager parameter or the user agent's
   * prefix): `next` with its managedFields. As upstream's UpdateNoErrors, a failure leaves the
   * object without managedFields rather than failing the write.
   */
  update(
    live: KubeObject | undefined,
    next: KubeObject,
    manager: string,
    sent?: SentManagedFields,
  ): KubeObject {
    // The object keeps its keys in place (a no-op write must store the same bytes).
    const out = { ...next, metadata: { ...next.metadata } };
    const untracked = (): KubeObject => {
      delete out.metadata.managedFields;
      return out;
    };
    let managed: Managed;
    try {
      managed = this.#decodeLiveOrNew(live, next, sent);
    } catch {
      return untracked();
    }
    // skipNonApplied: an existing object whose managers were reset stays untracked.
    if (managed.fields.size === 0 && live !== undefined && (live.metadata.uid ?? '') !== '')
      return untracked();
    const compared = { ...out, metadata: { ...out.metadata } };
    delete compared.metadata.managedFields;
    try {
      this.#updateManaged(
        live ?? this.#emptyToCompare(),
        compared,
        managed,
        manager === '' ? 'unknown' : manager,
      );
    } catch {
      return untracked();
    }
    this.#encode(out, managed);
    return out;
  }

  #decodeLiveOrNew(
    live: KubeObject | undefined,
    next: KubeObject,
    sent: SentManagedFields | undefined,
  ): Managed {
    const fromLive = (): Managed => {
      try {
        return decodeManagedFields(entriesOf(live));
      } catch {
        return emptyManaged();
      }
    };
    if (this.#o.subresource !== '') return fromLive();
    const asSent = sent !== undefined ? sent.managedFields : next.metadata.managedFields;
    if (Array.isArray(asSent) && (asSent.length === 0 || (asSent.length === 1 && isEmptyEntry(asSent[0])))) {
      return emptyManaged();
    }
    try {
      const m = decodeManagedFields(entriesOf(next));
      if (m.fields.size > 0) return m;
    } catch {
      // Invalid managedFields from a client are replaced by the live ones.
    }
    return fromLive();
  }

  /** capManagers ∘ buildManagerInfo ∘ managedFieldsUpdater ∘ stripMeta ∘ structured merge, for Update. */
  #updateManaged(live: KubeObject, next: KubeObject, managed: Managed, manager: string): void {
    const id = managerIdentifier({
      manager,
      operation: 'Update',
      apiVersion: this.#o.apiVersion,
      subresource: this.#o.subresource,
    });
    const fields = this.#updater.update(live, next, this.#o.apiVersion, managed.fields, currentOperation);
    const current = fields.get(currentOperation);
    if (current !== undefined) {
      fields.delete(currentOperation);
      const set = current.set.difference(strippedMeta);
      if (!set.empty) {
        const previous = fields.get(id);
        fields.set(id, {
          set: previous === undefined ? set : set.union(previous.set),
          apiVersion: current.apiVersion,
          applied: false,
        });
        managed.times.set(id, this.#now());
      }
    }
    replaceFields(managed, fields);
    this.#capManagers(managed);
  }

  /** capManagers: past 10 Update managers, the oldest of a version are merged into "ancient-changes". */
  #capManagers(managed: Managed): void {
    const updaters = [...managed.fields].filter(([, vs]) => !vs.applied).map(([id]) => id);
    if (updaters.length <= maxUpdateManagers) return;
    const seconds = (id: string): number => {
      const t = managed.times.get(id);
      return t === undefined ? 0 : Math.floor(Date.parse(t) / 1000);
    };
    updaters.sort((a, b) => seconds(a) - seconds(b) || (a < b ? -1 : a > b ? 1 : 0));
    let count = updaters.length;
    const firstOfVersion = new Map<string, string>();
    for (const id of updaters) {
      if (count <= maxUpdateManagers) break;
      const vs = managed.fields.get(id)!;
      const bucket = managerIdentifier({
        manager: ancientChanges,
        operation: 'Update',
        apiVersion: vs.apiVersion,
      });
      if (!managed.fields.has(bucket)) {
        const first = firstOfVersion.get(vs.apiVersion);
        if (first === undefined) {
          firstOfVersion.set(vs.apiVersion, id);
          continue;
        }
        managed.fields.set(bucket, managed.fields.get(first)!);
        managed.fields.delete(first);
        managed.times.delete(first);
      }
      const merged = managed.fields.get(bucket)!.set.union(vs.set);
      managed.fields.set(bucket, { set: merged, apiVersion: vs.apiVersion, applied: false });
      managed.fields.delete(id);
      managed.times.set(bucket, managed.times.get(id));
      managed.times.delete(id);
      count--;
    }
  }

  /**
   * Applies `config` (the body of an apply patch, already parsed) by `manager` to `live` (undefined:
   * the object does not exist, the apply creates it). Returns the object to store (before
   * defaulting), or throws the Status upstream answers (400, 409 with the conflicts, 500).
   */
  apply(live: KubeObject | undefined, config: unknown, manager: string, force: boolean): KubeObject {
    const cfg = isJsonObject(config) ? config : {};
    checkApplyConfig(cfg, this.#o.apiVersion);
    const patchVersion = typeof cfg['apiVersion'] === 'string' ? cfg['apiVersion'] : '';
    const meta = isJsonObject(cfg['metadata']) ? cfg['metadata'] : {};
    const base = live ?? this.#empty();
    let managed: Managed;
    try {
      managed = decodeManagedFields(entriesOf(live));
    } catch (err) {
      throw new StatusError(500, '', `failed to decode managed fields: ${messageOf(err)}`);
    }
    const kind = typeof cfg['kind'] === 'string' ? cfg['kind'] : '';
    const where = `${stringOf(meta['namespace'])}/${stringOf(meta['name'])}; ${gvkString(patchVersion, kind)}`;
    if (kind !== this.#o.kind) {
      throw new StatusError(
        500,
        '',
        `failed to create typed patch object (${where}): no corresponding type for ${gvkString(patchVersion, kind)}`,
      );
    }
    try {
      validate(cfg, this.#atom);
    } catch (err) {
      if (err instanceof TypedErrors) {
        throw new StatusError(500, '', `failed to create typed patch object (${where}): ${err.message}`);
      }
      throw err;
    }
    const liveObj: KubeObject = { ...base, metadata: { ...base.metadata } };
    delete liveObj.metadata.managedFields;
    // v1.27's field manager converts the live object as strictly as the patch (structured-merge-diff
    // v4.2.3 has no AllowDuplicates yet): a stored list-map with duplicate keys, which create and
    // update allow with a warning, makes every apply to the object fail with this plain error.
    if (live !== undefined) {
      try {
        validate(liveObj, this.#atom);
      } catch (err) {
        if (err instanceof TypedErrors) {
          const liveWhere = `${stringOf(base.metadata.namespace)}/${stringOf(base.metadata.name)}; ${gvkString(this.#o.apiVersion, this.#o.kind)}`;
          throw new StatusError(500, '', `failed to create typed live object (${liveWhere}): ${err.message}`);
        }
        throw err;
      }
    }
    // skipNonApplied: an untracked existing object's fields go to "before-first-apply" first.
    if (managed.fields.size === 0 && live !== undefined) {
      this.#updateManaged(this.#emptyToCompare(), liveObj, managed, beforeFirstApply);
    }
    const id = managerIdentifier({ manager, operation: 'Apply', subresource: this.#o.subresource });
    let result: { object: unknown; managers: Managers };
    const attempt = (forced: boolean): { object: unknown; managers: Managers } =>
      this.#updater.apply(liveObj, cfg, this.#o.apiVersion, new Map(managed.fields), id, forced);
    try {
      try {
        result = attempt(force);
      } catch (err) {
        // lastAppliedManager: kubectl's apply may take fields whose live values are still what
        // its client-side apply last applied (the last-applied-configuration annotation).
        if (!(err instanceof ConflictsError) || manager !== kubectlManager) throw err;
        const allowed = this.#lastAppliedUnchanged(liveObj);
        if (allowed === undefined) throw err;
        const rest = err.conflicts.filter((c) => !allowed.has(c.path));
        if (rest.length > 0) throw new ConflictsError(rest);
        result = attempt(true);
      }
    } catch (err) {
      if (err instanceof ConflictsError) throw conflictError(err);
      if (err instanceof TypedErrors)
        throw new StatusError(500, '', `failed to merge config: ${err.message}`);
      throw err;
    }
    const fields = result.managers;
    const mine = fields.get(id);
    if (mine !== undefined) {
      const set = mine.set.difference(strippedMeta);
      if (set.empty) fields.delete(id);
      else fields.set(id, { ...mine, set });
    }
    replaceFields(managed, fields);
    let out: KubeObject;
    if (result.object === undefined) out = liveObj;
    else {
      out = result.object as KubeObject;
      if (fields.has(id)) managed.times.set(id, this.#now());
    }
    out = { ...out, metadata: inLiveOrder(isJsonObject(out.metadata) ? out.metadata : {}, live) };
    if (manager === kubectlManager) updateLastApplied(out, cfg);
    this.#encode(out, managed);
    return out;
  }

  /**
   * The fields of the live object's last-applied-configuration whose live values are still the
   * ones it records, or undefined when there is no usable annotation.
   */
  #lastAppliedUnchanged(live: KubeObject): FieldSet | undefined {
    const text = live.metadata.annotations?.[lastAppliedAnnotation];
    if (text === undefined || text === '') return undefined;
    try {
      const last = JSON.parse(text) as unknown;
      if (!isJsonObject(last) || last['apiVersion'] !== this.#o.apiVersion) return undefined;
      validate(last, this.#atom);
      const lastSet = toFieldSet(last, this.#atom);
      const c = compare(last, live, this.#atom);
      return lastSet.difference(c.modified).difference(c.added).difference(c.removed);
    } catch {
      return undefined;
    }
  }

  #encode(obj: KubeObject, managed: Managed): void {
    const entries = encodeManagedFields(managed);
    if (entries === undefined) delete obj.metadata.managedFields;
    else
      obj.metadata.managedFields = entries as unknown as NonNullable<KubeObject['metadata']['managedFields']>;
  }
}

/** Metadata with its keys in the live object's order (managedFields where it was), then new ones. */
function inLiveOrder(meta: Record<string, unknown>, live: KubeObject | undefined): KubeObject['metadata'] {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(live?.metadata ?? {})) {
    if (k === 'managedFields') out[k] = undefined;
    else if (Object.hasOwn(meta, k)) out[k] = meta[k];
  }
  for (const [k, v] of Object.entries(meta)) if (!Object.hasOwn(out, k)) out[k] = v;
  return out as KubeObject['metadata'];
}

/**
 * lastAppliedUpdater: after kubectl's server-side apply, an object that keeps a client-side
 * last-applied-configuration gets the applied configuration there (without that annotation), as
 * Go's JSON encoder writes it (sorted keys, a final newline); dropped if annotations grow too big.
 */
function updateLastApplied(obj: KubeObject, config: Record<string, unknown>): void {
  const annotations = obj.metadata.annotations;
  if (annotations?.[lastAppliedAnnotation] === undefined || annotations[lastAppliedAnnotation] === '') return;
  const meta = isJsonObject(config['metadata']) ? { ...config['metadata'] } : {};
  const cfgAnnotations = isJsonObject(meta['annotations']) ? { ...meta['annotations'] } : undefined;
  if (cfgAnnotations !== undefined) {
    delete cfgAnnotations[lastAppliedAnnotation];
    if (Object.keys(cfgAnnotations).length === 0) delete meta['annotations'];
    else meta['annotations'] = cfgAnnotations;
  }
  const value = `${goJson({ ...config, metadata: meta })}\n`;
  const next = { ...annotations, [lastAppliedAnnotation]: value };
  let size = 0;
  for (const [k, v] of Object.entries(next)) size += k.length + v.length;
  if (size > totalAnnotationSizeLimit) {
    const without = { ...annotations };
    delete without[lastAppliedAnnotation];
    obj.metadata.annotations = without;
  } else obj.metadata.annotations = next;
}

function replaceFields(managed: Managed, fields: Managers): void {
  if (fields !== managed.fields) {
    managed.fields.clear();
    for (const [k, v] of fields) managed.fields.set(k, v);
  }
  for (const id of [...managed.times.keys()]) if (!managed.fields.has(id)) managed.times.delete(id);
}

function entriesOf(obj: KubeObject | undefined): ManagedFieldsEntry[] {
  const list = obj?.metadata.managedFields;
  return Array.isArray(list) ? (list as unknown as ManagedFieldsEntry[]) : [];
}

function isEmptyEntry(e: unknown): boolean {
  return isJsonObject(e) && Object.values(e).every((v) => v === undefined || v === '' || v === null);
}

function stringOf(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** schema.GroupVersionKind's String(): "apps/v1, Kind=Deployment", "/v1, Kind=Pod". */
function gvkString(apiVersion: string, kind: string): string {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  return `${group}/${version}, Kind=${kind}`;
}

/** apimachinery's printManager: how a conflict names a manager. */
export function printManager(id: string): string {
  let info: ReturnType<typeof parseIdentifier>;
  try {
    info = parseIdentifier(id);
  } catch {
    return JSON.stringify(id);
  }
  let s = JSON.stringify(info.manager ?? '');
  if ((info.subresource ?? '') !== '') s = `${s} with subresource ${JSON.stringify(info.subresource)}`;
  if (info.operation === 'Update') s = `${s} using ${info.apiVersion ?? ''}`;
  return s;
}

/** The 409 of an apply with conflicts (apimachinery's NewConflictError). */
export function conflictError(err: ConflictsError): StatusError {
  const conflicts = err.conflicts;
  const causes = conflicts.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${printManager(c.manager)}`,
    field: pathString(c.path),
  }));
  let message: string;
  if (conflicts.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0]!.manager)}: ${pathString(conflicts[0]!.path)}`;
  } else {
    const byManager = new Map<string, string[]>();
    for (const c of conflicts)
      byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), pathString(c.path)]);
    const lines: string[] = [];
    for (const m of [...byManager.keys()].sort()) {
      lines.push(`conflicts with ${printManager(m)}:`);
      for (const p of byManager.get(m)!) lines.push(`- ${p}`);
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return new StatusError(409, 'Conflict', message, { causes });
}
