/**
 * Leader election on a `coordination.k8s.io/v1` Lease (client-go's leaderelection with a
 * LeaseLock — the only lock kind from v1.27 on, AM-13). Candidates try every `retryPeriodMs` to
 * take the Lease: it is free when nobody holds it or when its holder has not renewed it for
 * `leaseDurationSeconds` as *this* candidate observed (observed time, not the Lease's own
 * timestamps, so clocks need not agree). The leader renews every `retryPeriodMs`; when it cannot
 * renew within `renewDeadlineMs` it stops leading. Leading runs `onStartedLeading(signal)`; the
 * signal aborts when leadership ends. On shutdown the leader releases the Lease (holder cleared,
 * duration 1 s) so another candidate takes over at once.
 */
import { isJsonObject } from '../util/json.js';
import type { JsonObject } from '../util/json.js';
import { realClock } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { ApiError } from './api-error.js';
import type { RestClient } from './rest-client.js';

export interface LeaderElectorOptions {
  readonly client: Pick<RestClient, 'request'>;
  /** The Lease: upstream's controller-manager uses kube-system/kube-controller-manager. */
  readonly namespace: string;
  readonly name: string;
  /** This candidate (upstream: hostname + "_" + a UUID). */
  readonly identity: string;
  /** Default 15 s. */
  readonly leaseDurationMs?: number;
  /** Default 10 s. */
  readonly renewDeadlineMs?: number;
  /** Default 2 s. */
  readonly retryPeriodMs?: number;
  readonly clock?: Clock;
  /** Called with a signal that aborts when leadership ends. */
  readonly onStartedLeading: (signal: AbortSignal) => void;
  readonly onStoppedLeading?: () => void;
  /** Called when a (new) leader is observed, this candidate included. */
  readonly onNewLeader?: (identity: string) => void;
  readonly onError?: (err: unknown) => void;
}

interface LeaderRecord {
  readonly holderIdentity: string;
  readonly leaseDurationSeconds: number;
  readonly acquireTime: string | undefined;
  readonly renewTime: string | undefined;
  readonly leaseTransitions: number;
}

/** metav1.MicroTime's JSON form. */
function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/Z$/, '000Z');
}

function recordOf(lease: JsonObject): LeaderRecord {
  const spec = isJsonObject(lease['spec']) ? lease['spec'] : {};
  const str = (k: string): string | undefined => (typeof spec[k] === 'string' ? spec[k] : undefined);
  const num = (k: string): number => (typeof spec[k] === 'number' ? spec[k] : 0);
  return {
    holderIdentity: str('holderIdentity') ?? '',
    leaseDurationSeconds: num('leaseDurationSeconds'),
    acquireTime: str('acquireTime'),
    renewTime: str('renewTime'),
    leaseTransitions: num('leaseTransitions'),
  };
}

function sameRecord(a: LeaderRecord, b: LeaderRecord): boolean {
  return (
    a.holderIdentity === b.holderIdentity &&
    a.leaseDurationSeconds === b.leaseDurationSeconds &&
    a.acquireTime === b.acquireTime &&
    a.renewTime === b.renewTime &&
    a.leaseTransitions === b.leaseTransitions
  );
}

export class LeaderElector {
  readonly #o: LeaderElectorOptions;
  readonly #clock: Clock;
  readonly #path: string;
  #observed: LeaderRecord | undefined;
  #observedAt = 0;
  #leader = false;
  #lastLeader = '';

  constructor(o: LeaderElectorOptions) {
    this.#o = o;
    this.#clock = o.clock ?? realClock;
    this.#path = `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(o.namespace)}/leases`;
  }

  isLeader(): boolean {
    return this.#leader;
  }

  /** The holder last observed ('' when none). */
  leader(): string {
    return this.#observed?.holderIdentity ?? '';
  }

