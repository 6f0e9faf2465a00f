/**
 * The EndpointSlice mirroring controller (upstream v1.27
 * pkg/controller/endpointslicemirroring/endpointslicemirroring_controller.go): Endpoints objects of
 * Services without a selector — written by users or other controllers — are mirrored into
 * EndpointSlices managed by `endpointslicemirroring-controller.k8s.io` and owned by the Endpoints
 * (mirror-reconciler.ts). Endpoints labelled `endpointslice.kubernetes.io/skip-mirror: "true"`
 * (the API server's own `kubernetes` Endpoints) and leader-election locks are not mirrored; when an
 * Endpoints object stops qualifying (deleted, skip-mirror, its Service gone or given a selector),
 * its mirrored slices are deleted.
 *
 * Skipped addresses are reported as upstream's Warning events on the Endpoints
 * (InvalidIPAddress, TooManyAddressesToMirror). Divergence: upstream's per-sync metrics
 * (endpoint_slice_mirroring_controller_*) are not kept.
 */
import { ApiError } from '../../client/api-error.js';
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import { keyFor } from '../../client/object-meta.js';
import type { RestClient } from '../../client/rest-client.js';
import type { SharedInformer } from '../../client/shared-informer.js';
import type { WorkQueue } from '../../client/workqueue.js';
import type { JsonObject } from '../../util/json.js';
import { isJsonObject } from '../../util/json.js';
import { leaderAnnotation, serviceSelector } from '../endpoint/pod-endpoints.js';
import { labelManagedBy, labelServiceName } from '../endpointslice/slice-utils.js';
import { EndpointSliceTracker } from '../endpointslice/slice-tracker.js';
import { realClock } from '../util/clock.js';
import { noEvents } from '../util/events.js';
import type { ControllerEvents } from '../util/events.js';
import type { Clock } from '../util/clock.js';
import { NamespaceIndex } from '../util/namespace-index.js';
import { annotations, arr, deleting, labels, name, namespace, obj } from '../util/objects.js';
import { controllerQueue, informersSynced, runWorkers } from '../util/workers.js';
import { defaultMaxEndpointsPerSubset, planMirror } from './mirror-reconciler.js';
import { mirroringControllerName, skipMirrorLabel } from './mirror-utils.js';

export interface MirroringControllerOptions {
  readonly client: RestClient;
  readonly informers: SharedInformerFactory;
  readonly onError?: (err: unknown) => void;
  /** --mirroring-concurrent-service-endpoint-syncs (5). */
  readonly workers?: number;
  /** --mirroring-max-endpoints-per-subset (1000). */
  readonly maxEndpointsPerSubset?: number;
  /** Where the Warning events about skipped addresses go (default: none). */
  readonly events?: ControllerEvents;
  readonly clock?: Clock;
}

const servicesPath = '/api/v1/services';
const endpointsPath = '/api/v1/endpoints';
const slicesPath = '/apis/discovery.k8s.io/v1/endpointslices';
const slicesOf = (ns: string): string =>
  `/apis/discovery.k8s.io/v1/namespaces/${encodeURIComponent(ns)}/endpointslices`;

function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.code === 404;
}

function isNamespaceTerminating(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  return arr(obj(err.status?.['details'])['causes']).some(
    (c) => isJsonObject(c) && c['type'] === 'NamespaceTerminating',
  );
}

/** shouldMirror: not skip-mirror, not a leader-election lock. */
function shouldMirror(endpoints: JsonObject): boolean {
  return (
    labels(endpoints)[skipMirrorLabel] !== 'true' && annotations(endpoints)[leaderAnnotation] === undefined
  );
}

function managedByUs(slice: JsonObject): boolean {
  return labels(slice)[labelManagedBy] === mirroringControllerName;
}

function endpointsKeyOf(slice: JsonObject): string {
  return keyFor(namespace(slice), labels(slice)[labelServiceName] ?? '');
}

export class EndpointSliceMirroringController {
  readonly #o: MirroringControllerOptions;
  readonly #queue: WorkQueue;
  readonly #tracker = new EndpointSliceTracker(endpointsKeyOf);
  #services: SharedInformer | undefined;
  #endpoints: SharedInformer | undefined;
  #sliceIndex: NamespaceIndex | undefined;

  constructor(o: MirroringControllerOptions) {
    this.#o = o;
    this.#queue = controllerQueue('endpointslicemirroring', o.onError, o.clock ?? realClock);
  }

