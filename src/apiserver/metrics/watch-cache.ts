/**
 * The watch caches' metrics as v1.27's cacher names them (k8s.io/apiserver
 * pkg/storage/cacher/metrics): `apiserver_watch_cache_events_received_total` and
 * `apiserver_watch_cache_initializations_total`, labelled with the group-resource ("pods",
 * "deployments.apps"). Read from each store's cache at scrape time: the counters advance by what
 * the caches counted since the last scrape, so nothing runs on the event path.
 */
import { Counter } from 'prom-client';
import type { GenericStore } from '../../registry/generic/store.js';
import { metricsRegistry } from '../../util/metrics.js';

type Stores = () => Iterable<GenericStore>;

/** Every server of this process registers its stores (tests run several in one process). */
const sources = new Set<Stores>();

function groupResource(store: GenericStore): string {
  const { group, resource } = store.resource.info;
  return group === '' ? resource : `${resource}.${group}`;
}

/** A counter following per-resource totals that only grow (a new cache's totals start over). */
function followingCounter(
  name: string,
  help: string,
  total: (s: NonNullable<GenericStore['watchCacheStats']>) => number,
): void {
  const seen = new Map<GenericStore, number>();
  new Counter({
    name,
    help,
    labelNames: ['resource'],
    registers: [metricsRegistry],
    collect() {
      for (const stores of sources) {
        for (const store of new Set(stores())) {
          const stats = store.watchCacheStats;
          if (stats === undefined) continue;
          const now = total(stats);
          const before = seen.get(store) ?? 0;
          seen.set(store, now);
          const delta = now >= before ? now - before : now;
          this.inc({ resource: groupResource(store) }, delta);
        }
      }
    },
  });
}

let defined = false;

/** Makes `stores` visible to the watch-cache metrics until the returned function is called. */
export function registerWatchCaches(stores: Stores): () => void {
  if (!defined) {
    defined = true;
    followingCounter(
      'apiserver_watch_cache_events_received_total',
      '[ALPHA] Counter of events received in watch cache broken by resource type.',
      (s) => s.events,
    );
    followingCounter(
      'apiserver_watch_cache_initializations_total',
      '[ALPHA] Counter of watch cache initializations broken by resource type.',
      (s) => s.initialisations,
    );
  }
  sources.add(stores);
  return () => sources.delete(stores);
}
