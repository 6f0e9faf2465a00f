/**
 * The EndpointSlice controller (upstream v1.27 pkg/controller/endpointslice/endpointslice_controller.go):
 * for every Service with a selector (not ExternalName, NW-13), discovery.k8s.io/v1 EndpointSlices
 * labelled `kubernetes.io/service-name` and `endpointslice.kubernetes.io/managed-by:
 * endpointslice-controller.k8s.io`, owned by the Service (the garbage collector removes them with
 * it), at most 100 endpoints each (reconciler.ts), with the last-change-trigger-time annotation.
 * Syncs follow Services, their pods, nodes (zones and topology hints, NW-04) and the controller's
 * own slices; a sync whose slice cache misses the controller's own writes is retried
 * (endpointslice_tracker.go).
 */
import { ApiError, hasStatusCause } from '../../client/api-error.js';
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import { keyFor } from '../../client/object-meta.js';
import type { RestClient } from '../../client/rest-client.js';
import type { SharedInformer } from '../../client/shared-informer.js';
import type { WorkQueue } from '../../client/workqueue.js';
import type { JsonObject } from '../../util/json.js';
import { isJsonObject } from '../../util/json.js';
import {
  lastChangeTriggerTimeAnnotation,
  rfc3339Nano,
  serviceSelector,
  podsSelectedIndexed,
  servicesForPodChange,
  indexPodsByLabel,
  indexServicesBySelector,
  serviceType,
} from '../endpoint/pod-endpoints.js';
import { TriggerTimeTracker } from '../endpoint/trigger-time-tracker.js';
import { realClock } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { arr, deleting, labels, name, namespace, obj } from '../util/objects.js';
import { controllerQueue, informersSynced, runWorkers } from '../util/workers.js';
import { planSlices } from './reconciler.js';
import { controllerName, hintsEnabled, labelManagedBy, labelServiceName, zoneLabel } from './slice-utils.js';
import { EndpointSliceTracker } from './slice-tracker.js';
import { zoneRatios } from './topology-cache.js';

export interface EndpointSliceControllerOptions {
  readonly client: RestClient;
  readonly informers: SharedInformerFactory;
  readonly onError?: (err: unknown) => void;
  /** Services synced in parallel (upstream --concurrent-service-endpoint-syncs, 5). */
  readonly workers?: number;
  /** --max-endpoints-per-slice (100). */
  readonly maxEndpointsPerSlice?: number;
  /** The TopologyAwareHints feature gate (beta, on by default in v1.27). */
  readonly topologyAwareHints?: boolean;
  readonly clock?: Clock;
}

const servicesPath = '/api/v1/services';
const podsPath = '/api/v1/pods';
const nodesPath = '/api/v1/nodes';
const slicesPath = '/apis/discovery.k8s.io/v1/endpointslices';
const slicesOf = (ns: string): string =>
  `/apis/discovery.k8s.io/v1/namespaces/${encodeURIComponent(ns)}/endpointslices`;

function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.code === 404;
}

/** The Service key a slice belongs to (serviceControllerKey). */
function serviceKeyOf(slice: JsonObject): string {
  return keyFor(namespace(slice), labels(slice)[labelServiceName] ?? '');
}

function managedByUs(slice: JsonObject): boolean {
  return labels(slice)[labelManagedBy] === controllerName;
}

function nodeTopology(node: JsonObject): string {
  const ready = arr(obj(node['status'])['conditions']).some(
    (c) => isJsonObject(c) && c['type'] === 'Ready' && c['status'] === 'True',
  );
  return JSON.stringify([
    labels(node)[zoneLabel] ?? '',
    ready,
    obj(obj(node['status'])['allocatable'])['cpu'] ?? '',
  ]);
}

const sliceServiceIndex = 'endpointslice-service';

export class EndpointSliceController {
  readonly #o: EndpointSliceControllerOptions;
  readonly #queue: WorkQueue;
  readonly #triggerTimes = new TriggerTimeTracker();
  readonly #tracker = new EndpointSliceTracker(serviceKeyOf);
  #services: SharedInformer | undefined;
  #pods: SharedInformer | undefined;
  #nodes: SharedInformer | undefined;
  #slices: SharedInformer | undefined;
  #ratios: Map<string, number> | undefined;

  constructor(o: EndpointSliceControllerOptions) {
    this.#o = o;
    this.#queue = controllerQueue('endpointslice', o.onError, o.clock ?? realClock);
  }

