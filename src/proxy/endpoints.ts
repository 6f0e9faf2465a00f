/**
 * The endpoints of each Service port, merged from the Service's EndpointSlices as upstream's
 * EndpointSliceCache does: slices of the proxy's address family only, each endpoint's first
 * address, ports without a name or number skipped, one endpoint per `ip:port` (a copy on this
 * node wins), sorted by `ip:port` as strings.
 */
import type { JsonObject } from '../util/json.js';
import { endpointChain } from './chain-names.js';
import { num, obj, objs, str, stringMap, strs } from './json.js';
import type { IpFamily } from './service-port.js';

export interface Endpoint {
  readonly ip: string;
  readonly port: number;
  /** `ip:port` (IPv6 in brackets): the sort key and part of the chain hash. */
  readonly endpoint: string;
  readonly ready: boolean;
  readonly serving: boolean;
  readonly terminating: boolean;
  /** On this node (nodeName is the proxy's hostname). */
  readonly local: boolean;
  readonly zoneHints: readonly string[];
}

export interface EndpointWithChain extends Endpoint {
  readonly chain: string;
}

/** The key of a service port in the endpoints map: `ns/name:port` and protocol. */
export function portKey(servicePortName: string, protocol: string): string {
  return `${servicePortName}/${protocol}`;
}

export function serviceOfSlice(slice: JsonObject): string | undefined {
  const meta = obj(slice['metadata']);
  const svc = stringMap(meta['labels'])['kubernetes.io/service-name'];
  return svc === undefined || svc === '' ? undefined : `${str(meta['namespace'])}/${svc}`;
}

/**
 * The endpoints of every port of one Service from its slices, keyed by portKey, each list sorted
 * and with its KUBE-SEP chain.
 */
export function serviceEndpoints(
  service: string,
  slices: Iterable<JsonObject>,
  o: { readonly family: IpFamily; readonly hostname: string },
): Map<string, EndpointWithChain[]> {
  const byPort = new Map<string, Map<string, Endpoint>>();
  for (const slice of slices) {
    if (str(slice['addressType']) !== o.family) continue;
    for (const port of objs(slice['ports'])) {
      if (typeof port['name'] !== 'string' || num(port['port']) === 0) continue;
      const portName = port['name'];
      const protocol = (str(port['protocol']) || 'TCP').toLowerCase();
      const spn = portName === '' ? service : `${service}:${portName}`;
      const key = portKey(spn, protocol);
      let eps = byPort.get(key);
      if (eps === undefined) {
        eps = new Map();
        byPort.set(key, eps);
      }
      for (const e of objs(slice['endpoints'])) {
        const ip = strs(e['addresses'])[0] ?? '';
        if (ip === '') continue;
        const conditions = obj(e['conditions']);
        const p = num(port['port']);
        const endpoint = o.family === 'IPv6' ? `[${ip}]:${p}` : `${ip}:${p}`;
        const local = str(e['nodeName']) !== '' && str(e['nodeName']) === o.hostname;
        const existing = eps.get(endpoint);
        if (existing !== undefined && (existing.local || !local)) continue;
        eps.set(endpoint, {
          ip,
          port: p,
          endpoint,
          ready: conditions['ready'] !== false,
          serving: conditions['serving'] !== false,
          terminating: conditions['terminating'] === true,
          local,
          zoneHints: objs(obj(e['hints'])['forZones'])
            .map((z) => str(z['name']))
            .filter((z) => z !== ''),
        });
      }
    }
  }
  const out = new Map<string, EndpointWithChain[]>();
  for (const [key, eps] of byPort) {
    const cut = key.lastIndexOf('/');
    const spn = key.slice(0, cut);
    const protocol = key.slice(cut + 1);
    out.set(
      key,
      [...eps.values()]
        .sort((a, b) => (a.endpoint < b.endpoint ? -1 : a.endpoint > b.endpoint ? 1 : 0))
        .map((e) => ({ ...e, chain: endpointChain(spn, protocol, e.endpoint) })),
    );
  }
  return out;
}
