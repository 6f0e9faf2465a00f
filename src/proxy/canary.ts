/**
 * kube-proxy's canary (upstream pkg/util/iptables Monitor): the proxy keeps an empty chain,
 * KUBE-PROXY-CANARY, in the mangle, nat and filter tables, and looks for it every sync period.
 * Something that flushes iptables (a firewall reload, `iptables -F -X`) deletes it with the
 * proxy's own chains; when the canary of the first table is gone, the monitor waits (100 ms polls,
 * 5 s at most) for the others to go too, so it does not reload in the middle of a flush, then
 * asks for a full sync, and sets the canaries up again.
 */
import type { Clock } from '../util/clock.js';

export const canaryChain = 'KUBE-PROXY-CANARY';
/** The tables the canary lives in; the first is the one watched. */
export const canaryTables = ['mangle', 'nat', 'filter'] as const;

const flushPollMs = 100;
const flushTimeoutMs = 5000;

/** What the monitor needs of iptables. */
export interface CanaryTables {
  /** Creates the chain unless it exists. */
  ensureChain(table: string, chain: string, signal: AbortSignal): Promise<void>;
  /** Whether the chain exists; rejects when that cannot be known (iptables' resource problem). */
  chainExists(table: string, chain: string, signal: AbortSignal): Promise<boolean>;
}

export interface CanaryMonitorOptions {
  readonly tables: CanaryTables;
  /** How often to look (`--iptables-sync-period`). */
  readonly intervalMs: number;
  readonly clock: Clock;
  /** The canary went: iptables were flushed (the proxier's forced full sync). */
  readonly onFlushed: () => void;
  readonly onError?: (err: unknown) => void;
}

/** Watches the canary until `signal` aborts (the clock's sleeps end early then). */
export async function monitorCanary(o: CanaryMonitorOptions, signal: AbortSignal): Promise<void> {
  const { clock, tables } = o;
  const exists = async (table: string): Promise<boolean | undefined> => {
    try {
      return await tables.chainExists(table, canaryChain, signal);
    } catch (err) {
      if (signal.aborted) throw err;
      o.onError?.(err);
      return undefined;
    }
  };
  try {
    while (!signal.aborted) {
      // Set the canaries up, trying again every interval until it works.
      for (;;) {
        try {
          for (const table of canaryTables) await tables.ensureChain(table, canaryChain, signal);
          break;
        } catch (err) {
          if (signal.aborted) return;
          o.onError?.(err);
          await clock.sleep(o.intervalMs, signal);
          if (signal.aborted) return;
        }
      }
      // Look every interval until the first table's canary is gone.
      for (;;) {
        await clock.sleep(o.intervalMs, signal);
        if (signal.aborted) return;
        if ((await exists(canaryTables[0])) === false) break;
      }
      // Let the flush finish: the other tables' canaries go too (or 5 s pass).
      const deadline = clock.now() + flushTimeoutMs;
      for (;;) {
        let gone = true;
        for (const table of canaryTables.slice(1)) if ((await exists(table)) !== false) gone = false;
        if (gone || clock.now() >= deadline) break;
        await clock.sleep(flushPollMs, signal);
        if (signal.aborted) return;
      }
      o.onFlushed();
    }
  } catch (err) {
    if (!signal.aborted) throw err;
  }
}
