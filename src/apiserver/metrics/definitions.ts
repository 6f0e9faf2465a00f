/**
 * kube-apiserver v1.27's metrics for what nanokube has: names, types, labels, buckets and help
 * texts (with component-base's stability prefix) as upstream's endpoints/metrics and
 * storage/etcd3/metrics define them. One set per process, as upstream's are package variables.
 */
import { CounterFamily, GaugeFamily, HistogramFamily, metricsRegistry } from '../../util/metrics.js';

const registry = metricsRegistry;

export const requestTotal = new CounterFamily({
  name: 'apiserver_request_total',
  help: '[STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
  labelNames: [
    'verb',
    'dry_run',
    'group',
    'version',
    'resource',
    'subresource',
    'scope',
    'component',
    'code',
  ],
  registry,
});

export const requestDuration = new HistogramFamily({
  name: 'apiserver_request_duration_seconds',
  help: '[STABLE] Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
  labelNames: ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'],
  buckets: [
    0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60,
  ],
  registry,
});

export const longRunningRequests = new GaugeFamily({
  name: 'apiserver_longrunning_requests',
  help: '[STABLE] Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
  labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'],
  registry,
});

export const currentInflightRequests = new GaugeFamily({
  name: 'apiserver_current_inflight_requests',
  help: '[STABLE] Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
  labelNames: ['request_kind'],
  registry,
});

/** Upstream removed this gauge in 1.25 (deprecated in 1.23); nanokube keeps its last definition. */
export const registeredWatchers = new GaugeFamily({
  name: 'apiserver_registered_watchers',
  help: '[ALPHA] Number of currently registered watchers for a given resources',
  labelNames: ['group', 'version', 'kind'],
  registry,
});

export const watchEventsTotal = new CounterFamily({
  name: 'apiserver_watch_events_total',
  help: '[ALPHA] Number of events sent in watch clients',
  labelNames: ['group', 'version', 'kind'],
  registry,
});

export const watchEventsSizes = new HistogramFamily({
  name: 'apiserver_watch_events_sizes',
  help: '[ALPHA] Watch event size distribution in bytes',
  labelNames: ['group', 'version', 'kind'],
  // 1 KiB doubling 8 times: upstream's ExponentialBuckets(1024, 2.0, 8).
  buckets: Array.from({ length: 8 }, (_, i) => 1024 * 2 ** i),
  registry,
});

export const storageObjects = new GaugeFamily({
  name: 'apiserver_storage_objects',
  help: '[STABLE] Number of stored objects at the time of last check split by kind.',
  labelNames: ['resource'],
  registry,
});
