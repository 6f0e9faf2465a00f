/**
 * Where a Service's webhook answers, as kube-apiserver's endpoint routing resolves it
 * (apiserver pkg/util/proxy ResolveEndpoint): the Service's port → its Endpoints' port of the
 * same name, and the first ready address there. Used for webhooks given as a `service` reference.
 */
import { StatusError } from '../../machinery/errors.js';
import type { GenericStore } from '../../registry/generic/store.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';
import type { ServiceAddress } from '../../apiserver/webhook/post.js';

function objects(v: unknown): JsonObject[] {
  return Array.isArray(v) ? v.filter(isJsonObject) : [];
}

async function getOrUndefined(
  store: GenericStore,
  ns: string,
  name: string,
): Promise<JsonObject | undefined> {
  try {
    return await store.get(ns, name);
  } catch (err) {
    if (err instanceof StatusError && err.code === 404) return undefined;
    throw err;
  }
}

export function serviceResolver(services: GenericStore, endpoints: GenericStore) {
  return async (namespace: string, name: string, port: number): Promise<ServiceAddress> => {
    const svc = await getOrUndefined(services, namespace, name);
    if (svc === undefined) throw new Error(`service "${name}" not found`);
    const spec = isJsonObject(svc['spec']) ? svc['spec'] : {};
    const svcPort = objects(spec['ports']).find((p) => p['port'] === port);
    if (svcPort === undefined) throw new Error(`no service port ${port} found for service "${name}"`);
    if (spec['type'] === 'ExternalName' && typeof spec['externalName'] === 'string') {
      return { host: spec['externalName'], port };
    }
    const ep = await getOrUndefined(endpoints, namespace, name);
    const portName = typeof svcPort['name'] === 'string' ? svcPort['name'] : '';
    for (const subset of objects(ep?.['subsets'])) {
      const p = objects(subset['ports']).find((x) => (x['name'] ?? '') === portName);
      const address = objects(subset['addresses'])[0];
      if (p !== undefined && typeof p['port'] === 'number' && typeof address?.['ip'] === 'string') {
        return { host: address['ip'], port: p['port'] };
      }
    }
    throw new Error(`no endpoints available for service "${name}"`);
  };
}
