/**
 * The watch caches' metrics as v1.27's cacher names them (k8s.io/apiserver
 * pkg/storage/cacher/metrics), labelled with the group-resource ("pods", "deployments.apps"):
 * `apiserver_watch_cache_events_received_total`, `apiserver_watch_cache_events_dispatched_total`,
 * `apiserver_watch_cache_initializations_total`, `apiserver_init_events_total` (objects sent as
 * watches' initial state), `apiserver_terminated_watchers_total` (cut off for falling behind),
 * `watch_cache_capacity`; and by storage prefix, for lists answered from a cache,
 * `apiserver_cache_list_total`, `apiserver_cache_list_fetched_objects_total` and
 * `apiserver_cache_list_returned_objects_total` (the prefix is nanokube's key prefix below
 * /registry, "/pods" or "/apps/deployments", where upstream's is its etcd path, "/deployments";
 * nanokube has no cache indexes, so `index` is ""). `watch_cache_capacity_increase_total` and
 * `_decrease_total` have no series, as upstream's before a resize: nanokube's window is fixed.
 * Read from each store's cache at scrape time: counters advance by what the caches counted since
 * the last scrape, so nothing runs on the event path.
 */
import { Counter, Gauge } from 'prom-client';
import type { GenericStore, WatchCacheStats } from '../../registry/generic/store.js';
import { metricsRegistry } from '../../util/metrics.js';

type Stores = () => Iterable<GenericStore>;
type Labels = Record<string, string>;

/** Every server of this process registers its stores (tests run several in one process). */
const sources = new Set<Stores>();

function groupResource(store: GenericStore): Labels {
  const { group, resource } = store.resource.info;
  return { resource: group === '' ? resource : `${resource}.${group}` };
}

function listPrefix(stats: WatchCacheStats): string {
  return stats.prefix.replace(/^\/registry/, '').replace(/\/$/, '');
}

function* caches(): Generator<[GenericStore, WatchCacheStats]> {
  for (const stores of sources) {
    for (const store of new Set(stores())) {
      const stats = store.watchCacheStats;
      if (stats !== undefined) yield [store, stats];
    }
  }
}

/** A counter following per-cache totals that only grow (a new cache's totals start over). */
function followingCounter(
  name: string,
  help: string,
  labelNames: readonly string[],
  labels: (store: GenericStore, stats: WatchCacheStats) => Labels,
  total: (s: WatchCacheStats) => number,
): void {
  const seen = new Map<GenericStore, number>();
  new Counter({
    name,
    help,
    labelNames: [...labelNames],
    registers: [metricsRegistry],
    collect() {
      for (const [store, stats] of caches()) {
        const now = total(stats);
        const before = seen.get(store) ?? 0;
        seen.set(store, now);
        const delta = now >= before ? now - before : now;
        this.inc(labels(store, stats), delta);
      }
    },
  });
}

function define(): void {
  const byResource = (name: string, help: string, total: (s: WatchCacheStats) => number): void =>
    followingCounter(name, help, ['resource'], groupResource, total);
  byResource(
    'apiserver_watch_cache_events_received_total',
    '[ALPHA] Counter of events received in watch cache broken by resource type.',
    (s) => s.events,
  );
  byResource(
    'apiserver_watch_cache_events_dispatched_total',
    '[ALPHA] Counter of events dispatched in watch cache broken by resource type.',
    (s) => s.dispatched,
  );
  byResource(
    'apiserver_watch_cache_initializations_total',
    '[ALPHA] Counter of watch cache initializations broken by resource type.',
    (s) => s.initialisations,
  );
  byResource(
    'apiserver_init_events_total',
    '[ALPHA] Counter of init events processed in watch cache broken by resource type.',
    (s) => s.initEvents,
  );
  byResource(
    'apiserver_terminated_watchers_total',
    '[ALPHA] Counter of watchers closed due to unresponsiveness broken by resource type.',
    (s) => s.terminatedWatchers,
  );
  const byPrefix = (_: GenericStore, stats: WatchCacheStats): Labels => ({
    resource_prefix: listPrefix(stats),
    index: '',
  });
  followingCounter(
    'apiserver_cache_list_total',
    '[ALPHA] Number of LIST requests served from watch cache',
    ['resource_prefix', 'index'],
    byPrefix,
    (s) => s.lists.served,
  );
  followingCounter(
    'apiserver_cache_list_fetched_objects_total',
    '[ALPHA] Number of objects read from watch cache in the course of serving a LIST request',
    ['resource_prefix', 'index'],
    byPrefix,
    (s) => s.lists.fetched,
  );
  followingCounter(
    'apiserver_cache_list_returned_objects_total',
    '[ALPHA] Number of objects returned for a LIST request from watch cache',
    ['resource_prefix'],
    (_, stats) => ({ resource_prefix: listPrefix(stats) }),
    (s) => s.lists.returned,
  );
  new Gauge({
    name: 'watch_cache_capacity',
    help: '[ALPHA] Total capacity of watch cache broken by resource type.',
    labelNames: ['resource'],
    registers: [metricsRegistry],
    collect() {
      // Only the caches there are now: a stopped server's (in-process servers share this
      // registry) or a removed custom resource's cache leaves no series behind.
      this.reset();
      for (const [store, stats] of caches()) this.set(groupResource(store), stats.capacity);
    },
  });
}

let defined = false;

/** Makes `stores` visible to the watch-cache metrics until the returned function is called. */
export function registerWatchCaches(stores: Stores): () => void {
  if (!defined) {
    defined = true;
    define();
  }
  sources.add(stores);
  return () => sources.delete(stores);
}
