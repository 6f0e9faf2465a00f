/**
 * What the proxy needs of each Service port (upstream pkg/proxy/service.go newBaseServiceInfo), for
 * one IP family: ExternalName and headless Services, and Services without a cluster IP of the
 * family, are not proxied; external IPs, load balancer ingress IPs and source ranges of the other
 * family are dropped.
 */
import { isIPv4, isIPv6 } from 'node:net';
import type { JsonObject } from '../util/json.js';
import { serviceChains } from './chain-names.js';
import type { ServiceChains } from './chain-names.js';
import { num, obj, objs, str, strs, stringMap } from './json.js';

export type IpFamily = 'IPv4' | 'IPv6';

export interface ServicePort {
  /** `ns/name` of the Service. */
  readonly service: string;
  /** ServicePortName.String(): `ns/name:port`, or `ns/name` for an unnamed port. */
  readonly name: string;
  /** The port's name (empty for an unnamed one). */
  readonly portName: string;
  /** `tcp`, `udp` or `sctp`. */
  readonly protocol: string;
  readonly clusterIP: string;
  readonly port: number;
  /** 0: none. */
  readonly nodePort: number;
  readonly externalIPs: readonly string[];
  readonly loadBalancerIPs: readonly string[];
  readonly loadBalancerSourceRanges: readonly string[];
  /** ClientIP affinity timeout in seconds; 0 without affinity. */
  readonly stickySeconds: number;
  /** externalTrafficPolicy Local on a NodePort or LoadBalancer Service. */
  readonly externalPolicyLocal: boolean;
  readonly internalPolicyLocal: boolean;
  /** 0: none (only LoadBalancer with externalTrafficPolicy Local has one). */
  readonly healthCheckNodePort: number;
  /** The topology hints annotation (topology-aware-hints wins over topology-mode when present). */
  readonly hintsAnnotation: string;
  readonly chains: ServiceChains;
}

export function ofFamily(ip: string, family: IpFamily): boolean {
  return family === 'IPv4' ? isIPv4(ip) : isIPv6(ip);
}

/** Whether a CIDR is of the family. */
export function cidrOfFamily(cidr: string, family: IpFamily): boolean {
  return ofFamily(cidr.split('/')[0] ?? '', family);
}

/** Whether traffic from outside the cluster reaches the port (upstream ExternallyAccessible). */
export function externallyAccessible(p: ServicePort): boolean {
  return p.nodePort !== 0 || p.loadBalancerIPs.length > 0 || p.externalIPs.length > 0;
}

/** Whether the cluster policy chain (KUBE-SVC) may be used (upstream UsesClusterEndpoints). */
export function usesClusterEndpoints(p: ServicePort): boolean {
  return !p.internalPolicyLocal || externallyAccessible(p);
}

/** Whether the local policy chain (KUBE-SVL) may be used (upstream UsesLocalEndpoints). */
export function usesLocalEndpoints(p: ServicePort): boolean {
  return p.internalPolicyLocal || (p.externalPolicyLocal && externallyAccessible(p));
}

/** The ports of `service` the proxy of `family` programs (none for a Service it does not proxy). */
export function servicePorts(service: JsonObject, family: IpFamily): ServicePort[] {
  const meta = obj(service['metadata']);
  const spec = obj(service['spec']);
  const type = str(spec['type']) || 'ClusterIP';
  if (type === 'ExternalName') return [];
  const clusterIPs = strs(spec['clusterIPs']);
  const all = clusterIPs.length > 0 ? clusterIPs : [str(spec['clusterIP'])];
  if (all[0] === '' || all[0] === 'None') return [];
  const clusterIP = all.find((ip) => ofFamily(ip, family));
  if (clusterIP === undefined) return [];
  const namespaced = `${str(meta['namespace'])}/${str(meta['name'])}`;
  const annotations = stringMap(meta['annotations']);
  const hintsAnnotation =
    annotations['service.kubernetes.io/topology-aware-hints'] ??
    annotations['service.kubernetes.io/topology-mode'] ??
    '';
  const externalLocal =
    (type === 'NodePort' || type === 'LoadBalancer') && str(spec['externalTrafficPolicy']) === 'Local';
  const affinity = str(spec['sessionAffinity']) === 'ClientIP';
  const timeout = num(obj(obj(spec['sessionAffinityConfig'])['clientIP'])['timeoutSeconds']);
  const lbIPs =
    type === 'LoadBalancer'
      ? objs(obj(obj(service['status'])['loadBalancer'])['ingress'])
          .map((i) => str(i['ip']))
          .filter((ip) => ip !== '' && ofFamily(ip, family))
      : [];
  return objs(spec['ports']).map((port) => {
    const portName = str(port['name']);
    const name = portName === '' ? namespaced : `${namespaced}:${portName}`;
    const protocol = (str(port['protocol']) || 'TCP').toLowerCase();
    return {
      service: namespaced,
      name,
      portName,
      protocol,
      clusterIP,
      port: num(port['port']),
      nodePort: type === 'NodePort' || type === 'LoadBalancer' ? num(port['nodePort']) : 0,
      externalIPs: strs(spec['externalIPs']).filter((ip) => ofFamily(ip, family)),
      loadBalancerIPs: lbIPs,
      loadBalancerSourceRanges: strs(spec['loadBalancerSourceRanges'])
        .map((r) => r.trim())
        .filter((r) => cidrOfFamily(r, family)),
      stickySeconds: affinity ? timeout || 10800 : 0,
      externalPolicyLocal: externalLocal,
      internalPolicyLocal: str(spec['internalTrafficPolicy']) === 'Local',
      healthCheckNodePort: type === 'LoadBalancer' && externalLocal ? num(spec['healthCheckNodePort']) : 0,
      hintsAnnotation,
      chains: serviceChains(name, protocol),
    };
  });
}
