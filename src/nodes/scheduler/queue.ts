/**
 * The scheduling queue (upstream internal/queue in spirit): an active heap ordered by priority
 * (higher first) then creation time (PrioritySort), a backoff area for pods that failed recently
 * (1 s doubling to 10 s per attempt), and the unschedulable pods with the filters that rejected
 * them, moved back when a cluster event could make them schedulable.
 */
import type { Clock } from '../../util/clock.js';
import type { PodInfo } from './pod-info.js';

interface HeapEntry {
  readonly key: string;
  readonly priority: number;
  readonly created: number;
  readonly seq: number;
}

function before(a: HeapEntry, b: HeapEntry): boolean {
  if (a.priority !== b.priority) return a.priority > b.priority;
  if (a.created !== b.created) return a.created < b.created;
  return a.seq < b.seq;
}

class Heap {
  readonly #items: HeapEntry[] = [];

  get size(): number {
    return this.#items.length;
  }

  push(e: HeapEntry): void {
    const a = this.#items;
    a.push(e);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(a[i]!, a[parent]!)) break;
      [a[i], a[parent]] = [a[parent]!, a[i]!];
      i = parent;
    }
  }

  pop(): HeapEntry | undefined {
    const a = this.#items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last !== undefined) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && before(a[l]!, a[m]!)) m = l;
        if (r < a.length && before(a[r]!, a[m]!)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }
}

export const initialBackoffMs = 1000;
export const maxBackoffMs = 10_000;

/** Which unschedulable pods a cluster event may help (by the filter that rejected them). */
export type ClusterEvent = 'NodeChange' | 'AssignedPodDelete' | 'AssignedPodAdd';

const helps: Record<ClusterEvent, (plugin: string) => boolean> = {
  NodeChange: () => true,
  AssignedPodDelete: () => true,
  AssignedPodAdd: (p) => p === 'PodTopologySpread' || p === 'InterPodAffinity',
};

export class SchedulingQueue {
  readonly #heap = new Heap();
  /** Pods in the active heap, by key, with the seq of their live heap entry. */
  readonly #active = new Map<string, { info: PodInfo; seq: number }>();
  readonly #backoff = new Map<string, { info: PodInfo; until: number }>();
  readonly #unschedulable = new Map<string, { info: PodInfo; plugins: ReadonlySet<string>; since: number }>();
  readonly #attempts = new Map<string, number>();
  readonly #clock: Clock;
  #seq = 0;
  #wake: (() => void) | undefined;

  /** Backoffs and waits are timed on `clock`. */
  constructor(clock: Clock) {
    this.#clock = clock;
  }

  #now(): number {
    return this.#clock.now();
  }

  get activeSize(): number {
    return this.#active.size;
  }

  get unschedulableSize(): number {
    return this.#unschedulable.size;
  }

  has(key: string): boolean {
    return this.#active.has(key) || this.#backoff.has(key) || this.#unschedulable.has(key);
  }

  /** Adds or refreshes a pod: a new or changed pod is (re)considered at once. */
  add(info: PodInfo): void {
    this.#unschedulable.delete(info.key);
    this.#backoff.delete(info.key);
    this.#pushActive(info);
  }

  /** Refreshes the stored state of a queued pod without moving it. */
  update(info: PodInfo): void {
    const a = this.#active.get(info.key);
    if (a !== undefined) {
      a.info = info;
      return;
    }
    const b = this.#backoff.get(info.key);
    if (b !== undefined) {
      b.info = info;
      return;
    }
    const u = this.#unschedulable.get(info.key);
    if (u !== undefined) this.#unschedulable.set(info.key, { ...u, info });
  }

  delete(key: string): void {
    this.#active.delete(key);
    this.#backoff.delete(key);
    this.#unschedulable.delete(key);
    this.#attempts.delete(key);
  }

  /** The pod failed with the given filters: it waits for a cluster event (and its backoff). */
  addUnschedulable(info: PodInfo, plugins: ReadonlySet<string>): void {
    this.#attempts.set(info.key, (this.#attempts.get(info.key) ?? 0) + 1);
    this.#unschedulable.set(info.key, { info, plugins, since: this.#now() });
  }

  /** The attempt failed for a transient reason (binding error): retry after the backoff. */
  addBackoff(info: PodInfo): void {
    const attempts = (this.#attempts.get(info.key) ?? 0) + 1;
    this.#attempts.set(info.key, attempts);
    this.#backoff.set(info.key, { info, until: this.#now() + this.#backoffMs(attempts) });
    this.#wake?.();
  }

  /** Scheduled: forget the pod's attempts. */
  done(key: string): void {
    this.#attempts.delete(key);
  }

  #backoffMs(attempts: number): number {
    return Math.min(initialBackoffMs * 2 ** Math.max(0, attempts - 1), maxBackoffMs);
  }

  /** Moves the unschedulable pods `event` may help back (through their backoff). */
  moveOnEvent(event: ClusterEvent): void {
    if (this.#unschedulable.size === 0) return;
    const now = this.#now();
    for (const [key, u] of this.#unschedulable) {
      if (![...u.plugins].some(helps[event])) continue;
      this.#unschedulable.delete(key);
      const until = u.since + this.#backoffMs(this.#attempts.get(key) ?? 1);
      if (until > now) this.#backoff.set(key, { info: u.info, until });
      else this.#pushActive(u.info);
    }
    this.#wake?.();
  }

  /** Moves pods unschedulable for longer than `maxMs` back (upstream's periodic flush). */
  flushUnschedulable(maxMs: number): void {
    const now = this.#now();
    for (const [key, u] of this.#unschedulable) {
      if (now - u.since < maxMs) continue;
      this.#unschedulable.delete(key);
      this.#pushActive(u.info);
    }
  }

  /** The next pod to schedule, moving pods whose backoff expired first. */
  pop(): PodInfo | undefined {
    this.#flushBackoff();
    for (;;) {
      const e = this.#heap.pop();
      if (e === undefined) return undefined;
      const a = this.#active.get(e.key);
      if (a === undefined || a.seq !== e.seq) continue;
      this.#active.delete(e.key);
      return a.info;
    }
  }

  /** Milliseconds until the earliest backoff expires (undefined when none waits). */
  nextBackoffMs(): number | undefined {
    let min: number | undefined;
    for (const b of this.#backoff.values()) if (min === undefined || b.until < min) min = b.until;
    return min === undefined ? undefined : Math.max(0, min - this.#now());
  }

  /** Resolves when a pod is added or moved, after `ms`, or when `signal` aborts. */
  wait(ms: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted || this.#active.size > 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = (): void => {
        cancel();
        signal.removeEventListener('abort', done);
        this.#wake = undefined;
        resolve();
      };
      const cancel = this.#clock.after(ms, done);
      signal.addEventListener('abort', done, { once: true });
      this.#wake = done;
    });
  }

  #flushBackoff(): void {
    if (this.#backoff.size === 0) return;
    const now = this.#now();
    for (const [key, b] of this.#backoff) {
      if (b.until > now) continue;
      this.#backoff.delete(key);
      this.#pushActive(b.info);
    }
  }

  #pushActive(info: PodInfo): void {
    const seq = ++this.#seq;
    this.#active.set(info.key, { info, seq });
    this.#heap.push({ key: info.key, priority: info.priority, created: info.created, seq });
    this.#wake?.();
  }
}
