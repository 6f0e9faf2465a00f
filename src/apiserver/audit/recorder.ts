/**
 * One request's audit event while it is served (upstream's AuditContext.Event): the audit filter
 * creates it when the policy's level is above None, the stages emit snapshots of it, and handlers
 * add the request and response objects through the seams below (upstream LogRequestObject,
 * LogRequestPatch, LogResponseObject). The seams look the recorder up by the request or response
 * object: with auditing off, or the level below what a seam needs, they cost one WeakMap lookup.
 */
import type { JsonObject } from '../../util/json.js';
import type {
  AuditEvent,
  AuditObjectReference,
  AuditResponseStatus,
  AuditSink,
  AuditUserInfo,
} from './event.js';
import { microTime, nowMicros } from './event.js';
import { observeAuditEvent } from './metrics.js';
import type { AuditLevel, AuditStage, RequestAuditConfig } from './policy.js';
import { levelAtLeast } from './policy.js';

export interface AuditRecorderInit {
  readonly config: RequestAuditConfig;
  readonly sink: AuditSink;
  readonly auditID: string;
  readonly requestURI: string;
  readonly verb: string;
  readonly user: AuditUserInfo;
  readonly sourceIPs: readonly string[];
  readonly userAgent: string;
  readonly objectRef?: AuditObjectReference;
  readonly requestReceivedMicros: number;
  /** The request's annotations so far and later (authorization, admission), read at each stage. */
  readonly annotations: Map<string, string>;
  /** The impersonated user, once impersonation has run. */
  readonly impersonatedUser: () => AuditUserInfo | undefined;
  /** A sink that failed or threw. */
  readonly onDropped?: (err: unknown) => void;
  /** An annotation set twice to different values. */
  readonly onWarning?: (message: string) => void;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export class AuditRecorder {
  readonly #o: AuditRecorderInit;
  readonly level: AuditLevel;
  #objectRef: Mutable<AuditObjectReference> | undefined;
  #responseStatus: AuditResponseStatus | undefined;
  #requestObject: unknown;
  #responseObject: unknown;
  #started = false;
  #finished = false;

  constructor(o: AuditRecorderInit) {
    this.#o = o;
    this.level = o.config.level;
    this.#objectRef = o.objectRef === undefined ? undefined : { ...o.objectRef };
  }

  /** Whether the level records request bodies (Request and RequestResponse). */
  get wantsRequestObject(): boolean {
    return levelAtLeast(this.level, 'Request');
  }

  /**
   * The decoded request object (upstream LogRequestObject): fills the object reference's empty
   * namespace, name, uid and resourceVersion from its metadata; the object itself is kept at
   * Request and above (a copy: admission and strategies change the one being written).
   */
  requestObject(
    obj: unknown,
    ref?: { group: string; version: string; resource: string; subresource: string },
  ): void {
    const meta = metadataOf(obj);
    const r: Mutable<AuditObjectReference> = (this.#objectRef ??= {});
    if (meta !== undefined) {
      if (r.namespace === undefined && typeof meta['namespace'] === 'string' && meta['namespace'] !== '')
        r.namespace = meta['namespace'];
      if (r.name === undefined && typeof meta['name'] === 'string' && meta['name'] !== '')
        r.name = meta['name'];
      if (r.uid === undefined && typeof meta['uid'] === 'string' && meta['uid'] !== '') r.uid = meta['uid'];
      if (
        r.resourceVersion === undefined &&
        typeof meta['resourceVersion'] === 'string' &&
        meta['resourceVersion'] !== ''
      )
        r.resourceVersion = meta['resourceVersion'];
    }
    if (ref !== undefined) {
      if (r.apiVersion === undefined) {
        if (ref.group !== '') r.apiGroup = ref.group;
        if (ref.version !== '') r.apiVersion = ref.version;
      }
      if (r.resource === undefined && ref.resource !== '') r.resource = ref.resource;
      if (r.subresource === undefined && ref.subresource !== '') r.subresource = ref.subresource;
    }
    if (!this.wantsRequestObject) return;
    this.#requestObject = this.#withoutManagedFields(structuredClone(obj));
  }

  /** A patch as sent (upstream LogRequestPatch), at Request and above. */
  requestPatch(patch: unknown): void {
    if (this.wantsRequestObject) this.#requestObject = structuredClone(patch);
  }

  /**
   * The object answered (upstream LogResponseObject): a Status becomes the response status; the
   * object is kept at RequestResponse.
   */
  responseObject(obj: unknown): void {
    if (isStatus(obj)) {
      this.#responseStatus = {
        metadata: {},
        ...(typeof obj['status'] === 'string' && obj['status'] !== '' ? { status: obj['status'] } : {}),
        ...(typeof obj['message'] === 'string' && obj['message'] !== '' ? { message: obj['message'] } : {}),
        ...(typeof obj['reason'] === 'string' && obj['reason'] !== '' ? { reason: obj['reason'] } : {}),
        ...(obj['details'] !== undefined ? { details: obj['details'] } : {}),
        ...(typeof obj['code'] === 'number' && obj['code'] !== 0 ? { code: obj['code'] } : {}),
      };
    }
    if (!levelAtLeast(this.level, 'RequestResponse')) return;
    // Answers are not changed after they are written: no copy unless managed fields go.
    this.#responseObject = this.#withoutManagedFields(obj);
  }

  /**
   * Adds an annotation (upstream audit.AddAuditAnnotation): the first value of a key stays, a
   * different later one is ignored with a warning.
   */
  addAnnotation(key: string, value: string): void {
    const annotations = this.#o.annotations;
    const current = annotations.get(key);
    if (current === undefined) annotations.set(key, value);
    else if (current !== value)
      this.#o.onWarning?.(
        `Failed to set annotations[${JSON.stringify(key)}] to ${JSON.stringify(value)} for audit:${JSON.stringify(this.#o.auditID)}, it has already been set to ${JSON.stringify(current)}`,
      );
  }

