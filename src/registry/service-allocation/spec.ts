/** Reading a Service's spec for allocation (upstream pkg/api/service/util.go and alloc.go helpers). */
import { num, obj, objArr, str, strArr, strMap } from '../../apis/core/v1/access.js';
import type { JsonObject } from '../../util/json.js';
import type { IPFamilyName } from './types.js';

export const specOf = (svc: JsonObject): JsonObject => obj(svc, 'spec') ?? {};

export const isExternalName = (spec: JsonObject): boolean => str(spec, 'type') === 'ExternalName';

export function needsNodePorts(spec: JsonObject): boolean {
  const type = str(spec, 'type');
  return type === 'NodePort' || type === 'LoadBalancer';
}

/** Upstream shouldAllocateNodePorts: LoadBalancers may opt out with allocateLoadBalancerNodePorts. */
export function shouldAllocateNodePorts(spec: JsonObject): boolean {
  const type = str(spec, 'type');
  if (type === 'NodePort') return true;
  if (type === 'LoadBalancer') return spec['allocateLoadBalancerNodePorts'] !== false;
  return false;
}

/** Upstream apiservice.NeedsHealthCheck: LoadBalancer with externalTrafficPolicy Local. */
export function needsHealthCheck(spec: JsonObject): boolean {
  return str(spec, 'type') === 'LoadBalancer' && str(spec, 'externalTrafficPolicy') === 'Local';
}

export function isHeadlessSpec(spec: JsonObject): boolean {
  const ips = strArr(spec, 'clusterIPs');
  return ips[0] === 'None' || str(spec, 'clusterIP') === 'None';
}

export const familyOf = (ip: string): IPFamilyName => (ip.includes(':') ? 'IPv6' : 'IPv4');

/** The addresses a stored Service holds (none for ExternalName and headless ones). */
export function heldIPs(spec: JsonObject): string[] {
  if (isExternalName(spec) || isHeadlessSpec(spec)) return [];
  const ips = strArr(spec, 'clusterIPs');
  if (ips.length > 0) return ips.filter((ip) => ip !== '');
  const ip = str(spec, 'clusterIP') ?? '';
  return ip === '' ? [] : [ip];
}

/** Upstream collectServiceNodePorts: the distinct node ports of spec.ports. */
export function nodePortsOf(spec: JsonObject): number[] {
  const out: number[] = [];
  for (const p of objArr(spec, 'ports')) {
    const n = num(p, 'nodePort') ?? 0;
    if (n !== 0 && !out.includes(n)) out.push(n);
  }
  return out;
}

/** The ports a stored Service holds: its node ports and, when it needs one, the health check port. */
export function heldPorts(spec: JsonObject): number[] {
  const out = nodePortsOf(spec);
  const hc = num(spec, 'healthCheckNodePort') ?? 0;
  if (needsHealthCheck(spec) && hc !== 0 && !out.includes(hc)) out.push(hc);
  return out;
}

export const hasSelector = (spec: JsonObject): boolean =>
  Object.keys(strMap(spec, 'selector') ?? {}).length > 0;
