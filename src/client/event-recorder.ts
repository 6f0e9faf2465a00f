/**
 * Recording events.k8s.io/v1 Events (client-go's tools/events recorder): the first occurrence
 * creates an Event named `<regarding>.<hex nanoseconds>`; an isomorphic one (same action, reason,
 * reporting controller, regarding and related object) turns it into a series — the second
 * occurrence patches `series: {count: 2, lastObservedTime}` at once, later ones only count in
 * memory and are written when the series ends (no occurrence for 6 minutes) or at the 30-minute
 * refresh, as upstream does. `kubectl describe` shows them (it reads them as core/v1 Events).
 * Writing never blocks the caller: events are queued and sent in order.
 */
import { realClock } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { isJsonObject } from '../util/json.js';
import type { JsonObject } from '../util/json.js';
import { ApiError } from './api-error.js';
import { EventNamer, SerialWrites, cacheKey } from './event-writes.js';
import type { RestClient } from './rest-client.js';

export type EventType = 'Normal' | 'Warning';

/** An object reference (core/v1 ObjectReference) an event is about. */
export interface ObjectRef {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly name: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly resourceVersion?: string;
  readonly fieldPath?: string;
}

export interface EventRecorderOptions {
  readonly client: Pick<RestClient, 'request'>;
  /** e.g. `default-scheduler`, `deployment-controller`. */
  readonly reportingController: string;
  /** e.g. `<controller>-<hostname>`. */
  readonly reportingInstance: string;
  readonly clock?: Clock;
  readonly onError?: (err: unknown) => void;
}

/** A series ends after this long without an occurrence (client-go's finishTime). */
const finishMs = 6 * 60_000;
/** Open series are re-written this often (client-go's refreshTime). */
const refreshMs = 30 * 60_000;
/** events.k8s.io/v1 note limit (bytes in upstream; characters here are the same for ASCII). */
const maxNoteLength = 1024;

interface Cached {
  event: JsonObject;
  /** Milliseconds: eventTime of a singleton, lastObservedTime of a series. */
  last: number;
  series?: { count: number; lastObservedTime: string };
}

/** metav1.MicroTime's JSON form. */
function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/Z$/, '000Z');
}

/** The reference an event records: from an ObjectRef or straight from an object's TypeMeta/ObjectMeta. */
export function referenceTo(obj: JsonObject | ObjectRef): JsonObject {
  if (!('metadata' in obj) || !isJsonObject(obj['metadata'])) {
    const ref = obj as ObjectRef;
    const out: JsonObject = {};
    for (const k of [
      'kind',
      'namespace',
      'name',
      'uid',
      'apiVersion',
      'resourceVersion',
      'fieldPath',
    ] as const) {
      const v = ref[k];
      if (v !== undefined && v !== '') out[k] = v;
    }
    return out;
  }
  const meta = obj['metadata'];
  const out: JsonObject = {};
  const put = (k: string, v: unknown): void => {
    if (typeof v === 'string' && v !== '') out[k] = v;
  };
  put('kind', obj['kind']);
  put('namespace', meta['namespace']);
  put('name', meta['name']);
  put('uid', meta['uid']);
  put('apiVersion', obj['apiVersion']);
  put('resourceVersion', meta['resourceVersion']);
  return out;
}

export class EventRecorder {
  readonly #o: EventRecorderOptions;
  readonly #clock: Clock;
  readonly #cache = new Map<string, Cached>();
  readonly #names = new EventNamer();
  readonly #writes: SerialWrites;

  constructor(o: EventRecorderOptions) {
    this.#o = o;
    this.#clock = o.clock ?? realClock;
    this.#writes = new SerialWrites(o.onError);
  }

  /** Records an event about `regarding` (an object or a reference). Never throws, never waits. */
  event(
    regarding: JsonObject | ObjectRef,
    type: EventType,
    reason: string,
    action: string,
    note: string,
    related?: JsonObject | ObjectRef,
  ): void {
    const ref = referenceTo(regarding);
    // Dropped before the series cache sees it, as client-go's sink never sees what its broadcaster
    // dropped.
    if (this.#writes.drops(ref, reason)) return;
    const rel = related === undefined ? undefined : referenceTo(related);
    // client-go's eventKey (the reporting controller is this recorder's own), kept as a digest: the
    // scheduler records one event a pod, and a key's text was a third of the entry.
    const key = cacheKey([JSON.stringify([action, reason, ref, rel ?? null])]);
    const now = this.#clock.now();
    const cached = this.#cache.get(key);
    if (cached !== undefined) {
      cached.last = now;
      if (cached.series !== undefined) {
        cached.series.count++;
        cached.series.lastObservedTime = microTime(now);
        return;
      }
      cached.series = { count: 2, lastObservedTime: microTime(now) };
      this.#writes.add(() => this.#write(cached));
      return;
    }
    const name = typeof ref['name'] === 'string' ? ref['name'] : '';
    const namespace = typeof ref['namespace'] === 'string' ? ref['namespace'] : 'default';
    const event: JsonObject = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: this.#names.next(name, now), namespace },
      eventTime: microTime(now),
      reportingController: this.#o.reportingController,
      reportingInstance: this.#o.reportingInstance,
      action,
      reason,
      regarding: ref,
      ...(rel !== undefined ? { related: rel } : {}),
      note: note.length > maxNoteLength ? `${note.slice(0, maxNoteLength - 3)}...` : note,
      type,
    };
    const entry: Cached = { event, last: now };
    this.#cache.set(key, entry);
    this.#writes.add(() => this.#write(entry));
  }

  /** Resolves when every event recorded so far has been written (or has failed). */
  flush(): Promise<void> {
    return this.#writes.flushed();
  }

  /** Ends quiet series (final count written) and refreshes open ones until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    let sinceRefresh = 0;
    const tick = finishMs;
    while (!signal.aborted) {
      await this.#clock.sleep(tick, signal);
      if (signal.aborted) break;
      sinceRefresh += tick;
      const now = this.#clock.now();
      for (const [key, entry] of this.#cache) {
        if (now - entry.last < finishMs) continue;
        if (entry.series !== undefined) this.#writes.add(() => this.#write(entry));
        this.#cache.delete(key);
      }
      if (sinceRefresh >= refreshMs) {
        sinceRefresh = 0;
        for (const entry of this.#cache.values()) {
          if (entry.series !== undefined) this.#writes.add(() => this.#write(entry));
        }
      }
    }
    await this.flush();
  }

  /** `<name>.<hex nanoseconds>`, unique even within one millisecond. */

  /** Creates the event, or patches its series (creating it again if it was deleted meanwhile). */
  async #write(entry: Cached): Promise<void> {
    const meta = entry.event['metadata'] as { name: string; namespace: string };
    const path = `/apis/events.k8s.io/v1/namespaces/${encodeURIComponent(meta.namespace)}/events`;
    const series = entry.series === undefined ? undefined : { ...entry.series };
    if (series !== undefined) {
      try {
        await this.#o.client.request('PATCH', `${path}/${encodeURIComponent(meta.name)}`, {
          body: { series },
          contentType: 'application/merge-patch+json',
        });
        return;
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 404)) throw err;
      }
    }
    await this.#o.client.request('POST', path, {
      body: series === undefined ? entry.event : { ...entry.event, series },
    });
  }
}
