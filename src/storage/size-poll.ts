/**
 * `apiserver_storage_db_total_size_in_bytes{endpoint}`: every interval (upstream's
 * --etcd-db-metric-poll-interval, 30 s) each etcd member's database size, or the SQLite file's,
 * is asked and the gauge set; -1 for a member that does not answer, as upstream reports it.
 */
import type { KvStore } from './kv/types.js';
import { storageDbTotalSize } from './metrics.js';

export const defaultStorageSizePollMs = 30_000;

/** Polls until `signal` aborts; the first poll runs at once. */
export function pollStorageSizes(
  kv: KvStore,
  o: { readonly intervalMs?: number; readonly signal: AbortSignal },
): void {
  const sizes = kv.storageSizes?.bind(kv);
  if (sizes === undefined || o.signal.aborted) return;
  let running = false;
  const poll = (): void => {
    if (running || o.signal.aborted) return;
    running = true;
    sizes()
      .then((each) => {
        if (o.signal.aborted) return;
        for (const [endpoint, bytes] of each) storageDbTotalSize.cell(endpoint).set(bytes);
      })
      // A store closing under the poll: nothing to report.
      .catch(() => undefined)
      .finally(() => (running = false));
  };
  const timer = setInterval(poll, o.intervalMs ?? defaultStorageSizePollMs);
  timer.unref();
  o.signal.addEventListener('abort', () => clearInterval(timer), { once: true });
  poll();
}
