/**
 * Recording core/v1 Events as client-go's tools/record recorder does — what kube-controller-manager
 * v1.27's workload controllers use (`kubectl describe` shows them as `From: deployment-controller`).
 * An event is named `<involvedObject>.<hex nanoseconds>` with `source.component`,
 * firstTimestamp/lastTimestamp and count 1; an identical one (same source, involved object, type,
 * reason and message: the correlator's dedupe key) within the cache's life patches the existing
 * Event's `count` and `lastTimestamp` instead. Writes are queued in order and never block the caller.
 *
 * The dedupe key is upstream's getEventKey: the involved object's kind, namespace, name, fieldPath,
 * uid and apiVersion (not its resourceVersion: a BackOff repeated while the pod's status changes is
 * one Event counting up), the type, reason and message. The source is the recorder's own. The cache
 * keeps a SHA-1 digest of the key, not the key: a kubelet per simulated node keeps up to 4096
 * entries each, which at 30 pods a node and four events a pod held 0.5 KiB per event as text.
 */
import { realClock } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import type { JsonObject } from '../util/json.js';
import { ApiError } from './api-error.js';
import { referenceTo } from './event-recorder.js';
import type { EventType, ObjectRef } from './event-recorder.js';
import { EventNamer, SerialWrites, cacheKey } from './event-writes.js';
import type { RestClient } from './rest-client.js';

export interface LegacyEventRecorderOptions {
  readonly client: Pick<RestClient, 'request'>;
  /** `source.component`, e.g. `deployment-controller`. */
  readonly component: string;
  /** `source.host` (controllers leave it empty). */
  readonly host?: string;
  readonly clock?: Clock;
  readonly onError?: (err: unknown) => void;
}

/** client-go's maxLruCacheEntries bounds the dedupe cache; entries older than this are dropped. */
const maxCached = 4096;
const maxMessageLength = 1024;

interface Seen {
  readonly namespace: string;
  readonly name: string;
  count: number;
}

/** The involved object's parts of the dedupe key (client-go's getEventKey), in its order. */
const keyFields = ['kind', 'namespace', 'name', 'fieldPath', 'uid', 'apiVersion'] as const;

/** client-go's getEventKey but for the source, which is the recorder's own. */
function dedupeKey(ref: JsonObject, type: string, reason: string, message: string): string {
  return cacheKey([
    ...keyFields.map((k) => (typeof ref[k] === 'string' ? ref[k] : '')),
    type,
    reason,
    message,
  ]);
}

/** metav1.Time's JSON form (whole seconds). */
function time(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

export class LegacyEventRecorder {
  readonly #o: LegacyEventRecorderOptions;
  readonly #clock: Clock;
  readonly #seen = new Map<string, Seen>();
  readonly #names = new EventNamer();
  readonly #writes: SerialWrites;

  constructor(o: LegacyEventRecorderOptions) {
    this.#o = o;
    this.#clock = o.clock ?? realClock;
    this.#writes = new SerialWrites(o.onError);
  }

  /** Records an event about `regarding`. Never throws, never waits. */
  event(regarding: JsonObject | ObjectRef, type: EventType, reason: string, message: string): void {
    const ref = referenceTo(regarding);
    // Dropped before the dedupe cache sees it, as client-go's correlator never sees what its
    // broadcaster dropped.
    if (this.#writes.drops(ref, reason)) return;
    const note = message.length > maxMessageLength ? `${message.slice(0, maxMessageLength - 3)}...` : message;
    const host = this.#o.host ?? '';
    const key = dedupeKey(ref, type, reason, note);
    const now = this.#clock.now();
    const seen = this.#seen.get(key);
    if (seen !== undefined) {
      seen.count++;
      const count = seen.count;
      this.#seen.delete(key);
      this.#seen.set(key, seen);
      this.#writes.add(() => this.#patch(seen, count, time(now), key));
      return;
    }
    const namespace = typeof ref['namespace'] === 'string' ? ref['namespace'] : 'default';
    const objName = typeof ref['name'] === 'string' ? ref['name'] : '';
    const name = this.#names.next(objName, now);
    const first = time(now);
    this.#seen.set(key, { namespace, name, count: 1 });
    if (this.#seen.size > maxCached) this.#seen.delete(this.#seen.keys().next().value!);
    const event: JsonObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject: ref,
      reason,
      message: note,
      source: host === '' ? { component: this.#o.component } : { component: this.#o.component, host },
      firstTimestamp: first,
      lastTimestamp: first,
      count: 1,
      type,
      eventTime: null,
      reportingComponent: this.#o.component,
      reportingInstance: host,
    };
    this.#writes.add(() => this.#create(event));
  }

  /** Resolves when every event recorded so far has been written (or has failed). */
  flush(): Promise<void> {
    return this.#writes.flushed();
  }

  #path(namespace: string): string {
    return `/api/v1/namespaces/${encodeURIComponent(namespace)}/events`;
  }

  async #create(event: JsonObject): Promise<void> {
    const meta = event['metadata'] as { namespace: string };
    await this.#o.client.request('POST', this.#path(meta.namespace), { body: event });
  }

  /** The dedupe patch (count, lastTimestamp); a deleted Event is forgotten, as upstream's cache does. */
  async #patch(seen: Seen, count: number, lastTimestamp: string, key: string): Promise<void> {
    try {
      await this.#o.client.request(
        'PATCH',
        `${this.#path(seen.namespace)}/${encodeURIComponent(seen.name)}`,
        {
          body: { count, lastTimestamp },
          contentType: 'application/strategic-merge-patch+json',
        },
      );
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) {
        this.#seen.delete(key);
        return;
      }
      throw err;
    }
  }
}
