/**
 * Event validation (upstream pkg/apis/core/validation/events.go, release-1.27): which rules apply
 * depends on the group/version the request was made at.
 *
 * - Every create and update passes the legacy rules (legacyValidateEvent).
 * - Requests at core/v1 (and events.k8s.io/v1beta1, no longer served) stop there, for backwards
 *   compatibility.
 * - Anything newer (events.k8s.io/v1) also gets the strict rules: on create, ObjectMeta with DNS
 *   subdomain names, the series, a required eventTime, type Normal or Warning and the deprecated
 *   fields unset; on update, ObjectMeta update rules, the series when it changed, and almost every
 *   field immutable.
 *
 * Upstream validates the internal object, so field paths name core fields (`involvedObject`,
 * `message`, `firstTimestamp`, `source`, `count`) whatever the request version, except for the
 * reporting controller: `reportingComponent` (its core/v1 JSON name) for core/v1 requests and
 * `reportingController` (the internal and events.k8s.io/v1 name) otherwise. The objects here are
 * core/v1 Events, the storage version.
 */
import { FieldPath, fieldErrors, goQuote } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import type { KubeObject } from '../../../../machinery/object.js';
import { invalidRendered } from '../../../../machinery/validation/gosyntax.js';
import { isDNS1123Subdomain } from '../../../../machinery/validation/names.js';
import {
  fieldImmutableErrorMsg,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from '../../../../machinery/validation/objectmeta.js';
import { isJsonObject } from '../../../../util/json.js';
import type { JsonValue } from '../../../../util/json.js';
import { num, obj, str } from '../access.js';
import { invalidEach, validateQualifiedName } from './common.js';
import { validateFinalizerName } from './namespace.js';

/** Upstream's length limits; Go's len() counts bytes. */
export const reportingInstanceLengthLimit = 128;
export const actionLengthLimit = 128;
export const reasonLengthLimit = 128;
export const noteLengthLimit = 1024;

/** The group/version of a request (absent: the storage version, core/v1). */
export interface EventRequestVersion {
  readonly group: string;
  readonly version: string;
}

const isCoreV1 = (v: EventRequestVersion | undefined): boolean =>
  v === undefined || (v.group === '' && v.version === 'v1');

/** True when only the legacy rules apply: core/v1 and events.k8s.io/v1beta1 requests. */
export function isLegacyEventRequest(v: EventRequestVersion | undefined): boolean {
  return isCoreV1(v) || (v?.group === 'events.k8s.io' && v.version === 'v1beta1');
}

const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

/** A metav1.Time / MicroTime field is zero when absent or null (Go decodes `null` as the zero time). */
function isZeroTime(v: JsonValue | undefined): boolean {
  return v === undefined || v === null || v === '';
}

/** legacyValidateEvent: namespaces agree; "new" events (with eventTime) carry the reporting fields. */
function legacyValidateEvent(
  event: KubeObject,
  requestVersion: EventRequestVersion | undefined,
): FieldError[] {
  const errs: FieldError[] = [];
  const controllerPath = FieldPath.root(
    isCoreV1(requestVersion) ? 'reportingComponent' : 'reportingController',
  );
  const namespace = event.metadata.namespace ?? '';
  const involvedNamespace = str(obj(event, 'involvedObject'), 'namespace') ?? '';
  const mismatch = (): FieldError =>
    fieldErrors.invalid(
      FieldPath.root('involvedObject', 'namespace'),
      involvedNamespace,
      'does not match event.namespace',
    );
  if (isZeroTime(event['eventTime'])) {
    if (involvedNamespace === '') {
      // An event about a cluster-scoped object lives in no namespace or in "default" (old clients).
      if (namespace !== '' && namespace !== 'default') errs.push(mismatch());
    } else if (namespace !== involvedNamespace) {
      errs.push(mismatch());
    }
  } else {
    if (involvedNamespace === '' && namespace !== 'default' && namespace !== 'kube-system')
      errs.push(mismatch());
    const controller = str(event, 'reportingComponent') ?? '';
    if (controller === '') errs.push(fieldErrors.required(controllerPath, ''));
    errs.push(...validateQualifiedName(controller, controllerPath));
    const limited = (key: string, limit: number, required: boolean): void => {
      const v = str(event, key) ?? '';
      if (required && v === '') errs.push(fieldErrors.required(key, ''));
      if (byteLength(v) > limit)
        errs.push(fieldErrors.invalid(key, '', `can have at most ${limit} characters`));
    };
    limited('reportingInstance', reportingInstanceLengthLimit, true);
    limited('action', actionLengthLimit, true);
    limited('reason', reasonLengthLimit, true);
    limited('message', noteLengthLimit, false);
  }
  errs.push(...invalidEach(FieldPath.root('namespace'), namespace, isDNS1123Subdomain(namespace)));
  return errs;
}

/** Upstream core ValidateObjectMeta/…Update add the kube finalizer-name rule to apimachinery's. */
function kubeFinalizerNames(event: KubeObject): FieldError[] {
  const path = FieldPath.root('metadata', 'finalizers');
  return (event.metadata.finalizers ?? []).flatMap((f, i) => validateFinalizerName(f, path.index(i)));
}

/** validateV1EventSeries: a series counts at least 2 and has a lastObservedTime. */
function validateV1EventSeries(event: KubeObject): FieldError[] {
  const series = event['series'];
  if (!isJsonObject(series)) return [];
  const errs: FieldError[] = [];
  if ((num(series, 'count') ?? 0) < 2)
    errs.push(fieldErrors.invalid('series.count', '', 'should be at least 2'));
  if (isZeroTime(series['lastObservedTime'])) errs.push(fieldErrors.required('series.lastObservedTime', ''));
  return errs;
}

/** Upstream ValidateEventCreate. */
export function validateEventCreate(
  event: KubeObject,
  requestVersion: EventRequestVersion | undefined,
): FieldError[] {
  const errs = legacyValidateEvent(event, requestVersion);
  if (isLegacyEventRequest(requestVersion)) return errs;
  errs.push(...validateObjectMeta(event.metadata, { namespaced: true, nameValidation: 'dns1123Subdomain' }));
  errs.push(...kubeFinalizerNames(event));
  errs.push(...validateV1EventSeries(event));
  if (isZeroTime(event['eventTime'])) errs.push(fieldErrors.required('eventTime', ''));
  const type = str(event, 'type') ?? '';
  if (type !== 'Normal' && type !== 'Warning') {
    errs.push(fieldErrors.invalid('type', '', `has invalid value: ${type}`));
  }
  if (!isZeroTime(event['firstTimestamp']))
    errs.push(fieldErrors.invalid('firstTimestamp', '', 'needs to be unset'));
  if (!isZeroTime(event['lastTimestamp']))
    errs.push(fieldErrors.invalid('lastTimestamp', '', 'needs to be unset'));
  if ((num(event, 'count') ?? 0) !== 0) errs.push(fieldErrors.invalid('count', '', 'needs to be unset'));
  const source = obj(event, 'source');
  if ((str(source, 'component') ?? '') !== '' || (str(source, 'host') ?? '') !== '') {
    errs.push(fieldErrors.invalid('source', '', 'needs to be unset'));
  }
  return errs;
}

// ---- values as Go compares and prints them (ValidateImmutableField: Semantic.DeepEqual, %#v) ----

interface Instant {
  /** Seconds since the Unix epoch. */
  readonly seconds: number;
  readonly nanos: number;
}

const zeroInstant: Instant = { seconds: Date.parse('0001-01-01T00:00:00Z') / 1000, nanos: 0 };

/** The instant of an RFC 3339 time value (the zero time when absent or null). */
function instantOf(v: JsonValue | undefined): Instant | undefined {
  if (isZeroTime(v)) return zeroInstant;
  if (typeof v !== 'string') return undefined;
  const m = /^(\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2})(?:\.(\d+))?(.*)$/.exec(v);
  if (m === null) return undefined;
  const ms = Date.parse(`${m[1]!.replace(/[t ]/, 'T')}${m[3] === '' ? 'Z' : m[3]!.toUpperCase()}`);
  if (Number.isNaN(ms)) return undefined;
  return { seconds: ms / 1000, nanos: Number((m[2] ?? '').padEnd(9, '0').slice(0, 9)) };
}

