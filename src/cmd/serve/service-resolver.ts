/**
 * Where a Service's webhook answers, as kube-apiserver's endpoint routing resolves it (apiserver
 * pkg/util/proxy ResolveEndpoint; newer releases read EndpointSlices, v1.27 read Endpoints):
 * the Service port → the port of the same name in the Service's EndpointSlices (label
 * `kubernetes.io/service-name`; slices of the Service's first IP family first), and the first
 * address of an endpoint not marked unready there; without a usable slice, the Endpoints' port of
 * that name and its first ready address. An ExternalName Service answers at its external name.
 * Used for webhooks given as a `service` reference (TLS then checks `<name>.<namespace>.svc`), so
 * a selector-less Service with a hand-made EndpointSlice can point at a webhook on the host.
 *
 * Reads go to the watch caches (upstream reads informer listers) and, when those have nothing
 * usable yet, once more to storage, so that objects written a moment ago are found.
 */
import { StatusError } from '../../machinery/errors.js';
import type { KubeObject } from '../../machinery/object.js';
import type { GenericStore } from '../../registry/generic/store.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';
import type { ServiceAddress } from '../../apiserver/webhook/post.js';

/** The reads the resolver makes of a store (a GenericStore has them). */
export type ResolverReads = Pick<GenericStore, 'get' | 'list'>;

export interface ServiceResolverStores {
  readonly services: ResolverReads;
  /** discovery.k8s.io/v1 EndpointSlices; undefined when that API is not served (Endpoints only). */
  readonly endpointSlices?: ResolverReads | undefined;
  readonly endpoints: ResolverReads;
}

/** The label tying an EndpointSlice to its Service (discovery.k8s.io/v1 LabelServiceName). */
export const serviceNameLabel = 'kubernetes.io/service-name';

function objects(v: unknown): JsonObject[] {
  return Array.isArray(v) ? v.filter(isJsonObject) : [];
}

/** A get from the watch cache (`live` false) or from storage; undefined when not found. */
async function getOrUndefined(
  store: ResolverReads,
  ns: string,
  name: string,
  live: boolean,
): Promise<KubeObject | undefined> {
  try {
    return await (live ? store.get(ns, name) : store.get(ns, name, '0'));
  } catch (err) {
    if (err instanceof StatusError && err.code === 404) return undefined;
    throw err;
  }
}

/** ResolveEndpoint's pick among EndpointSlices (its RandomEndpoint, in order instead of at random). */
function fromSlices(
  slices: readonly JsonObject[],
  portName: string,
  preferredFamily: string,
): ServiceAddress | undefined {
  const ordered = [...slices].sort(
    (a, b) => Number(b['addressType'] === preferredFamily) - Number(a['addressType'] === preferredFamily),
  );
  for (const slice of ordered) {
    const endpoints = objects(slice['endpoints']);
    if (endpoints.length === 0) continue;
    for (const p of objects(slice['ports'])) {
      // Stored slices always carry a name ('' for an unnamed port: the API defaults it).
      if ((typeof p['name'] === 'string' ? p['name'] : '') !== portName) continue;
      if (typeof p['port'] !== 'number') continue;
      for (const ep of endpoints) {
        const conditions = isJsonObject(ep['conditions']) ? ep['conditions'] : {};
        // Ready unset means ready; only an explicit false excludes the endpoint.
        if (conditions['ready'] === false) continue;
        const addresses = Array.isArray(ep['addresses']) ? ep['addresses'] : [];
        const address = addresses[0];
        if (typeof address === 'string') return { host: address, port: p['port'] };
      }
    }
  }
  return undefined;
}

/** v1.27's pick in the Endpoints object: a subset with addresses and the port of that name. */
function fromEndpoints(ep: JsonObject | undefined, portName: string): ServiceAddress | undefined {
  for (const subset of objects(ep?.['subsets'])) {
    const p = objects(subset['ports']).find((x) => (x['name'] ?? '') === portName);
    const address = objects(subset['addresses'])[0];
    if (p !== undefined && typeof p['port'] === 'number' && typeof address?.['ip'] === 'string') {
      return { host: address['ip'], port: p['port'] };
    }
  }
  return undefined;
}

export function serviceResolver(
  stores: ServiceResolverStores,
): (namespace: string, name: string, port: number) => Promise<ServiceAddress> {
  const slicesOf = async (namespace: string, name: string, live: boolean): Promise<JsonObject[]> => {
    if (stores.endpointSlices === undefined) return [];
    const labelSelector = `${serviceNameLabel}=${name}`;
    const list = await stores.endpointSlices.list(
      namespace,
      live ? { labelSelector } : { labelSelector, resourceVersion: '0' },
    );
    return list.items;
  };

  return async (namespace, name, port) => {
    const svc =
      (await getOrUndefined(stores.services, namespace, name, false)) ??
      (await getOrUndefined(stores.services, namespace, name, true));
    if (svc === undefined) throw new Error(`service "${name}" not found`);
    const spec = isJsonObject(svc['spec']) ? svc['spec'] : {};
    const type = typeof spec['type'] === 'string' ? spec['type'] : 'ClusterIP';
    if (type === 'ExternalName' && typeof spec['externalName'] === 'string') {
      return { host: spec['externalName'], port };
    }
    if (type !== 'ClusterIP' && type !== 'NodePort' && type !== 'LoadBalancer') {
      throw new Error(`unsupported service type ${JSON.stringify(type)}`);
    }
    const svcPort = objects(spec['ports']).find((p) => p['port'] === port);
    if (svcPort === undefined) throw new Error(`no service port ${port} found for service "${name}"`);
    const portName = typeof svcPort['name'] === 'string' ? svcPort['name'] : '';
    const families = Array.isArray(spec['ipFamilies']) ? spec['ipFamilies'] : [];
    const preferred = typeof families[0] === 'string' ? families[0] : '';
    for (const live of [false, true]) {
      const slices = await slicesOf(namespace, name, live);
      const fromSlice = fromSlices(slices, portName, preferred);
      if (fromSlice !== undefined) return fromSlice;
      const fromEp = fromEndpoints(await getOrUndefined(stores.endpoints, namespace, name, live), portName);
      if (fromEp !== undefined) return fromEp;
    }
    throw new Error(`no endpoints available for service "${name}"`);
  };
}
