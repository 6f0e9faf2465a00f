/**
 * The watch cache's sliding window of recent events (upstream's watchCache ring buffer): a watch
 * may start from any revision the window still reaches back to; older starts go elsewhere.
 */
import type { ObjectWatchEvent } from '../interfaces.js';

export interface WindowEntry {
  readonly revision: number;
  readonly key: string;
  readonly event: ObjectWatchEvent;
}

export class EventWindow {
  readonly #capacity: number;
  #entries: WindowEntry[] = [];
  #head = 0;
  /** The oldest `after` a watch can be served from: every event after it is still here. */
  #floor = 0;

  constructor(capacity: number) {
    this.#capacity = Math.max(1, capacity);
  }

  /** Forgets every event: the window starts at a fresh list at `revision`. */
  reset(revision: number): void {
    this.#entries = [];
    this.#head = 0;
    this.#floor = revision;
  }

  push(entry: WindowEntry): void {
    this.#entries.push(entry);
    if (this.#entries.length - this.#head > this.#capacity) {
      const evicted = this.#entries[this.#head++]!;
      this.#floor = Math.max(this.#floor, evicted.revision);
      if (this.#head >= this.#capacity) {
        this.#entries = this.#entries.slice(this.#head);
        this.#head = 0;
      }
    }
  }

  get capacity(): number {
    return this.#capacity;
  }

  get size(): number {
    return this.#entries.length - this.#head;
  }

  /** The events after `after`, in order; undefined when some of them already left the window. */
  since(after: number): WindowEntry[] | undefined {
    if (after < this.#floor) return undefined;
    let lo = this.#head;
    let hi = this.#entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#entries[mid]!.revision > after) hi = mid;
      else lo = mid + 1;
    }
    return this.#entries.slice(lo);
  }
}
