/**
 * The process's Prometheus registry (upstream's `legacyregistry`): everything `/metrics` shows.
 * One per process, like upstream's, so any layer can add metrics without being handed a registry.
 *
 * Registering a metric (e.g. `apiserver_watch_cache_*` from storage/ or registry/):
 *
 *   import { CounterFamily, metricsRegistry } from '../util/metrics.js';
 *   // at module level, once per process: a second metric of the same name throws
 *   const eventsDispatched = new CounterFamily({
 *     name: 'apiserver_watch_cache_events_dispatched_total',
 *     help: 'Counter of events dispatched in watch cache broken by resource type.',
 *     labelNames: ['resource'],
 *     registry: metricsRegistry,
 *   });
 *   const pods = eventsDispatched.cell('pods'); // keep the cell; look it up once
 *   pods.inc();
 *
 * `CounterFamily`, `GaugeFamily` and `HistogramFamily` keep hot paths to a number update. Plain
 * prom-client metrics work too: `new Gauge({ name, help, registers: [metricsRegistry], collect() {…} })`
 * (a `collect` callback runs at each scrape: the place to read a size or a count).
 * Use upstream's names, types, labels and buckets for the metrics upstream has.
 */
import { Registry, collectDefaultMetrics } from 'prom-client';

export { CounterFamily, GaugeFamily, HistogramFamily } from './metric-families.js';
export type { CounterCell, GaugeCell, HistogramCell, HistogramSummary } from './metric-families.js';

export const metricsRegistry = new Registry();

/** The Prometheus text exposition format, version 0.0.4. */
export const metricsContentType: string = Registry.PROMETHEUS_CONTENT_TYPE;

let processMetrics = false;

/**
 * Adds prom-client's process_* (the names upstream's process collector uses) and nodejs_* runtime
 * metrics, once per process.
 */
export function collectProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: metricsRegistry });
}

/** Every registered metric in the text exposition format. */
export function renderMetrics(): Promise<string> {
  return metricsRegistry.metrics();
}
