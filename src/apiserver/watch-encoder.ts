/**
 * Watch events serialized once and shared: every watcher of a resource receives the same decoded
 * event object from storage, so the bytes for one (event type, served version, format) are made by
 * the first watcher that needs them and reused by the rest. Entries live as long as the event
 * object (a WeakMap), so nothing is kept after the last watcher moved on.
 */
export class WatchEncoder {
  readonly #cache = new WeakMap<object, Map<string, Buffer>>();
  #encodings = 0;

  /** How many events were serialized (a metric, and what the fan-out test counts). */
  get encodings(): number {
    return this.#encodings;
  }

  /** The bytes for `event` under `key` if they were made already (no allocation). */
  cached(event: object, key: string): Buffer | undefined {
    return this.#cache.get(event)?.get(key);
  }

  /** The bytes for `event` under `key`, rendered by `render` only the first time. */
  encode(event: object, key: string, render: () => string): Buffer {
    return this.encodeBytes(event, key, () => Buffer.from(render(), 'utf8'));
  }

  /** As `encode`, for a renderer that makes bytes (protobuf frames). */
  encodeBytes(event: object, key: string, render: () => Uint8Array): Buffer {
    let forEvent = this.#cache.get(event);
    if (forEvent === undefined) {
      forEvent = new Map();
      this.#cache.set(event, forEvent);
    }
    let bytes = forEvent.get(key);
    if (bytes === undefined) {
      const made = render();
      bytes = Buffer.isBuffer(made) ? made : Buffer.from(made.buffer, made.byteOffset, made.byteLength);
      this.#encodings++;
      forEvent.set(key, bytes);
    }
    return bytes;
  }
}

/** What the watch handler shares across requests of one server. */
export interface WatchSupport {
  readonly encoder: WatchEncoder;
  /** How often watches with `allowWatchBookmarks` get a BOOKMARK (upstream: about a minute). */
  readonly bookmarkIntervalMs: number;
}
