/** The in-memory MVCC state: every key's versions, a global event log, and the current state. */
import type { KeySpan } from '../key-range.js';
import { spanHas } from '../key-range.js';
import type { KeyValue, KvEvent } from '../types.js';

export interface MemoryRange {
  readonly kvs: KeyValue[];
  readonly more: boolean;
  readonly count: number;
}

function revOf(ev: KvEvent): number {
  return ev.kv.modRevision;
}

/** Index of the first element for which `before` is false (elements are ordered). */
function partition<T>(items: readonly T[], before: (item: T) => boolean): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(items[mid]!)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class MemoryHistory {
  /** Each key's events in revision order (history still readable, plus the latest). */
  readonly #versions = new Map<string, KvEvent[]>();
  /** Keys of `#versions` in ascending order. */
  #keys: string[] = [];
  /** Every retained event in revision order. */
  #log: KvEvent[] = [];
  readonly #current = new Map<string, KeyValue>();

  get(key: string): KeyValue | undefined {
    return this.#current.get(key);
  }

  append(ev: KvEvent): void {
    const key = ev.kv.key;
    this.#log.push(ev);
    let versions = this.#versions.get(key);
    if (versions === undefined) {
      versions = [];
      this.#versions.set(key, versions);
      this.#keys.splice(
        partition(this.#keys, (k) => k < key),
        0,
        key,
      );
    }
    versions.push(ev);
    if (ev.type === 'put') this.#current.set(key, ev.kv);
    else this.#current.delete(key);
  }

  /** The key's state at `rev`, from the newest version at or below it. */
  stateAt(key: string, rev: number): KeyValue | undefined {
    const versions = this.#versions.get(key);
    if (versions === undefined) return undefined;
    const i = partition(versions, (ev) => revOf(ev) <= rev) - 1;
    const ev = versions[i];
    return ev !== undefined && ev.type === 'put' ? ev.kv : undefined;
  }

  range(span: KeySpan, rev: number, limit: number, countOnly: boolean): MemoryRange {
    const kvs: KeyValue[] = [];
    let count = 0;
    for (let i = partition(this.#keys, (k) => k < span.start); i < this.#keys.length; i++) {
      const key = this.#keys[i]!;
      if (span.end !== null && key >= span.end) break;
      const kv = this.stateAt(key, rev);
      if (kv === undefined) continue;
      count++;
      if (!countOnly && (limit <= 0 || kvs.length < limit)) kvs.push(kv);
    }
    return { kvs, more: !countOnly && limit > 0 && count > limit, count };
  }

  /**
   * Events with revision >= `from` in `span`, in log order: up to `limit`, plus the rest of the last
   * one's revision so a page never splits a revision.
   */
  history(from: number, span: KeySpan, limit: number): KvEvent[] {
    const out: KvEvent[] = [];
    let lastRev = Infinity;
    for (let i = partition(this.#log, (ev) => revOf(ev) < from); i < this.#log.length; i++) {
      const ev = this.#log[i]!;
      if (revOf(ev) > lastRev) break;
      if (!spanHas(span, ev.kv.key)) continue;
      out.push(ev);
      if (out.length === limit) lastRev = revOf(ev);
    }
    return out;
  }

  /** Replaces everything with `kvs` as the current state, without history. */
  reset(kvs: readonly KeyValue[]): void {
    this.#versions.clear();
    this.#current.clear();
    this.#log = [];
    for (const kv of kvs) {
      this.#versions.set(kv.key, [{ type: 'put', kv }]);
      this.#current.set(kv.key, kv);
    }
    this.#keys = [...this.#versions.keys()].sort();
  }

  /** Every live key, in key order. */
  currentState(): KeyValue[] {
    return this.#keys.flatMap((k) => {
      const kv = this.#current.get(k);
      return kv === undefined ? [] : [kv];
    });
  }

  /** Keys currently attached to `lease`, in key order. */
  keysWithLease(lease: number): string[] {
    const keys: string[] = [];
    for (const kv of this.#current.values()) if (kv.lease === lease) keys.push(kv.key);
    return keys.sort();
  }

  /** Drops events below `rev`, keeping each key's newest version at or below it unless deleted. */
  compact(rev: number): void {
    const keptOld = new Set<KvEvent>();
    for (const [key, versions] of this.#versions) {
      const newestOld = partition(versions, (ev) => revOf(ev) <= rev) - 1;
      if (newestOld < 0) continue;
      const ev = versions[newestOld]!;
      const from = ev.type === 'put' ? newestOld : newestOld + 1;
      if (ev.type === 'put') keptOld.add(ev);
      if (from >= versions.length) this.#versions.delete(key);
      else if (from > 0) versions.splice(0, from);
    }
    this.#keys = this.#keys.filter((k) => this.#versions.has(k));
    this.#log = this.#log.filter((ev) => revOf(ev) > rev || keptOld.has(ev));
  }
}
