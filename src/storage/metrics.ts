/**
 * kube-apiserver v1.27's storage metrics (k8s.io/apiserver storage/etcd3/metrics): names, labels,
 * buckets and help texts as upstream registers them, recorded by the object store over any
 * backend (SQLite as well as etcd, as kine-backed servers report them), and the storage size
 * polled by the server. Not kept: `etcd_bookmark_counts` (nanokube's watches do not count etcd's
 * progress notifications per resource) and `apiserver_storage_decode_errors_total` (a stored
 * value that does not decode fails its request instead).
 */
import { CounterFamily, GaugeFamily, HistogramFamily, metricsRegistry } from '../util/metrics.js';
import type { CounterCell, HistogramCell } from '../util/metrics.js';

const registry = metricsRegistry;

export const etcdRequestDuration = new HistogramFamily({
  name: 'etcd_request_duration_seconds',
  help: '[ALPHA] Etcd request latency in seconds for each operation and object type.',
  labelNames: ['operation', 'type'],
  buckets: [
    0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60,
  ],
  registry,
});

export const storageDbTotalSize = new GaugeFamily({
  name: 'apiserver_storage_db_total_size_in_bytes',
  help: '[ALPHA] Total size of the storage database file physically allocated in bytes.',
  labelNames: ['endpoint'],
  registry,
});

export const etcdLeaseObjectCounts = new HistogramFamily({
  name: 'etcd_lease_object_counts',
  help: '[ALPHA] Number of objects attached to a single etcd lease.',
  labelNames: [],
  buckets: [10, 50, 100, 500, 1000, 2500, 5000],
  registry,
});

const listTotal = new CounterFamily({
  name: 'apiserver_storage_list_total',
  help: '[ALPHA] Number of LIST requests served from storage',
  labelNames: ['resource'],
  registry,
});
const listFetched = new CounterFamily({
  name: 'apiserver_storage_list_fetched_objects_total',
  help: '[ALPHA] Number of objects read from storage in the course of serving a LIST request',
  labelNames: ['resource'],
  registry,
});
const listEvaluated = new CounterFamily({
  name: 'apiserver_storage_list_evaluated_objects_total',
  help: '[ALPHA] Number of objects tested in the course of serving a LIST request from storage',
  labelNames: ['resource'],
  registry,
});
const listReturned = new CounterFamily({
  name: 'apiserver_storage_list_returned_objects_total',
  help: '[ALPHA] Number of objects returned for a LIST request from storage',
  labelNames: ['resource'],
  registry,
});

export type StorageOperation = 'get' | 'create' | 'update' | 'delete' | 'list';

/**
 * One resource's cells ("pods", "deployments.apps": upstream's group-resource string), looked up
 * once so a request only adds numbers.
 */
export class ResourceMeter {
  readonly #ops: Record<StorageOperation, HistogramCell>;
  readonly #list: readonly [CounterCell, CounterCell, CounterCell, CounterCell];

  constructor(resource: string) {
    const op = (o: StorageOperation): HistogramCell => etcdRequestDuration.cell(o, resource);
    this.#ops = {
      get: op('get'),
      create: op('create'),
      update: op('update'),
      delete: op('delete'),
      list: op('list'),
    };
    this.#list = [
      listTotal.cell(resource),
      listFetched.cell(resource),
      listEvaluated.cell(resource),
      listReturned.cell(resource),
    ];
  }

  /** `call`'s latency as one storage request of `op`, failed or not (as upstream records it). */
  async time<T>(op: StorageOperation, call: Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await call;
    } finally {
      this.#ops[op].observe((performance.now() - started) / 1000);
    }
  }

  /** A LIST served from storage: rows read, objects tested against the selector, objects returned. */
  listed(fetched: number, evaluated: number, returned: number): void {
    const [total, f, e, r] = this.#list;
    total.inc();
    f.inc(fetched);
    e.inc(evaluated);
    r.inc(returned);
  }
}

/** `listWithCount` (the object count poll), labelled with the counted key prefix as upstream does. */
export function timeCount<T>(prefix: string, call: Promise<T>): Promise<T> {
  const started = performance.now();
  return call.finally(() =>
    etcdRequestDuration.cell('listWithCount', prefix).observe((performance.now() - started) / 1000),
  );
}