  /** Runs until `signal` aborts (the informer factory is started by the caller). */
  async run(signal: AbortSignal): Promise<void> {
    const inf = this.#o.informers;
    const services = inf.informerFor(servicesPath);
    const endpoints = inf.informerFor(endpointsPath);
    const slices = inf.informerFor(slicesPath);
    this.#services = services;
    this.#endpoints = endpoints;
    this.#sliceIndex = new NamespaceIndex(slices);
    const enqueue = (o: JsonObject): void => this.#queue.add(keyFor(namespace(o), name(o)));
    const selectorless = (s: JsonObject): boolean => serviceSelector(s) === undefined;
    const regs = [
      services.addEventHandler({
        onAdd: (s) => selectorless(s) && enqueue(s),
        onUpdate: (old, s) => selectorless(old) !== selectorless(s) && enqueue(s),
        onDelete: (s) => selectorless(s) && enqueue(s),
      }),
      endpoints.addEventHandler({
        onAdd: (e) => shouldMirror(e) && enqueue(e),
        onUpdate: (old, e) => (shouldMirror(old) || shouldMirror(e)) && enqueue(e),
        onDelete: (e) => shouldMirror(e) && enqueue(e),
      }),
      slices.addEventHandler(this.#tracker.eventHandler(managedByUs, (key) => this.#queue.add(key))),
    ];
    try {
      if (!(await informersSynced([services, endpoints, slices], signal))) return;
      await runWorkers(this.#queue, this.#o.workers ?? 5, (key) => this.syncEndpoints(key, signal), signal);
    } finally {
      for (const r of regs) r.remove();
    }
  }

  #mirrored(ns: string, epName: string): JsonObject[] {
    return (this.#sliceIndex?.list(ns) ?? []).filter(
      (s) => managedByUs(s) && labels(s)[labelServiceName] === epName,
    );
  }

  async #deleteMirrored(key: string, ns: string, epName: string, signal: AbortSignal): Promise<undefined> {
    this.#tracker.deleteService(key);
    for (const s of this.#mirrored(ns, epName)) {
      try {
        await this.#o.client.request('DELETE', `${slicesOf(ns)}/${encodeURIComponent(name(s))}`, { signal });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    return undefined;
  }

  /** One sync of Endpoints `key` (`namespace/name`). */
  async syncEndpoints(key: string, signal: AbortSignal): Promise<undefined> {
    const slash = key.indexOf('/');
    const ns = key.slice(0, slash);
    const epName = key.slice(slash + 1);
    const endpoints = this.#endpoints?.store.get(key);
    if (endpoints === undefined || !shouldMirror(endpoints))
      return this.#deleteMirrored(key, ns, epName, signal);
    const service = this.#services?.store.get(key);
    if (service === undefined || serviceSelector(service) !== undefined) {
      return this.#deleteMirrored(key, ns, epName, signal);
    }
    const existing = this.#mirrored(ns, epName);
    if (this.#tracker.stale(key, existing)) throw new Error('EndpointSlice informer cache is out of date');
    const plan = planMirror(
      endpoints,
      existing.filter((s) => !deleting(s)),
      this.#o.maxEndpointsPerSubset ?? defaultMaxEndpointsPerSubset,
    );
    const events = this.#o.events ?? noEvents;
    if (plan.invalidAddresses > 0) {
      events.event(
        endpoints,
        'Warning',
        'InvalidIPAddress',
        `Skipped ${plan.invalidAddresses} invalid IP addresses when mirroring to EndpointSlices`,
      );
    }
    if (plan.addressesSkipped > plan.invalidAddresses) {
      events.event(
        endpoints,
        'Warning',
        'TooManyAddressesToMirror',
        `A max of ${this.#o.maxEndpointsPerSubset ?? defaultMaxEndpointsPerSubset} addresses can be mirrored to EndpointSlices per Endpoints subset. ${plan.addressesSkipped} addresses were skipped`,
      );
    }
    const client = this.#o.client;
    if (!deleting(endpoints)) {
      for (const slice of plan.create) {
        try {
          this.#tracker.update(await client.request('POST', slicesOf(ns), { body: slice, signal }));
        } catch (err) {
          if (isNamespaceTerminating(err)) return undefined;
          throw err;
        }
      }
    }
    for (const slice of plan.update) {
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
    return undefined;
  }
}
