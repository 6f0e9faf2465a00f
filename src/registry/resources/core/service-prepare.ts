/**
 * What upstream's service REST storage does to a Service before validation: keeping clusterIP and
 * clusterIPs in step, carrying allocated values across updates, and dropping fields a type change
 * made irrelevant (pkg/registry/core/service/storage and strategy.go).
 */
import { externallyAccessible } from '../../../apis/core/v1/validation/service.js';
import { ensureObj, num, obj, objArr, str, strArr } from '../../../apis/core/v1/access.js';
import { jsonEqual } from '../../../util/json.js';
import type { JsonObject } from '../../../util/json.js';

const needsClusterIP = (spec: JsonObject): boolean => str(spec, 'type') !== 'ExternalName';
const needsNodePort = (spec: JsonObject): boolean => {
  const type = str(spec, 'type');
  return type === 'NodePort' || type === 'LoadBalancer';
};
const same = (a: JsonObject, b: JsonObject, key: string): boolean => jsonEqual(a[key], b[key]);

/** On create, a clusterIP alone also fills clusterIPs. */
export function normalizeClusterIPsOnCreate(spec: JsonObject): void {
  const ip = str(spec, 'clusterIP') ?? '';
  if (ip !== '' && strArr(spec, 'clusterIPs').length === 0) spec['clusterIPs'] = [ip];
}

/** Values the user left out of an update but that were allocated before (upstream patchAllocatedValues). */
function patchAllocatedValues(spec: JsonObject, old: JsonObject): void {
  if (needsClusterIP(old) && needsClusterIP(spec)) {
    if ((str(spec, 'clusterIP') ?? '') === '' && old['clusterIP'] !== undefined)
      spec['clusterIP'] = old['clusterIP'];
    if (strArr(spec, 'clusterIPs').length === 0 && strArr(old, 'clusterIPs').length > 0)
      spec['clusterIPs'] = old['clusterIPs']!;
  }
  if (needsNodePort(old) && needsNodePort(spec)) {
    const oldPorts = objArr(old, 'ports');
    for (const port of objArr(spec, 'ports')) {
      if ((num(port, 'nodePort') ?? 0) !== 0) continue;
      const match = oldPorts.find((p) => p['port'] === port['port'] && p['protocol'] === port['protocol']);
      const nodePort = num(match, 'nodePort');
      if (nodePort !== undefined && nodePort !== 0) port['nodePort'] = nodePort;
    }
  }
  if (str(spec, 'externalTrafficPolicy') === 'Local' && (num(spec, 'healthCheckNodePort') ?? 0) === 0) {
    const hc = num(old, 'healthCheckNodePort');
    if (hc !== undefined && hc !== 0) spec['healthCheckNodePort'] = hc;
  }
}

/** Upstream normalizeClusterIPs for updates. */
function normalizeClusterIPsOnUpdate(spec: JsonObject, old: JsonObject): void {
  const oldIP = str(old, 'clusterIP') ?? '';
  const newIP = str(spec, 'clusterIP') ?? '';
  if (strArr(old, 'clusterIPs').length > 0 && strArr(spec, 'clusterIPs').length === 0 && oldIP === newIP) {
    spec['clusterIPs'] = old['clusterIPs']!;
  }
  if (oldIP !== newIP) {
    if (oldIP !== '' && newIP === '') {
      if (same(spec, old, 'clusterIPs')) delete spec['clusterIPs'];
    } else if (same(spec, old, 'clusterIPs')) {
      spec['clusterIPs'] = [newIP];
    }
  }
}

/** Upstream dropTypeDependentFields. */
function dropTypeDependentFields(svc: JsonObject, spec: JsonObject, old: JsonObject): void {
  if (needsClusterIP(old) && !needsClusterIP(spec)) {
    if (same(spec, old, 'clusterIP') && same(spec, old, 'clusterIPs')) {
      delete spec['clusterIP'];
      delete spec['clusterIPs'];
    }
    if (same(spec, old, 'ipFamilies')) delete spec['ipFamilies'];
    if (same(spec, old, 'ipFamilyPolicy')) delete spec['ipFamilyPolicy'];
  }
  if (needsNodePort(old) && !needsNodePort(spec)) {
    const oldPorts = objArr(old, 'ports');
    const newPorts = objArr(spec, 'ports');
    const sameNodePorts = newPorts.every((p) => {
      const n = num(p, 'nodePort') ?? 0;
      return n === 0 || oldPorts.some((o) => num(o, 'nodePort') === n);
    });
    if (sameNodePorts) for (const p of newPorts) delete p['nodePort'];
    if (same(spec, old, 'healthCheckNodePort')) delete spec['healthCheckNodePort'];
  }
  if (str(old, 'type') === 'LoadBalancer' && str(spec, 'type') !== 'LoadBalancer') {
    if (
      spec['allocateLoadBalancerNodePorts'] !== undefined &&
      same(spec, old, 'allocateLoadBalancerNodePorts')
    ) {
      delete spec['allocateLoadBalancerNodePorts'];
    }
    if (same(spec, old, 'loadBalancerClass')) delete spec['loadBalancerClass'];
  }
  if (externallyAccessible(old) && !externallyAccessible(spec) && same(spec, old, 'externalTrafficPolicy')) {
    delete spec['externalTrafficPolicy'];
  }
  if (str(spec, 'type') !== 'LoadBalancer')
    svc['status'] = { ...(obj(svc, 'status') ?? {}), loadBalancer: {} };
}

export function prepareServiceUpdate(svc: JsonObject, old: JsonObject): void {
  const spec = ensureObj(svc, 'spec');
  const oldSpec = obj(old, 'spec') ?? {};
  patchAllocatedValues(spec, oldSpec);
  normalizeClusterIPsOnUpdate(spec, oldSpec);
  dropTypeDependentFields(svc, spec, oldSpec);
}
