/**
 * The Endpoints controller (upstream v1.27 pkg/controller/endpoint/endpoints_controller.go): keeps
 * one core/v1 Endpoints per Service with a selector, named as the Service, listing the pods the
 * selector matches (see desired-endpoints.ts), with the Service's labels, the
 * `service.kubernetes.io/headless` label when it has no cluster IP, the
 * `endpoints.kubernetes.io/last-change-trigger-time` annotation and, past 1000 addresses,
 * `endpoints.kubernetes.io/over-capacity: truncated`. ExternalName Services and Services without a
 * selector are left alone (NW-13); when a Service goes, its Endpoints go too. At start every
 * Endpoints object (except leader-election locks) is checked once, so leftovers of Services
 * deleted while the controller was down are removed (checkLeftoverEndpoints).
 */
import { ApiError } from '../../client/api-error.js';
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import { keyFor } from '../../client/object-meta.js';
import type { RestClient } from '../../client/rest-client.js';
import type { SharedInformer } from '../../client/shared-informer.js';
import type { WorkQueue } from '../../client/workqueue.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { cloneJson, isJsonObject, jsonEqual } from '../../util/json.js';
import { realClock } from '../util/clock.js';
import { noEvents } from '../util/events.js';
import type { ControllerEvents } from '../util/events.js';
import type { Clock } from '../util/clock.js';
import { annotations, arr, errorMessage, labels, name, namespace, obj } from '../util/objects.js';
import { controllerQueue, informersSynced, runWorkers } from '../util/workers.js';
import { desiredSubsets, subsetsJson, truncateSubsets } from './desired-endpoints.js';
import {
  headlessLabel,
  isServiceIPSet,
  lastChangeTriggerTimeAnnotation,
  leaderAnnotation,
  overCapacityAnnotation,
  rfc3339Nano,
  serviceSelector,
  podsSelectedIndexed,
  servicesForPodChange,
  indexPodsByLabel,
  indexServicesBySelector,
  serviceType,
} from './pod-endpoints.js';
import { TriggerTimeTracker } from './trigger-time-tracker.js';

export interface EndpointsControllerOptions {
  readonly client: RestClient;
  readonly informers: SharedInformerFactory;
  readonly onError?: (err: unknown) => void;
  /** Where FailedToCreateEndpoint/FailedToUpdateEndpoint Warning events go (default: none). */
  readonly events?: ControllerEvents;
  /** Services synced in parallel (upstream --concurrent-endpoint-syncs, 5). */
  readonly workers?: number;
  readonly clock?: Clock;
}

const servicesPath = '/api/v1/services';
const podsPath = '/api/v1/pods';
const endpointsPath = '/api/v1/endpoints';
const endpointsOf = (ns: string): string => `/api/v1/namespaces/${encodeURIComponent(ns)}/endpoints`;

function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.code === 404;
}

function isNamespaceTerminating(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  return arr(obj(err.status?.['details'])['causes']).some(
    (c) => isJsonObject(c) && c['type'] === 'NamespaceTerminating',
  );
}

/** Subsets as compared: targetRef resourceVersions do not count (EndpointSubsetsEqualIgnoreResourceVersion). */
function comparable(subsets: JsonValue | undefined): JsonValue {
  const copy = cloneJson(Array.isArray(subsets) ? subsets : []);
  for (const s of copy) {
    for (const field of ['addresses', 'notReadyAddresses']) {
      for (const a of arr(obj(s)[field])) {
        const ref = obj(a)['targetRef'];
        if (isJsonObject(ref)) delete ref['resourceVersion'];
      }
    }
  }
  return copy;
}

export class EndpointsController {
  readonly #o: EndpointsControllerOptions;
  readonly #queue: WorkQueue;
  readonly #tracker = new TriggerTimeTracker();
  #services: SharedInformer | undefined;
  #pods: SharedInformer | undefined;
  #endpoints: SharedInformer | undefined;

  constructor(o: EndpointsControllerOptions) {
    this.#o = o;
    this.#queue = controllerQueue('endpoint', o.onError, o.clock ?? realClock);
  }

