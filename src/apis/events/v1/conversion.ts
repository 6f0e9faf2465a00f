/**
 * Event between core/v1 (the storage version) and events.k8s.io/v1, as upstream v1.27 converts
 * through the internal core.Event (pkg/apis/events/v1/conversion.go and the generated
 * conversions): the fields of both types with the same meaning carry over, and the renamed ones
 * map as
 *
 *   involvedObject ⇄ regarding, message ⇄ note, reportingComponent ⇄ reportingController,
 *   source ⇄ deprecatedSource, firstTimestamp ⇄ deprecatedFirstTimestamp,
 *   lastTimestamp ⇄ deprecatedLastTimestamp, count ⇄ deprecatedCount.
 *
 * Both directions are pure (new objects, the input left alone) and print the result the way Go's
 * encoding/json prints the target struct: fields in declaration order (kind first), non-pointer structs always
 * present (`{}`), zero times as `null`, `omitempty` zero values left out. The two types differ in
 * which fields are `omitempty` (core/v1 always prints reportingComponent/reportingInstance,
 * events.k8s.io/v1 always prints series.count), so the same event reads slightly differently at
 * each version, exactly as upstream.
 */
import type { KubeObject } from '../../../machinery/object.js';
import { cloneJson, isJsonObject } from '../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../util/json.js';

export const coreEventApiVersion = 'v1';
export const eventsV1ApiVersion = 'events.k8s.io/v1';

/** A struct field (non-pointer): always printed, `{}` when absent. */
function struct(v: JsonValue | undefined): JsonObject {
  return isJsonObject(v) ? cloneJson(v) : {};
}

/** A metav1.Time / MicroTime field: always printed, `null` when zero. */
function time(v: JsonValue | undefined): JsonValue {
  return v === undefined || v === '' ? null : cloneJson(v);
}

/** Sets `key` unless the value is what `omitempty` leaves out ('' , 0, absent). */
function omitEmpty(out: JsonObject, key: string, v: JsonValue | undefined): void {
  if (v === undefined || v === null || v === '' || v === 0) return;
  out[key] = cloneJson(v);
}

/** A pointer struct field: printed when present (even `{}`), left out when absent or null. */
function pointer(out: JsonObject, key: string, v: JsonValue | undefined): void {
  if (isJsonObject(v)) out[key] = cloneJson(v);
}

/** A string field without `omitempty`: always printed. */
function plainString(v: JsonValue | undefined): JsonValue {
  return typeof v === 'string' ? v : '';
}

/** events.k8s.io/v1 EventSeries: `count` and `lastObservedTime` are not omitempty. */
function seriesToV1(series: JsonObject): JsonObject {
  return {
    count: typeof series['count'] === 'number' ? series['count'] : 0,
    lastObservedTime: time(series['lastObservedTime']),
  };
}

/** core/v1 EventSeries: `count` is omitempty, `lastObservedTime` a struct (printed, null when zero). */
function seriesToCore(series: JsonObject): JsonObject {
  const out: JsonObject = {};
  omitEmpty(out, 'count', series['count']);
  out['lastObservedTime'] = time(series['lastObservedTime']);
  return out;
}

/** A stored core/v1 Event as events.k8s.io/v1 (upstream Convert_core_Event_To_v1_Event). */
export function eventToV1(event: KubeObject): KubeObject {
  const out: KubeObject = {
    kind: 'Event',
    apiVersion: eventsV1ApiVersion,
    metadata: cloneJson(event.metadata),
  };
  out['eventTime'] = time(event['eventTime']);
  const series = event['series'];
  if (isJsonObject(series)) out['series'] = seriesToV1(series);
  omitEmpty(out, 'reportingController', event['reportingComponent']);
  omitEmpty(out, 'reportingInstance', event['reportingInstance']);
  omitEmpty(out, 'action', event['action']);
  omitEmpty(out, 'reason', event['reason']);
  out['regarding'] = struct(event['involvedObject']);
  pointer(out, 'related', event['related']);
  omitEmpty(out, 'note', event['message']);
  omitEmpty(out, 'type', event['type']);
  out['deprecatedSource'] = struct(event['source']);
  out['deprecatedFirstTimestamp'] = time(event['firstTimestamp']);
  out['deprecatedLastTimestamp'] = time(event['lastTimestamp']);
  omitEmpty(out, 'deprecatedCount', event['count']);
  return out;
}

/** An events.k8s.io/v1 Event as core/v1, the storage version (upstream Convert_v1_Event_To_core_Event). */
export function eventToCore(event: KubeObject): KubeObject {
  const out: KubeObject = {
    kind: 'Event',
    apiVersion: coreEventApiVersion,
    metadata: cloneJson(event.metadata),
  };
  out['involvedObject'] = struct(event['regarding']);
  omitEmpty(out, 'reason', event['reason']);
  omitEmpty(out, 'message', event['note']);
  out['source'] = struct(event['deprecatedSource']);
  out['firstTimestamp'] = time(event['deprecatedFirstTimestamp']);
  out['lastTimestamp'] = time(event['deprecatedLastTimestamp']);
  omitEmpty(out, 'count', event['deprecatedCount']);
  omitEmpty(out, 'type', event['type']);
  out['eventTime'] = time(event['eventTime']);
  const series = event['series'];
  if (isJsonObject(series)) out['series'] = seriesToCore(series);
  omitEmpty(out, 'action', event['action']);
  pointer(out, 'related', event['related']);
  out['reportingComponent'] = plainString(event['reportingController']);
  out['reportingInstance'] = plainString(event['reportingInstance']);
  return out;
}
