/** Small helpers for the KvStore conformance suite. */
import type { KvEvent, KvStore } from '../types.js';

/** Settings a case may ask of the store it opens (every backend honours them). */
export interface OpenKvOptions {
  readonly watchReplayPageSize?: number;
  readonly watchMaxQueuedEvents?: number;
}

/** What a backend cannot do, so the cases that need it are left out (with the reason in the name). */
export interface KvCapabilities {
  /** `restore()` of a snapshot, keys keeping their revisions (not etcd: it assigns revisions). */
  readonly restore?: boolean;
  /**
   * Concurrent writes through one store apply in the order they were called (a single writer:
   * SQLite, memory). etcd applies concurrent requests in whatever order they reach its leader;
   * the cases then check only what any order gives.
   */
  readonly callOrder?: boolean;
}

export type OpenKv = (options?: OpenKvOptions) => Promise<KvStore>;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

export function text(value: Uint8Array): string {
  return decoder.decode(value);
}

/** Opens a fresh store, runs `body`, and always closes the store. */
export async function withKv(
  open: OpenKv,
  body: (kv: KvStore) => Promise<void>,
  options: OpenKvOptions = {},
): Promise<void> {
  const kv = await open(options);
  try {
    await body(kv);
  } finally {
    await kv.close();
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const TIMEOUT = Symbol('timeout');

/** Reads a watch with timeouts; a timed-out `next()` stays pending and is reused by the next read. */
export class EventReader {
  readonly #it: AsyncIterator<KvEvent>;
  #pending: Promise<IteratorResult<KvEvent>> | null = null;

  constructor(watch: AsyncIterable<KvEvent>) {
    this.#it = watch[Symbol.asyncIterator]();
  }

  /** The next event, 'done' when the watch ended, or 'timeout'. */
  async next(timeoutMs = 2000): Promise<KvEvent | 'done' | 'timeout'> {
    this.#pending ??= this.#it.next();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<typeof TIMEOUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMEOUT), timeoutMs);
    });
    try {
      const result = await Promise.race([this.#pending, timeout]);
      if (result === TIMEOUT) return 'timeout';
      this.#pending = null;
      return result.done === true ? 'done' : result.value;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Exactly `n` events; throws if the watch ends or stalls first. */
  async take(n: number, timeoutMs = 2000): Promise<KvEvent[]> {
    const out: KvEvent[] = [];
    while (out.length < n) {
      const ev = await this.next(timeoutMs);
      if (ev === 'done' || ev === 'timeout') {
        throw new Error(`watch ${ev} after ${out.length} of ${n} events`);
      }
      out.push(ev);
    }
    return out;
  }
}

/** A compact, comparable description of an event: "put a@3" / "delete a@4 (prev 3)". */
export function describeEvent(ev: KvEvent): string {
  const prev = ev.prevKv === undefined ? '' : ` (prev ${ev.prevKv.modRevision})`;
  return `${ev.type} ${ev.kv.key}@${ev.kv.modRevision}${prev}`;
}