  /** The response's status code is known (upstream auditResponseWriter.processCode). */
  codeSent(code: number, emitStarted: boolean): void {
    if (this.#started) return;
    this.#started = true;
    this.#responseStatus = { ...(this.#responseStatus ?? { metadata: {} }), code };
    if (emitStarted) this.emit('ResponseStarted');
  }

  /**
   * The request is over: ResponseComplete, preceded by ResponseStarted for a long-running request
   * that never answered (upstream's "Connection closed early").
   */
  complete(code: number | undefined, longRunning: boolean): void {
    if (this.#finished) return;
    this.#finished = true;
    if (code !== undefined) this.codeSent(code, longRunning);
    if (this.#responseStatus === undefined) {
      this.#responseStatus = {
        metadata: {},
        status: 'Success',
        message: 'Connection closed early',
        code: 200,
      };
      if (longRunning) this.emit('ResponseStarted');
    }
    this.emit('ResponseComplete');
  }

  /** A bug escaped the handler (upstream's recovered panic): only the Panic stage is emitted. */
  panic(err: unknown): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#responseStatus = {
      metadata: {},
      status: 'Failure',
      message: `APIServer panic'd: ${err instanceof Error ? err.message : String(err)}`,
      reason: 'InternalError',
      code: 500,
    };
    this.emit('Panic');
  }

  /** Hands a snapshot of the event at `stage` to the sink unless the stage is omitted. */
  emit(stage: AuditStage): boolean {
    if (this.#o.config.omitStages.includes(stage)) return true;
    observeAuditEvent();
    const o = this.#o;
    const impersonated = o.impersonatedUser();
    const annotations = o.annotations.size > 0 ? Object.fromEntries(o.annotations) : undefined;
    const event: AuditEvent = {
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: this.level,
      auditID: o.auditID,
      stage,
      requestURI: o.requestURI,
      verb: o.verb,
      user: o.user,
      ...(impersonated !== undefined ? { impersonatedUser: impersonated } : {}),
      ...(o.sourceIPs.length > 0 ? { sourceIPs: o.sourceIPs } : {}),
      ...(o.userAgent !== '' ? { userAgent: o.userAgent } : {}),
      ...(this.#objectRef !== undefined ? { objectRef: orderedRef(this.#objectRef) } : {}),
      ...(this.#responseStatus !== undefined ? { responseStatus: this.#responseStatus } : {}),
      ...(this.#requestObject !== undefined ? { requestObject: this.#requestObject } : {}),
      ...(this.#responseObject !== undefined ? { responseObject: this.#responseObject } : {}),
      requestReceivedTimestamp: microTime(o.requestReceivedMicros),
      stageTimestamp: microTime(stage === 'RequestReceived' ? o.requestReceivedMicros : nowMicros()),
      ...(annotations !== undefined ? { annotations } : {}),
    };
    try {
      const ok = o.sink.process(event);
      if (ok === false) o.onDropped?.(new Error('the audit sink refused the event'));
      return ok !== false;
    } catch (err) {
      o.onDropped?.(err);
      return false;
    }
  }

  #withoutManagedFields(obj: unknown): unknown {
    return this.#o.config.omitManagedFields ? withoutManagedFields(obj) : obj;
  }
}

function metadataOf(obj: unknown): Record<string, unknown> | undefined {
  if (typeof obj !== 'object' || obj === null) return undefined;
  const meta = (obj as Record<string, unknown>)['metadata'];
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta)
    ? (meta as Record<string, unknown>)
    : undefined;
}

function isStatus(obj: unknown): obj is Record<string, unknown> {
  return (
    typeof obj === 'object' &&
    obj !== null &&
    (obj as Record<string, unknown>)['kind'] === 'Status' &&
    (obj as Record<string, unknown>)['apiVersion'] === 'v1'
  );
}

/** Go's field order of audit.ObjectReference. */
function orderedRef(r: AuditObjectReference): AuditObjectReference {
  return {
    ...(r.resource !== undefined ? { resource: r.resource } : {}),
    ...(r.namespace !== undefined ? { namespace: r.namespace } : {}),
    ...(r.name !== undefined ? { name: r.name } : {}),
    ...(r.uid !== undefined ? { uid: r.uid } : {}),
    ...(r.apiGroup !== undefined ? { apiGroup: r.apiGroup } : {}),
    ...(r.apiVersion !== undefined ? { apiVersion: r.apiVersion } : {}),
    ...(r.resourceVersion !== undefined ? { resourceVersion: r.resourceVersion } : {}),
    ...(r.subresource !== undefined ? { subresource: r.subresource } : {}),
  };
}

function dropManagedFields(obj: unknown): unknown {
  const meta = metadataOf(obj);
  if (meta === undefined || !('managedFields' in meta)) return obj;
  const rest = { ...meta };
  delete rest['managedFields'];
  return { ...(obj as JsonObject), metadata: rest };
}

/**
 * A copy without metadata.managedFields (upstream copyWithoutManagedFields): of an object, of each
 * item of a list, of each row's object of a Table.
 */
export function withoutManagedFields(obj: unknown): unknown {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return obj;
  const o = obj as Record<string, unknown>;
  let out: Record<string, unknown> = dropManagedFields(o) as Record<string, unknown>;
  if (Array.isArray(o['items'])) out = { ...out, items: o['items'].map(dropManagedFields) };
  if (o['kind'] === 'Table' && Array.isArray(o['rows'])) {
    out = {
      ...out,
      rows: o['rows'].map((row: unknown) => {
        if (typeof row !== 'object' || row === null) return row;
        const r = row as Record<string, unknown>;
        return r['object'] === undefined ? r : { ...r, object: dropManagedFields(r['object']) };
      }),
    };
  }
  return out;
}

// ---- the seams handlers call --------------------------------------------------------------

const recorders = new WeakMap<object, AuditRecorder>();
/** Requests (by response) whose policy was evaluated: failed-authentication audit leaves them alone. */
const evaluated = new WeakSet<object>();

export function attachAuditRecorder(req: object, res: object, recorder: AuditRecorder): void {
  recorders.set(req, recorder);
  recorders.set(res, recorder);
}

export function markAuditEvaluated(res: object): void {
  evaluated.add(res);
}

export function auditEvaluated(res: object): boolean {
  return evaluated.has(res);
}

/** The recorder of a request or response, if the request is audited. */
export function auditRecorderOf(reqOrRes: object): AuditRecorder | undefined {
  return recorders.get(reqOrRes);
}

/** Handlers: the decoded body of a create, update or delete (upstream LogRequestObject). */
export function auditRequestObject(
  req: object,
  obj: unknown,
  ref?: { group: string; version: string; resource: string; subresource: string },
): void {
  recorders.get(req)?.requestObject(obj, ref);
}

/** Handlers: a patch as sent (upstream LogRequestPatch). */
export function auditRequestPatch(req: object, patch: unknown): void {
  recorders.get(req)?.requestPatch(patch);
}

/**
 * Handlers: what a write request passes to admission so plugins can annotate the audit event
 * (`addAuditAnnotation`); nothing when the request is not audited.
 */
export function auditAnnotator(req: object): { addAuditAnnotation?: (key: string, value: string) => void } {
  const recorder = recorders.get(req);
  return recorder === undefined ? {} : { addAuditAnnotation: (k, v) => recorder.addAnnotation(k, v) };
}

/**
 * Response writers: the object answered (upstream LogResponseObject). Found through the response
 * or the request it keeps (`res.req`): wrappers (the deadline's) and node's responses both keep it.
 */
export function auditResponseObject(res: object, obj: unknown): void {
  let recorder = recorders.get(res);
  if (recorder === undefined && 'req' in res) {
    const req: unknown = res.req;
    if (typeof req === 'object' && req !== null) recorder = recorders.get(req);
  }
  recorder?.responseObject(obj);
}
