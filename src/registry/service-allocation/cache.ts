/**
 * The taken addresses and ports kept in memory (NW-03, NW-07): read once, then followed by watches
 * on the record prefixes (with the store's progress notifications), so a Service write plans on a
 * copy-on-write fork of the current allocators instead of reading every record. The records in
 * the store stay the truth: a write still takes its keys only if they are absent, so a plan on a
 * state that just changed loses the race, and its retry plans again. A write waits until the
 * cache has seen the store's revision of the moment it asks (the in-process store reports
 * progress at every commit); if that takes too long, or a watch ends, it reads the records as
 * before and the cache starts over.
 */
import type { KvEvent, KvStore } from '../../storage/kv/types.js';
import { prefixEnd } from '../../storage/kv/types.js';
import { allocatorsFrom, nodePortsPrefix, portOfKey, readAllocations } from './state.js';
import type { IPRecords } from './ip-records.js';
import type { ServiceAllocatorFactory, ServiceAllocators } from './types.js';

export interface AllocationCacheOptions {
  readonly kv: KvStore;
  readonly allocators: ServiceAllocatorFactory;
  readonly records: IPRecords;
  /** Stops the watches (the server's background signal). */
  readonly signal: AbortSignal;
  /** How long a write waits for the cache to catch up before reading the records (default 1 s). */
  readonly catchUpMs?: number;
}

interface Live {
  readonly base: ServiceAllocators;
  /** Revision each watch has delivered everything up to (IPs, ports). */
  readonly seen: [number, number];
  readonly stop: AbortController;
}

export class AllocationCache {
  readonly #o: AllocationCacheOptions;
  #live: Live | undefined;
  #starting: Promise<Live> | undefined;
  readonly #waiters = new Set<() => void>();

  constructor(o: AllocationCacheOptions) {
    this.#o = o;
  }

  /** Allocators holding what is taken as of (at least) now: a fork, free to change. */
  async current(): Promise<ServiceAllocators> {
    const wanted = await this.#o.kv.currentRevision();
    let live: Live | undefined;
    try {
      live = await this.#start();
    } catch {
      live = undefined;
    }
    if (live !== undefined && (await this.#caughtUp(live, wanted))) return fork(live.base);
    // The slow path: the records as they are now.
    return allocatorsFrom(
      this.#o.allocators,
      await readAllocations(this.#o.kv, this.#o.records),
      this.#o.records,
    );
  }

  #revision(live: Live): number {
    return Math.min(live.seen[0], live.seen[1]);
  }

  async #caughtUp(live: Live, wanted: number): Promise<boolean> {
    if (this.#revision(live) >= wanted) return true;
    const deadline = Date.now() + (this.#o.catchUpMs ?? 1000);
    while (this.#live === live && this.#revision(live) < wanted) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, left);
        function done(): void {
          clearTimeout(timer);
          resolve();
        }
        this.#waiters.add(done);
      });
    }
    return this.#live === live;
  }

  #wake(): void {
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const w of waiters) w();
  }

  #start(): Promise<Live> {
    if (this.#live !== undefined) return Promise.resolve(this.#live);
    this.#starting ??= this.#open().finally(() => {
      this.#starting = undefined;
    });
    return this.#starting;
  }

  async #open(): Promise<Live> {
    const { kv, records } = this.#o;
    const recorded = await readAllocations(kv, records);
    const base = allocatorsFrom(this.#o.allocators, recorded, records);
    const stop = new AbortController();
    const onAbort = (): void => stop.abort();
    this.#o.signal.addEventListener('abort', onAbort, { once: true });
    const live: Live = { base, seen: [recorded.revision, recorded.revision], stop };
    const follow = (index: 0 | 1, prefix: string, apply: (ev: KvEvent) => void): void => {
      const advance = (revision: number): void => {
        if (revision > live.seen[index]) live.seen[index] = revision;
        this.#wake();
      };
      const run = async (): Promise<void> => {
        for await (const ev of kv.watch({
          key: prefix,
          end: prefixEnd(prefix),
          startRevision: recorded.revision + 1,
          signal: stop.signal,
          onProgress: advance,
          onStalled: () => this.#drop(live),
        })) {
          apply(ev);
          advance(ev.kv.modRevision);
        }
      };
      run().then(
        () => this.#drop(live),
        () => this.#drop(live),
      );
    };
    follow(0, records.prefix, (ev) => {
      const ip = records.ipOf(ev.kv.key);
      for (const range of base.ips.values()) {
        if (!range.contains(ip)) continue;
        if (ev.type === 'delete') range.release(ip);
        else if (!range.has(ip)) range.allocate(ip);
      }
    });
    follow(1, nodePortsPrefix, (ev) => {
      const port = portOfKey(ev.kv.key);
      if (!base.ports.contains(port)) return;
      if (ev.type === 'delete') base.ports.release(port);
      else if (!base.ports.has(port)) base.ports.allocate(port);
    });
    if (this.#o.signal.aborted) stop.abort();
    this.#live = live;
    return live;
  }

  /** A watch ended (stalled, compacted, the store closing): start over on the next write. */
  #drop(live: Live): void {
    if (this.#live !== live) return;
    this.#live = undefined;
    live.stop.abort();
    this.#wake();
  }
}

function fork(a: ServiceAllocators): ServiceAllocators {
  return {
    families: a.families,
    ips: new Map([...a.ips].map(([family, range]) => [family, range.fork()] as const)),
    ports: a.ports.fork(),
  };
}