  /** Runs until `signal` aborts (the informer factory is started by the caller). */
  async run(signal: AbortSignal): Promise<void> {
    const inf = this.#o.informers;
    const services = inf.informerFor(servicesPath);
    const pods = inf.informerFor(podsPath);
    const nodes = inf.informerFor(nodesPath);
    const slices = inf.informerFor(slicesPath);
    this.#services = services;
    this.#nodes = nodes;
    this.#pods = pods;
    // Which Services select a pod, and which pods a Service selects, without scanning namespaces.
    indexServicesBySelector(services.store);
    indexPodsByLabel(pods.store);
    this.#slices = slices;
    // Slices by their Service (namespace and kubernetes.io/service-name), not a namespace scan.
    slices.store.ensureIndex(sliceServiceIndex, (x) => {
      const svc = labels(x)[labelServiceName];
      return svc === undefined ? [] : [`${namespace(x)}/${svc}`];
    });
    const enqueue = (o: JsonObject): void => this.#queue.add(keyFor(namespace(o), name(o)));
    const nodesChanged = (): void => {
      if (this.#o.topologyAwareHints === false) return;
      this.#ratios = zoneRatios(nodes.store.list());
      for (const s of services.store.list()) if (hintsEnabled(s)) enqueue(s);
    };
    const regs = [
      services.addEventHandler({ onAdd: enqueue, onUpdate: (_o, s) => enqueue(s), onDelete: enqueue }),
      pods.addEventHandler({
        onAdd: (p) => this.#podChanged(undefined, p),
        onUpdate: (old, p) => this.#podChanged(old, p),
        onDelete: (p) => this.#podChanged(undefined, p),
      }),
      nodes.addEventHandler({
        onAdd: nodesChanged,
        onUpdate: (old, n) => {
          if (nodeTopology(old) !== nodeTopology(n)) nodesChanged();
        },
        onDelete: nodesChanged,
      }),
      slices.addEventHandler(this.#tracker.eventHandler(managedByUs, (key) => this.#queue.add(key))),
    ];
    try {
      if (!(await informersSynced([services, pods, nodes, slices], signal))) return;
      if (this.#o.topologyAwareHints !== false) this.#ratios = zoneRatios(nodes.store.list());
      await runWorkers(this.#queue, this.#o.workers ?? 5, (key) => this.syncService(key, signal), signal);
    } finally {
      for (const r of regs) r.remove();
    }
  }

  #podChanged(old: JsonObject | undefined, pod: JsonObject): void {
    const services = this.#services?.store;
    if (services === undefined) return;
    for (const k of servicesForPodChange(services, old, pod)) this.#queue.add(k);
  }

  /** One sync of Service `key` (`namespace/name`). */
  async syncService(key: string, signal: AbortSignal): Promise<undefined> {
    const ns = key.slice(0, key.indexOf('/'));
    const service = this.#services?.store.get(key);
    if (service === undefined) {
      // Slices go with their owner through the garbage collector.
      this.#triggerTimes.delete(key);
      this.#tracker.deleteService(key);
      return undefined;
    }
    if (serviceType(service) === 'ExternalName') return undefined;
    const selector = serviceSelector(service);
    if (selector === undefined) return undefined;
    const podStore = this.#pods?.store;
    const pods = podStore === undefined ? [] : podsSelectedIndexed(podStore, service);
    const existing = (this.#slices?.store.byIndex(sliceServiceIndex, key) ?? []).filter(
      (s) => labels(s)[labelServiceName] === name(service) && managedByUs(s),
    );
    if (this.#tracker.stale(key, existing)) {
      throw new Error('EndpointSlice informer cache is out of date');
    }
    const live = existing.filter((s) => !deleting(s));
    const trigger = this.#triggerTimes.compute(key, service, pods);
    const triggerTime = trigger.time;
    const plan = planSlices({
      service,
      pods,
      existing: live,
      nodeByName: (n) => this.#nodes?.store.get(n),
      zoneRatios: this.#ratios,
      topologyHints: this.#o.topologyAwareHints !== false,
      ...(this.#o.maxEndpointsPerSlice !== undefined
        ? { maxEndpointsPerSlice: this.#o.maxEndpointsPerSlice }
        : {}),
    });
    const annotate = (slice: JsonObject): void => {
      const m = obj(slice['metadata']);
      const ann = { ...obj(m['annotations']) };
      if (triggerTime !== undefined) ann[lastChangeTriggerTimeAnnotation] = rfc3339Nano(triggerTime);
      else delete ann[lastChangeTriggerTimeAnnotation];
      m['annotations'] = ann;
      slice['metadata'] = m;
    };
    const client = this.#o.client;
    // No new slices for a Service being deleted (the garbage collector is removing them).
    if (!deleting(service)) {
      for (const slice of plan.create) {
        annotate(slice);
        try {
          this.#tracker.update(await client.request('POST', slicesOf(ns), { body: slice, signal }));
        } catch (err) {
          if (hasStatusCause(err, 'NamespaceTerminating')) return undefined;
          throw err;
        }
      }
    }
    for (const slice of plan.update) {
      annotate(slice);
      const path = `${slicesOf(ns)}/${encodeURIComponent(name(slice))}`;
      this.#tracker.update(await client.request('PUT', path, { body: slice, signal }));
    }
    for (const slice of plan.delete) {
      try {
        await client.request('DELETE', `${slicesOf(ns)}/${encodeURIComponent(name(slice))}`, { signal });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      this.#tracker.expectDeletion(slice);
    }
    trigger.commit();
    if (plan.missingNodes.length > 0) {
      throw new Error(`skipping pods of Service ${key}: Node ${plan.missingNodes[0] ?? ''} Not Found`);
    }
    return undefined;
  }
}