  /** Runs until `signal` aborts (the informer factory is started by the caller). */
  async run(signal: AbortSignal): Promise<void> {
    const services = this.#o.informers.informerFor(servicesPath);
    const pods = this.#o.informers.informerFor(podsPath);
    const endpoints = this.#o.informers.informerFor(endpointsPath);
    this.#services = services;
    this.#endpoints = endpoints;
    this.#pods = pods;
    // Which Services select a pod, and which pods a Service selects, without scanning namespaces.
    indexServicesBySelector(services.store);
    indexPodsByLabel(pods.store);
    const enqueue = (o: JsonObject): void => this.#queue.add(keyFor(namespace(o), name(o)));
    const regs = [
      services.addEventHandler({
        onAdd: enqueue,
        onUpdate: (_old, s) => enqueue(s),
        onDelete: enqueue,
      }),
      pods.addEventHandler({
        onAdd: (p) => this.#podChanged(undefined, p),
        onUpdate: (old, p) => this.#podChanged(old, p),
        onDelete: (p) => this.#podChanged(undefined, p),
      }),
      endpoints.addEventHandler({
        // A deleted Endpoints of a live Service is written again.
        onDelete: (ep) => {
          if (services.store.get(keyFor(namespace(ep), name(ep))) !== undefined) enqueue(ep);
        },
      }),
    ];
    try {
      if (!(await informersSynced([services, pods, endpoints], signal))) return;
      for (const ep of endpoints.store.list()) {
        if (annotations(ep)[leaderAnnotation] === undefined) enqueue(ep);
      }
      await runWorkers(this.#queue, this.#o.workers ?? 5, (key) => this.syncService(key, signal), signal);
    } finally {
      for (const r of regs) r.remove();
    }
  }

  /** Services whose pods changed (getPodServiceMemberships of the old and new pod). */
  #podChanged(old: JsonObject | undefined, pod: JsonObject): void {
    const services = this.#services?.store;
    if (services === undefined) return;
    for (const k of servicesForPodChange(services, old, pod)) this.#queue.add(k);
  }

  /** One sync of Service `key` (`namespace/name`). */
  async syncService(key: string, signal: AbortSignal): Promise<undefined> {
    const slash = key.indexOf('/');
    const ns = key.slice(0, slash);
    const svcName = key.slice(slash + 1);
    const service = this.#services?.store.get(key);
    if (service === undefined) {
      // The Service is gone: so are its Endpoints (a missing one is fine).
      this.#tracker.delete(key);
      try {
        await this.#o.client.request('DELETE', `${endpointsOf(ns)}/${encodeURIComponent(svcName)}`, {
          signal,
        });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      return undefined;
    }
    // ExternalName Services get no endpoints; selector-less ones are the user's (NW-13).
    if (serviceType(service) === 'ExternalName') return undefined;
    const selector = serviceSelector(service);
    if (selector === undefined) return undefined;
    const podStore = this.#pods?.store;
    const pods = podStore === undefined ? [] : podsSelectedIndexed(podStore, service);
    const trigger = this.#tracker.compute(key, service, pods);
    const triggerTime = trigger.time;
    const subsets = desiredSubsets(service, pods);
    const truncated = truncateSubsets(subsets);
    const wantSubsets = subsetsJson(subsets);

    const current = this.#endpoints?.store.get(key);
    const create = current === undefined;
    const wantLabels: Record<string, string> = { ...labels(service) };
    if (!isServiceIPSet(service)) wantLabels[headlessLabel] = '';
    if (!create) {
      const currentAnn = annotations(current);
      const same =
        jsonEqual(comparable(current['subsets']), comparable(wantSubsets)) &&
        jsonEqual(labels(current), wantLabels) &&
        (currentAnn[overCapacityAnnotation] === 'truncated') === truncated;
      if (same) {
        trigger.commit();
        return undefined;
      }
    }
    const next: JsonObject =
      current === undefined
        ? { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: svcName, namespace: ns } }
        : cloneJson(current);
    const m = obj(next['metadata']);
    const ann: Record<string, string> = { ...annotations(next) };
    if (triggerTime !== undefined) ann[lastChangeTriggerTimeAnnotation] = rfc3339Nano(triggerTime);
    else delete ann[lastChangeTriggerTimeAnnotation];
    if (truncated) ann[overCapacityAnnotation] = 'truncated';
    else delete ann[overCapacityAnnotation];
    m['annotations'] = ann;
    m['labels'] = wantLabels;
    next['metadata'] = m;
    next['subsets'] = wantSubsets;
    try {
      if (create) {
        await this.#o.client.request('POST', endpointsOf(ns), { body: next, signal });
      } else {
        await this.#o.client.request('PUT', `${endpointsOf(ns)}/${encodeURIComponent(svcName)}`, {
          body: next,
          signal,
        });
      }
    } catch (err) {
      // Creates in a terminating namespace keep failing: drop the key.
      if (create && isNamespaceTerminating(err)) return undefined;
      const events = this.#o.events ?? noEvents;
      if (create) {
        events.event(
          service,
          'Warning',
          'FailedToCreateEndpoint',
          `Failed to create endpoint for service ${key}: ${errorMessage(err)}`,
        );
      } else {
        events.event(
          service,
          'Warning',
          'FailedToUpdateEndpoint',
          `Failed to update endpoint ${key}: ${errorMessage(err)}`,
        );
      }
      throw err;
    }
    trigger.commit();
    return undefined;
  }
}