function sameInstant(a: JsonValue | undefined, b: JsonValue | undefined, truncateToMicros = false): boolean {
  const x = instantOf(a);
  const y = instantOf(b);
  if (x === undefined || y === undefined) return a === b;
  const scale = truncateToMicros ? 1000 : 1;
  return x.seconds === y.seconds && Math.floor(x.nanos / scale) === Math.floor(y.nanos / scale);
}

/** Go's time.Time String() of a time the server holds (its local zone is UTC). */
function goTimeString(v: JsonValue | undefined): string {
  const t = instantOf(v);
  if (t === undefined) return JSON.stringify(v ?? null);
  const iso = new Date(t.seconds * 1000).toISOString();
  const frac = String(t.nanos).padStart(9, '0').replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${frac === '' ? '' : `.${frac}`} +0000 UTC`;
}

const referenceFields = [
  ['Kind', 'kind'],
  ['Namespace', 'namespace'],
  ['Name', 'name'],
  ['UID', 'uid'],
  ['APIVersion', 'apiVersion'],
  ['ResourceVersion', 'resourceVersion'],
  ['FieldPath', 'fieldPath'],
] as const;

const sourceFields = [
  ['Component', 'component'],
  ['Host', 'host'],
] as const;

type GoFields = readonly (readonly [string, string])[];

/** `%#v` of an internal struct of string fields, e.g. `core.EventSource{Component:"k", Host:""}`. */
function goStruct(type: string, fields: GoFields, v: JsonValue | undefined): string {
  const o = isJsonObject(v) ? v : undefined;
  return `${type}{${fields.map(([go, json]) => `${go}:${goQuote(str(o, json) ?? '')}`).join(', ')}}`;
}

function sameStruct(fields: GoFields, a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  const x = isJsonObject(a) ? a : undefined;
  const y = isJsonObject(b) ? b : undefined;
  return fields.every(([, json]) => (str(x, json) ?? '') === (str(y, json) ?? ''));
}

/** reflect.DeepEqual of the series pointers: both nil, or the same count and lastObservedTime. */
function sameSeries(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  const x = isJsonObject(a) ? a : undefined;
  const y = isJsonObject(b) ? b : undefined;
  if (x === undefined || y === undefined) return x === y;
  return (
    (num(x, 'count') ?? 0) === (num(y, 'count') ?? 0) &&
    sameInstant(x['lastObservedTime'], y['lastObservedTime'])
  );
}

/** Upstream ValidateEventUpdate. */
export function validateEventUpdate(
  event: KubeObject,
  old: KubeObject,
  requestVersion: EventRequestVersion | undefined,
): FieldError[] {
  const errs = legacyValidateEvent(event, requestVersion);
  if (isLegacyEventRequest(requestVersion)) return errs;
  errs.push(...validateObjectMetaUpdate(event.metadata, old.metadata));
  errs.push(...kubeFinalizerNames(event));
  if (!sameSeries(event['series'], old['series'])) errs.push(...validateV1EventSeries(event));

  const immutable = (key: string, same: boolean, rendered: () => string): void => {
    if (!same) errs.push(invalidRendered(FieldPath.root(key), rendered(), fieldImmutableErrorMsg));
  };
  const string = (key: string): void => {
    const v = str(event, key) ?? '';
    immutable(key, v === (str(old, key) ?? ''), () => goQuote(v));
  };
  const reference = (key: string): void => {
    immutable(key, sameStruct(referenceFields, event[key], old[key]), () =>
      goStruct('core.ObjectReference', referenceFields, event[key]),
    );
  };
  const timestamp = (key: string): void => {
    immutable(key, sameInstant(event[key], old[key]), () => goTimeString(event[key]));
  };

  reference('involvedObject');
  string('reason');
  string('message');
  immutable('source', sameStruct(sourceFields, event['source'], old['source']), () =>
    goStruct('core.EventSource', sourceFields, event['source']),
  );
  timestamp('firstTimestamp');
  timestamp('lastTimestamp');
  const count = num(event, 'count') ?? 0;
  immutable('count', count === (num(old, 'count') ?? 0), () => String(count));
  // Upstream checks reason twice: a changed reason is reported twice.
  string('reason');
  string('type');
  // Changes below a microsecond are tolerated (clients that truncate when serializing).
  if (!sameInstant(event['eventTime'], old['eventTime'], true)) timestamp('eventTime');
  string('action');
  const related = event['related'];
  const oldRelated = old['related'];
  const relatedSet = isJsonObject(related);
  immutable(
    'related',
    relatedSet === isJsonObject(oldRelated) && sameStruct(referenceFields, related, oldRelated),
    // A nil pointer prints as the quoted string "null" (field.Error.ErrorBody).
    () => (relatedSet ? goStruct('core.ObjectReference', referenceFields, related) : '"null"'),
  );
  // The internal field's path, whatever the request version (core/v1 requests never get here).
  const controller = str(event, 'reportingComponent') ?? '';
  immutable('reportingController', controller === (str(old, 'reportingComponent') ?? ''), () =>
    goQuote(controller),
  );
  string('reportingInstance');
  return errs;
}