  get #leaseDurationMs(): number {
    return this.#o.leaseDurationMs ?? 15_000;
  }

  get #retryMs(): number {
    return this.#o.retryPeriodMs ?? 2_000;
  }

  /**
   * Campaigns until `signal` aborts: acquires, leads while renewals succeed, and after losing the
   * Lease campaigns again (client-go's Run returns instead; a process of ours keeps its place).
   */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      if (!(await this.#acquire(signal))) return;
      const lead = new AbortController();
      this.#leader = true;
      try {
        this.#o.onStartedLeading(lead.signal);
      } catch (err) {
        this.#o.onError?.(err);
      }
      await this.#renewWhileLeading(signal);
      this.#leader = false;
      lead.abort();
      this.#o.onStoppedLeading?.();
      if (signal.aborted) {
        await this.#release();
        return;
      }
    }
  }

  /** Tries until the Lease is ours (true) or `signal` aborts (false). */
  async #acquire(signal: AbortSignal): Promise<boolean> {
    while (!signal.aborted) {
      if (await this.#tryAcquireOrRenew(signal)) return true;
      await this.#clock.sleep(this.#retryMs, signal);
    }
    return false;
  }

  async #renewWhileLeading(signal: AbortSignal): Promise<void> {
    const deadline = this.#o.renewDeadlineMs ?? 10_000;
    while (!signal.aborted) {
      await this.#clock.sleep(this.#retryMs, signal);
      if (signal.aborted) return;
      const started = this.#clock.now();
      let renewed = false;
      while (!signal.aborted && this.#clock.now() - started < deadline) {
        if (await this.#tryAcquireOrRenew(signal)) {
          renewed = true;
          break;
        }
        await this.#clock.sleep(this.#retryMs, signal);
      }
      if (!renewed) return;
    }
  }

  /** One attempt: true when this candidate holds the Lease afterwards. */
  async #tryAcquireOrRenew(signal: AbortSignal): Promise<boolean> {
    const now = this.#clock.now();
    const mine = (old: LeaderRecord | undefined): JsonObject => ({
      holderIdentity: this.#o.identity,
      leaseDurationSeconds: Math.round(this.#leaseDurationMs / 1000),
      acquireTime:
        old !== undefined && old.holderIdentity === this.#o.identity && old.acquireTime !== undefined
          ? old.acquireTime
          : microTime(now),
      renewTime: microTime(now),
      leaseTransitions:
        old === undefined
          ? 0
          : old.holderIdentity === this.#o.identity
            ? old.leaseTransitions
            : old.leaseTransitions + 1,
    });
    let lease: JsonObject;
    try {
      lease = await this.#o.client.request('GET', `${this.#path}/${encodeURIComponent(this.#o.name)}`, {
        signal,
      });
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) {
        this.#o.onError?.(err);
        return false;
      }
      try {
        const created = await this.#o.client.request('POST', this.#path, {
          body: {
            apiVersion: 'coordination.k8s.io/v1',
            kind: 'Lease',
            metadata: { name: this.#o.name, namespace: this.#o.namespace },
            spec: mine(undefined),
          },
          signal,
        });
        this.#observe(recordOf(created), now);
        return true;
      } catch (createErr) {
        if (!(createErr instanceof ApiError && createErr.code === 409)) this.#o.onError?.(createErr);
        return false;
      }
    }
    const old = recordOf(lease);
    if (this.#observed === undefined || !sameRecord(this.#observed, old)) this.#observe(old, now);
    const held = old.holderIdentity !== '' && old.holderIdentity !== this.#o.identity;
    if (held && this.#observedAt + old.leaseDurationSeconds * 1000 > now) return false;
    const metadata = isJsonObject(lease['metadata']) ? lease['metadata'] : {};
    try {
      const updated = await this.#o.client.request(
        'PUT',
        `${this.#path}/${encodeURIComponent(this.#o.name)}`,
        { body: { ...lease, metadata, spec: mine(old) }, signal },
      );
      this.#observe(recordOf(updated), now);
      return true;
    } catch (err) {
      // 409: someone else wrote first; they win this round.
      if (!(err instanceof ApiError && err.code === 409)) this.#o.onError?.(err);
      return false;
    }
  }

  #observe(record: LeaderRecord, at: number): void {
    this.#observed = record;
    this.#observedAt = at;
    if (record.holderIdentity !== '' && record.holderIdentity !== this.#lastLeader) {
      this.#lastLeader = record.holderIdentity;
      this.#o.onNewLeader?.(record.holderIdentity);
    }
  }

  /** Gives the Lease up so the next candidate need not wait out its duration. */
  async #release(): Promise<void> {
    const signal = AbortSignal.timeout(this.#retryMs);
    try {
      const lease = await this.#o.client.request('GET', `${this.#path}/${encodeURIComponent(this.#o.name)}`, {
        signal,
      });
      const old = recordOf(lease);
      if (old.holderIdentity !== this.#o.identity) return;
      const now = microTime(this.#clock.now());
      await this.#o.client.request('PUT', `${this.#path}/${encodeURIComponent(this.#o.name)}`, {
        body: {
          ...lease,
          spec: {
            leaseDurationSeconds: 1,
            acquireTime: now,
            renewTime: now,
            leaseTransitions: old.leaseTransitions,
          },
        },
        signal,
      });
    } catch (err) {
      this.#o.onError?.(err);
    }
  }
}
