/**
 * The bootstrap controller's `kubernetes` Service half (upstream v1.27 pkg/controlplane/controller.go
 * with the default lease endpoint reconciler, for one API server): keeps the `default` namespace,
 * the `kubernetes` Service, its Endpoints and its EndpointSlice. Like upstream, the Service's
 * ports and type, and the Endpoints' ports, are reset on the first run only (later a missing
 * Service is recreated but a changed one left alone); the Endpoints' address, subset shape and
 * skip-mirror label, and the whole EndpointSlice, are repaired whenever they drift. Upstream polls
 * every 10 s; this also follows informers of the three objects, so a deletion is undone at once.
 * On shutdown nothing is removed: upstream's lease reconciler refuses to erase the last
 * API server's endpoints too.
 */
import { ApiError } from '../../client/api-error.js';
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import { keyFor } from '../../client/object-meta.js';
import type { RestClient } from '../../client/rest-client.js';
import type { SharedInformer } from '../../client/shared-informer.js';
import { WorkQueue } from '../../client/workqueue.js';
import type { Clock } from '../../util/clock.js';
import type { JsonObject } from '../../util/json.js';
import {
  desiredService,
  endpointSliceFor,
  endpointsRepair,
  serviceName,
  serviceNamespace,
  serviceRepair,
  sliceUpToDate,
} from './desired.js';
import type { ApiserverServiceSpec } from './desired.js';

/**
 * Upstream's master leases (the lease endpoint reconciler's storage): each API server renews a
 * short-lived record of its address, and the Endpoints list every address with a live record.
 */
export interface EndpointLeases {
  /** Renews this server's record and returns every live server's address, in a stable order. */
  renewAndList(signal: AbortSignal): Promise<string[]>;
  /** Removes this server's record (shutdown) and returns the addresses left. */
  remove(): Promise<string[]>;
}

export interface ApiserverServiceOptions extends Omit<ApiserverServiceSpec, 'servicePort' | 'endpointIP'> {
  readonly client: RestClient;
  /** The advertise address; without one only the Service is kept (no loopback in Endpoints). */
  readonly endpointIP?: string;
  readonly informers: SharedInformerFactory;
  /** Default 443, as upstream's --kubernetes-service port. */
  readonly servicePort?: number;
  /** Periodic resync (upstream's --endpoint-reconciler interval, 10 s). */
  readonly intervalMs?: number;
  readonly onError?: (err: unknown) => void;
  /** What the periodic resync and retries wait on (default: the real clock). */
  readonly clock?: Clock;
  /** Several API servers: the Endpoints list every one with a live lease (default: this one only). */
  readonly leases?: EndpointLeases;
}

const namespacesPath = '/api/v1/namespaces';
const nameSelector = `fieldSelector=${encodeURIComponent(`metadata.name=${serviceName}`)}`;
const servicesPath = `/api/v1/namespaces/${serviceNamespace}/services`;
const endpointsPath = `/api/v1/namespaces/${serviceNamespace}/endpoints`;
const slicesPath = `/apis/discovery.k8s.io/v1/namespaces/${serviceNamespace}/endpointslices`;
const queueKey = serviceName;
const key = keyFor(serviceNamespace, serviceName);

/** True for "already exists" (the informer lags a create). */
function alreadyExists(err: unknown): boolean {
  return err instanceof ApiError && err.code === 409 && err.reason === 'AlreadyExists';
}

export class ApiserverServiceController {
  readonly #o: ApiserverServiceOptions;
  readonly #spec: ApiserverServiceSpec;
  readonly #hasEndpoints: boolean;
  readonly #queue: WorkQueue;
  /** Ports and type are reconciled until the first sync succeeds. */
  #reconcile = true;

