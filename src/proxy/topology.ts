/**
 * Which endpoints a service port's traffic may go to (upstream pkg/proxy/topology.go
 * CategorizeEndpoints, v1.27 with ProxyTerminatingEndpoints and TopologyAwareHints on, their
 * defaults):
 *
 * - cluster traffic: ready endpoints, narrowed to those hinted for the node's zone when topology
 *   hints apply (NW-04: any hints annotation but `disabled`/`Disabled`, the node has a zone, every
 *   ready endpoint has hints and one names the zone); with no ready endpoint, the serving
 *   terminating ones (NW-15);
 * - local traffic (internalTrafficPolicy or externalTrafficPolicy Local): the node's ready
 *   endpoints, else its serving terminating ones;
 * - every endpoint either list may reach (their KUBE-SEP chains are written).
 */
import type { EndpointWithChain } from './endpoints.js';
import { usesClusterEndpoints, usesLocalEndpoints } from './service-port.js';
import type { ServicePort } from './service-port.js';

export interface Categorized {
  readonly cluster: readonly EndpointWithChain[];
  readonly local: readonly EndpointWithChain[];
  readonly allReachable: readonly EndpointWithChain[];
  /** Whether the port has any usable endpoint at all (ready, or serving and terminating). */
  readonly hasAny: boolean;
}

export const zoneLabel = 'topology.kubernetes.io/zone';

function canUseTopology(
  endpoints: readonly EndpointWithChain[],
  port: ServicePort,
  nodeLabels: Readonly<Record<string, string>>,
): boolean {
  const hints = port.hintsAnnotation;
  if (hints === '' || hints === 'disabled' || hints === 'Disabled') return false;
  const zone = nodeLabels[zoneLabel] ?? '';
  if (zone === '') return false;
  let hinted = false;
  for (const e of endpoints) {
    if (!e.ready) continue;
    if (e.zoneHints.length === 0) return false;
    if (e.zoneHints.includes(zone)) hinted = true;
  }
  return hinted;
}

export function categorizeEndpoints(
  endpoints: readonly EndpointWithChain[],
  port: ServicePort,
  nodeLabels: Readonly<Record<string, string>>,
): Categorized {
  let cluster: EndpointWithChain[] = [];
  let hasAny = false;
  let useTopology = false;
  if (usesClusterEndpoints(port)) {
    useTopology = canUseTopology(endpoints, port, nodeLabels);
    const zone = nodeLabels[zoneLabel] ?? '';
    cluster = endpoints.filter((e) => e.ready && (!useTopology || e.zoneHints.includes(zone)));
    if (cluster.length === 0) cluster = endpoints.filter((e) => e.serving && e.terminating);
    if (cluster.length > 0) hasAny = true;
  }
  if (!usesLocalEndpoints(port)) return { cluster, local: [], allReachable: cluster, hasAny };
  let hasLocalReady = false;
  let hasLocalServingTerminating = false;
  for (const e of endpoints) {
    if (e.ready) {
      hasAny = true;
      if (e.local) hasLocalReady = true;
    } else if (e.serving && e.terminating) {
      hasAny = true;
      if (e.local) hasLocalServingTerminating = true;
    }
  }
  let local: EndpointWithChain[] = [];
  let useServingTerminating = false;
  if (hasLocalReady) local = endpoints.filter((e) => e.local && e.ready);
  else if (hasLocalServingTerminating) {
    useServingTerminating = true;
    local = endpoints.filter((e) => e.local && e.serving && e.terminating);
  }
  if (!usesClusterEndpoints(port)) return { cluster: [], local, allReachable: local, hasAny };
  if (!useTopology && !useServingTerminating) return { cluster, local, allReachable: cluster, hasAny };
  const seen = new Map<string, EndpointWithChain>();
  for (const e of [...cluster, ...local]) seen.set(e.endpoint, e);
  return { cluster, local, allReachable: [...seen.values()], hasAny };
}
