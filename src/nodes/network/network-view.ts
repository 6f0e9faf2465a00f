/**
 * What the simulated network is made of, as the nodes' informers hold it: Services, their
 * EndpointSlices, pods and nodes (cluster-network.ts routes over it, cluster-dns.ts answers
 * from it).
 */
import type { JsonObject } from '../../util/json.js';
import { metaOf, strAt } from '../json.js';

export interface NetworkView {
  readonly services: () => Iterable<JsonObject>;
  /** The EndpointSlices of the Service `ns/name`. */
  readonly slicesOf: (namespace: string, name: string) => Iterable<JsonObject>;
  /** The pods (scheduled ones with addresses). */
  readonly pods: () => Iterable<JsonObject>;
  /** The nodes (their addresses take node ports). */
  readonly nodes: () => Iterable<JsonObject>;
  /** The addresses the cluster's DNS server answers on (the kubelets' clusterDNS). */
  readonly dnsServers?: readonly string[];
}

/** The Service `namespace/name`, if there is one. */
export function serviceNamed(view: NetworkView, namespace: string, name: string): JsonObject | undefined {
  for (const s of view.services()) {
    const meta = metaOf(s);
    if (strAt(meta, 'namespace') === namespace && strAt(meta, 'name') === name) return s;
  }
  return undefined;
}