  constructor(o: ApiserverServiceOptions) {
    this.#o = o;
    this.#spec = {
      serviceIP: o.serviceIP,
      servicePort: o.servicePort ?? 443,
      endpointIP: o.endpointIP ?? '',
      endpointPort: o.endpointPort,
    };
    this.#hasEndpoints = o.endpointIP !== undefined;
    const onError = o.onError;
    this.#queue = new WorkQueue({
      ...(onError !== undefined ? { onError: (err: unknown) => onError(err) } : {}),
      ...(o.clock !== undefined ? { clock: o.clock } : {}),
    });
  }

  #informer(path: string): SharedInformer {
    return this.#o.informers.informerFor(path === namespacesPath ? path : `${path}?${nameSelector}`);
  }

  /** Runs until `signal` aborts (the informer factory is started by the caller). */
  async run(signal: AbortSignal): Promise<void> {
    const enqueue = (): void => this.#queue.add(queueKey);
    const registrations = [
      this.#informer(namespacesPath).addEventHandler({ onDelete: enqueue }),
      ...[servicesPath, endpointsPath, slicesPath].map((p) =>
        this.#informer(p).addEventHandler({ onAdd: enqueue, onUpdate: enqueue, onDelete: enqueue }),
      ),
    ];
    enqueue();
    try {
      await this.#queue.run(async () => {
        await this.#sync(signal);
        this.#queue.forget(queueKey);
        return this.#o.intervalMs ?? 10_000;
      }, signal);
    } finally {
      for (const r of registrations) r.remove();
      await this.#leave();
    }
  }

  /**
   * RemoveEndpoints on shutdown: this server's lease goes and the Endpoints list the servers left
   * (none left: they are kept, as upstream refuses to erase every endpoint).
   */
  async #leave(): Promise<void> {
    const leases = this.#o.leases;
    if (leases === undefined || !this.#hasEndpoints) return;
    const signal = AbortSignal.timeout(2000);
    try {
      const left = await leases.remove();
      if (left.length === 0) return;
      const current = this.#informer(endpointsPath).store.get(key);
      const repaired = endpointsRepair(current, this.#spec, true, left);
      if (repaired === undefined || current === undefined) return;
      const written = await this.#o.client.request('PUT', `${endpointsPath}/${serviceName}`, {
        body: repaired,
        signal,
      });
      await this.#ensureSlice(this.#informer(slicesPath), written, signal);
    } catch (err) {
      this.#o.onError?.(err);
    }
  }

  async #create(path: string, body: JsonObject, signal: AbortSignal): Promise<void> {
    try {
      await this.#o.client.request('POST', path, { body, signal });
    } catch (err) {
      if (!alreadyExists(err)) throw err;
    }
  }

  /** UpdateKubernetesService. */
  async #sync(signal: AbortSignal): Promise<void> {
    const informers = [namespacesPath, servicesPath, endpointsPath, slicesPath].map((p) => this.#informer(p));
    for (const i of informers) if (!(await i.synced)) return;
    const [namespaces, services, endpoints, slices] = informers as [
      SharedInformer,
      SharedInformer,
      SharedInformer,
      SharedInformer,
    ];
    const client = this.#o.client;
    if (namespaces.store.get(serviceNamespace) === undefined) {
      await this.#create(
        namespacesPath,
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: serviceNamespace } },
        signal,
      );
    }

    const service = services.store.get(key);
    if (service === undefined) {
      await this.#create(servicesPath, desiredService(this.#spec), signal);
    } else if (this.#reconcile) {
      const repaired = serviceRepair(service, this.#spec);
      if (repaired !== undefined) {
        await client.request('PUT', `${servicesPath}/${serviceName}`, { body: repaired, signal });
      }
    }

    if (!this.#hasEndpoints) {
      this.#reconcile = false;
      return;
    }
    const ips = this.#o.leases === undefined ? undefined : await this.#o.leases.renewAndList(signal);
    if (ips !== undefined && ips.length === 0) {
      throw new Error(
        'no API server IP addresses were listed in storage, refusing to erase all endpoints for the kubernetes service',
      );
    }
    const current = endpoints.store.get(key);
    let written = current;
    const repaired = endpointsRepair(current, this.#spec, this.#reconcile, ips);
    if (repaired !== undefined) {
      if (current === undefined) {
        try {
          written = await client.request('POST', endpointsPath, { body: repaired, signal });
        } catch (err) {
          if (!alreadyExists(err)) throw err;
          written = undefined;
        }
      } else {
        written = await client.request('PUT', `${endpointsPath}/${serviceName}`, { body: repaired, signal });
      }
    }
    if (written !== undefined) await this.#ensureSlice(slices, written, signal);
    this.#reconcile = false;
  }

  /** EndpointsAdapter.EnsureEndpointSliceFromEndpoints. */
  async #ensureSlice(slices: SharedInformer, endpoints: JsonObject, signal: AbortSignal): Promise<void> {
    const want = endpointSliceFor(endpoints);
    const current = slices.store.get(key);
    if (current === undefined) {
      await this.#create(slicesPath, want, signal);
      return;
    }
    const path = `${slicesPath}/${serviceName}`;
    if (current['addressType'] !== want['addressType']) {
      await this.#o.client.request('DELETE', path, { signal });
      await this.#o.client.request('POST', slicesPath, { body: want, signal });
      return;
    }
    if (sliceUpToDate(current, want)) return;
    await this.#o.client.request('PUT', path, { body: want, signal });
  }
}
