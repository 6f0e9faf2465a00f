/**
 * Watch events serialized once and shared: every watcher of a resource receives the same decoded
 * event object from storage, so the bytes for one (event type, served version, format) are made by
 * the first watcher that needs them and reused by the rest.
 *
 * The bytes are kept for a short while only. Bytes kept for as long as their object lives (the
 * watch cache keeps every current object) held a copy of every object's latest serialization: 26
 * MiB for 3,000 pods, mostly 8 KiB buffer-pool slabs kept by small slices. Encodings belong to a
 * generation `generationMs` long; a lookup sees the current generation and the one before, so
 * bytes made for one watcher are found by every other that asks within `generationMs`, and none
 * is kept longer than twice that. The watchers of a live event take it within milliseconds of each
 * other; informers starting together replay the same objects seconds apart (16 WatchList informers
 * of 100 MiB of Secrets drift by more than 1 s: with 1 s generations they took 16.7–17.1 s to
 * sync instead of 14.4, re-encoding; with 3 s, 14.7). A watcher lagging further encodes again, as
 * every watcher does upstream (it caches serializations only while an event is dispatched).
 */
export interface WatchEncoderOptions {
  /** How long one generation of encodings lasts (default 3 s). */
  readonly generationMs?: number;
  /** The clock generations are measured with, in ms (tests); `performance.now` by default. */
  readonly now?: () => number;
}

type Encodings = WeakMap<object, Map<string, Buffer>>;

export class WatchEncoder {
  readonly #generationMs: number;
  readonly #now: () => number;
  #current: Encodings = new WeakMap();
  #previous: Encodings = new WeakMap();
  /** Whether anything was stored in the current (previous) generation: the timer runs while so. */
  #storedCurrent = false;
  #storedPrevious = false;
  #generationStart: number;
  #timer: NodeJS.Timeout | undefined;
  #encodings = 0;

  constructor(o: WatchEncoderOptions = {}) {
    this.#generationMs = o.generationMs ?? 3000;
    this.#now = o.now ?? (() => performance.now());
    this.#generationStart = this.#now();
  }

  /** How many events were serialized (a metric, and what the fan-out test counts). */
  get encodings(): number {
    return this.#encodings;
  }

  /** The bytes for `event` under `key` if they were made already (no allocation). */
  cached(event: object, key: string): Buffer | undefined {
    this.#rotate();
    return this.#current.get(event)?.get(key) ?? this.#previous.get(event)?.get(key);
  }

  /** The bytes for `event` under `key`, rendered by `render` only the first time. */
  encode(event: object, key: string, render: () => string): Buffer {
    return this.encodeBytes(event, key, () => Buffer.from(render(), 'utf8'));
  }

  /** As `encode`, for a renderer that makes bytes (protobuf frames). */
  encodeBytes(event: object, key: string, render: () => Uint8Array): Buffer {
    const known = this.cached(event, key);
    if (known !== undefined) return known;
    const made = render();
    const bytes = Buffer.isBuffer(made) ? made : Buffer.from(made.buffer, made.byteOffset, made.byteLength);
    this.#encodings++;
    let forEvent = this.#current.get(event);
    if (forEvent === undefined) {
      forEvent = new Map();
      this.#current.set(event, forEvent);
    }
    forEvent.set(key, bytes);
    this.#storedCurrent = true;
    this.#arm();
    return bytes;
  }

  /** Starts a new generation when the current one is over (both when two are). */
  #rotate(): void {
    const now = this.#now();
    const age = now - this.#generationStart;
    if (age < this.#generationMs) return;
    if (age >= 2 * this.#generationMs) {
      this.#previous = new WeakMap();
      this.#storedPrevious = false;
    } else {
      this.#previous = this.#current;
      this.#storedPrevious = this.#storedCurrent;
    }
    this.#current = new WeakMap();
    this.#storedCurrent = false;
    this.#generationStart = now;
  }

  /** Lets kept bytes go when no watcher asks any more (the timer does not hold the process). */
  #arm(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#rotate();
      if (this.#storedCurrent || this.#storedPrevious) this.#arm();
    }, this.#generationMs);
    this.#timer.unref();
  }
}

/** What the watch handler shares across requests of one server. */
export interface WatchSupport {
  readonly encoder: WatchEncoder;
  /** How often watches with `allowWatchBookmarks` get a BOOKMARK (upstream: about a minute). */
  readonly bookmarkIntervalMs: number;
}
