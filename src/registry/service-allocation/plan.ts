/**
 * What a Service write takes from and gives back to the allocators, and the fields it fills
 * (upstream pkg/registry/core/service/storage/alloc.go, v1.27: initIPFamilyFields,
 * allocClusterIPs, initNodePorts, allocHealthCheckNodePort, updateClusterIPs, updateNodePorts,
 * updateHealthCheckNodePort, releaseAllocatedResources). The allocators hold what storage records
 * as taken; this code mutates the Service and the allocators and returns the difference, which
 * the hooks turn into side writes of the same transaction (nothing is released before commit).
 */
import { validateClusterIPs } from '../../apis/core/v1/validation/service-ips.js';
import { num, objArr, str, strArr } from '../../apis/core/v1/access.js';
import { apiErrors } from '../../machinery/errors.js';
import type { StatusError } from '../../machinery/errors.js';
import { FieldPath, fieldErrors } from '../../machinery/field/errors.js';
import type { FieldError } from '../../machinery/field/errors.js';
import { jsonEqual } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';
import {
  familyOf,
  hasSelector,
  heldIPs,
  heldPorts,
  isExternalName,
  isHeadlessSpec,
  needsHealthCheck,
  needsNodePorts,
  nodePortsOf,
  shouldAllocateNodePorts,
} from './spec.js';
import type { AllocationPlan, IPFamilyName, ServiceAllocators } from './types.js';

const serviceKind = { group: '', kind: 'Service' };
const specPath = FieldPath.root('spec');

const invalid = (name: string, errs: FieldError[]): StatusError => apiErrors.invalid(serviceKind, name, errs);
const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));
const other = (f: IPFamilyName): IPFamilyName => (f === 'IPv4' ? 'IPv6' : 'IPv4');

function emptyPlan(): AllocationPlan {
  return { takeIPs: [], releaseIPs: [], takePorts: [], releasePorts: [] };
}

/** Upstream isMatchingPreferDualStackClusterIPFields: a PreferDualStack Service left as it was. */
function matchingPreferDualStack(spec: JsonObject, old: JsonObject | undefined): boolean {
  if (old === undefined || str(spec, 'ipFamilyPolicy') === undefined) return false;
  if (str(old, 'type') !== str(spec, 'type')) return false;
  if (isExternalName(spec)) return false;
  if (str(spec, 'ipFamilyPolicy') !== 'PreferDualStack') return false;
  if (str(old, 'ipFamilyPolicy') !== undefined && str(old, 'ipFamilyPolicy') !== 'PreferDualStack')
    return false;
  return (
    jsonEqual(strArr(old, 'clusterIPs'), strArr(spec, 'clusterIPs')) &&
    jsonEqual(strArr(old, 'ipFamilies'), strArr(spec, 'ipFamilies'))
  );
}

/** Upstream initIPFamilyFields: defaults ipFamilyPolicy and ipFamilies and checks them against the cluster. */
export function initIPFamilyFields(
  name: string,
  spec: JsonObject,
  old: JsonObject | undefined,
  al: ServiceAllocators,
): void {
  if (isExternalName(spec)) return;
  if (matchingPreferDualStack(spec, old)) return;
  if (str(spec, 'ipFamilyPolicy') === undefined) {
    const oldPolicy = old === undefined ? undefined : str(old, 'ipFamilyPolicy');
    if (oldPolicy !== undefined) spec['ipFamilyPolicy'] = oldPolicy;
    else if (str(spec, 'clusterIP') === 'None' && !hasSelector(spec))
      spec['ipFamilyPolicy'] = 'RequireDualStack';
    else spec['ipFamilyPolicy'] = 'SingleStack';
  }
  const loose = validateClusterIPs(spec);
  if (loose.length > 0) throw invalid(name, loose);
  const policyPath = specPath.child('ipFamilyPolicy');
  const policy = str(spec, 'ipFamilyPolicy')!;
  const errs: FieldError[] = [];
  if (old !== undefined) {
    const sameIPs = jsonEqual(strArr(old, 'clusterIPs'), strArr(spec, 'clusterIPs'));
    const sameFamilies = jsonEqual(strArr(old, 'ipFamilies'), strArr(spec, 'ipFamilies'));
    if (policy === 'SingleStack') {
      if (sameIPs && strArr(spec, 'clusterIPs').length > 1)
        spec['clusterIPs'] = strArr(spec, 'clusterIPs').slice(0, 1);
      if (sameFamilies && strArr(spec, 'ipFamilies').length > 1)
        spec['ipFamilies'] = strArr(spec, 'ipFamilies').slice(0, 1);
    } else {
      if (
        strArr(old, 'clusterIPs').length > strArr(spec, 'clusterIPs').length &&
        strArr(old, 'clusterIPs').length > 1
      )
        errs.push(
          fieldErrors.invalid(
            policyPath,
            policy,
            "must be 'SingleStack' to release the secondary cluster IP",
          ),
        );
      if (
        strArr(old, 'ipFamilies').length > strArr(spec, 'ipFamilies').length &&
        strArr(old, 'ipFamilies').length > 1
      )
        errs.push(
          fieldErrors.invalid(policyPath, policy, "must be 'SingleStack' to release the secondary IP family"),
        );
    }
  }
  if (policy === 'SingleStack') {
    if (strArr(spec, 'clusterIPs').length === 2)
      errs.push(
        fieldErrors.invalid(
          policyPath,
          policy,
          "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified",
        ),
      );
    if (strArr(spec, 'ipFamilies').length === 2)
      errs.push(
        fieldErrors.invalid(
          policyPath,
          policy,
          "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified",
        ),
      );
  }
  const families = strArr(spec, 'ipFamilies') as IPFamilyName[];
  const ips = strArr(spec, 'clusterIPs');
  for (const [i, ip] of ips.entries()) {
    if (ip === 'None') break;
    const fam = familyOf(ip);
    if (i >= families.length) {
      if (al.ips.has(fam)) families.push(fam);
      else
        errs.push(
          fieldErrors.invalid(
            specPath.child('clusterIPs').index(i),
            ips,
            `${fam} is not configured on this cluster`,
          ),
        );
    }
  }
  if (families.length > 0) spec['ipFamilies'] = families;
  if (errs.length > 0) throw invalid(name, errs);

  // Headless without a selector: any families, even ones the cluster does not serve.
  if (str(spec, 'clusterIP') === 'None' && !hasSelector(spec)) {
    if (families.length === 0) families.push(al.families[0]!);
    if (families.length < 2 && str(spec, 'ipFamilyPolicy') !== 'SingleStack')
      families.push(other(families[0]!));
    spec['ipFamilies'] = families;
    return;
  }
  if (policy === 'RequireDualStack' && al.families.length < 2) {
    errs.push(
      fieldErrors.invalid(policyPath, policy, 'this cluster is not configured for dual-stack services'),
    );
  }
  families.forEach((f, i) => {
    if (!al.ips.has(f))
      errs.push(
        fieldErrors.invalid(specPath.child('ipFamilies').index(i), f, 'not configured on this cluster'),
      );
  });
  if (errs.length > 0) throw invalid(name, errs);
  if (families.length === 0) families.push(al.families[0]!);
  if (policy !== 'SingleStack' && families.length === 1 && al.families.length === 2)
    families.push(other(families[0]!));
  spec['ipFamilies'] = families;
}

/** Upstream allocIPs for the given families (an empty string: any free address). */
function allocIPs(
  name: string,
  spec: JsonObject,
  want: Map<IPFamilyName, string>,
  al: ServiceAllocators,
  plan: AllocationPlan,
): Map<IPFamilyName, string> {
  const got = new Map<IPFamilyName, string>();
  for (const [family, ip] of want) {
    const range = al.ips.get(family)!;
    if (ip === '') {
      try {
        got.set(family, range.allocateNext());
      } catch (err) {
        throw apiErrors.internal(new Error(`failed to allocate a serviceIP: ${message(err)}`));
      }
    } else {
      try {
        range.allocate(ip);
      } catch (err) {
        throw invalid(name, [
          fieldErrors.invalid(
            specPath.child('clusterIPs'),
            strArr(spec, 'clusterIPs'),
            `failed to allocate IP ${ip}: ${message(err)}`,
          ),
        ]);
      }
      got.set(family, ip);
    }
    plan.takeIPs.push(got.get(family)!);
  }
  return got;
}

/** Upstream allocClusterIPs: one address per family in ipFamilies, given or chosen. */
function allocClusterIPs(name: string, spec: JsonObject, al: ServiceAllocators, plan: AllocationPlan): void {
  if (isExternalName(spec) || isHeadlessSpec(spec)) return;
  const families = strArr(spec, 'ipFamilies') as IPFamilyName[];
  const ips = strArr(spec, 'clusterIPs');
  const want = new Map<IPFamilyName, string>();
  families.forEach((f, i) => {
    if (i >= ips.length) ips.push('');
    want.set(f, ips[i]!);
  });
  const got = allocIPs(name, spec, want, al, plan);
  families.forEach((f, i) => {
    ips[i] = got.get(f)!;
  });
  spec['clusterIPs'] = ips;
  if (ips[0] !== undefined) spec['clusterIP'] = ips[0];
}

const nodePortPath = (i: number) => specPath.child('ports').index(i).child('nodePort');

/** Upstream initNodePorts (create): given node ports are taken, missing ones chosen; ports sharing a port number share a node port. */
function initNodePorts(name: string, spec: JsonObject, al: ServiceAllocators, plan: AllocationPlan): void {
  const ports = objArr(spec, 'ports');
  const byPort = new Map<number, number>();
  const take = (i: number, np: number) => {
    try {
      al.ports.allocate(np);
    } catch (err) {
      throw invalid(name, [fieldErrors.invalid(nodePortPath(i), np, message(err))]);
    }
    plan.takePorts.push(np);
  };
  ports.forEach((p, i) => {
    const nodePort = num(p, 'nodePort') ?? 0;
    if (nodePort === 0 && !shouldAllocateNodePorts(spec)) return;
    const port = num(p, 'port') ?? 0;
    const shared = byPort.get(port) ?? 0;
    if (shared === 0) {
      const requested = ports.find((q) => num(q, 'port') === port && (num(q, 'nodePort') ?? 0) !== 0);
      const np = num(requested, 'nodePort') ?? 0;
      if (np !== 0) {
        take(i, np);
        p['nodePort'] = np;
        byPort.set(port, np);
      } else {
        let next: number;
        try {
          next = al.ports.allocateNext();
        } catch (err) {
          throw apiErrors.internal(new Error(`failed to allocate a nodePort: ${message(err)}`));
        }
        plan.takePorts.push(next);
        p['nodePort'] = next;
        byPort.set(port, next);
      }
    } else if (nodePort !== shared) {
      if (nodePort === 0) p['nodePort'] = shared;
      else take(i, nodePort);
    }
  });
}

/** Upstream allocHealthCheckNodePort. */
function allocHealthCheckNodePort(spec: JsonObject, al: ServiceAllocators, plan: AllocationPlan): void {
  const hc = num(spec, 'healthCheckNodePort') ?? 0;
  if (hc !== 0) {
    try {
      al.ports.allocate(hc);
    } catch (err) {
      throw apiErrors.internal(
        new Error(`failed to allocate requested HealthCheck NodePort ${hc}: ${message(err)}`),
      );
    }
    plan.takePorts.push(hc);
    return;
  }
  let next: number;
  try {
    next = al.ports.allocateNext();
  } catch (err) {
    throw apiErrors.internal(new Error(`failed to allocate a HealthCheck NodePort 0: ${message(err)}`));
  }
  spec['healthCheckNodePort'] = next;
  plan.takePorts.push(next);
}

/** Upstream allocateCreate: fills the Service's IP fields, cluster IPs and node ports. */
export function planCreate(name: string, spec: JsonObject, al: ServiceAllocators): AllocationPlan {
  const plan = emptyPlan();
  initIPFamilyFields(name, spec, undefined, al);
  allocClusterIPs(name, spec, al, plan);
  if (needsNodePorts(spec)) initNodePorts(name, spec, al, plan);
  if (needsHealthCheck(spec)) allocHealthCheckNodePort(spec, al, plan);
  return plan;
}

/** Upstream updateClusterIPs: type changes to and from ExternalName, dual-stack upgrade and downgrade. */
function updateClusterIPs(
  name: string,
  spec: JsonObject,
  old: JsonObject,
  al: ServiceAllocators,
  plan: AllocationPlan,
): void {
  if (matchingPreferDualStack(spec, old)) return;
  if (isExternalName(old) && !isExternalName(spec)) {
    allocClusterIPs(name, spec, al, plan);
    return;
  }
  if (isHeadlessSpec(old)) return;
  if (!isExternalName(old) && isExternalName(spec)) {
    plan.releaseIPs.push(...heldIPs(old));
    return;
  }
  const oldFamilies = strArr(old, 'ipFamilies');
  const families = strArr(spec, 'ipFamilies') as IPFamilyName[];
  if (oldFamilies.length === 1 && families.length === 2) {
    const ips = strArr(spec, 'clusterIPs');
    if (ips.length < 2) ips.push('');
    const got = allocIPs(name, spec, new Map([[families[1]!, ips[1]!]]), al, plan);
    ips[1] = got.get(families[1]!)!;
    spec['clusterIPs'] = ips;
  } else if (oldFamilies.length === 2 && families.length === 1) {
    const secondary = strArr(old, 'clusterIPs')[1];
    if (secondary !== undefined) plan.releaseIPs.push(secondary);
  }
}

/** Upstream updateNodePorts: new node ports taken, ones no longer used given back. */
function updateNodePorts(
  name: string,
  spec: JsonObject,
  old: JsonObject,
  al: ServiceAllocators,
  plan: AllocationPlan,
): void {
  const oldPorts = nodePortsOf(old);
  const taken = new Set<number>();
  objArr(spec, 'ports').forEach((p, i) => {
    const nodePort = num(p, 'nodePort') ?? 0;
    if (nodePort === 0 && !shouldAllocateNodePorts(spec)) return;
    if (nodePort !== 0) {
      if (!oldPorts.includes(nodePort) && !taken.has(nodePort)) {
        try {
          al.ports.allocate(nodePort);
        } catch (err) {
          throw invalid(name, [fieldErrors.invalid(nodePortPath(i), nodePort, message(err))]);
        }
        taken.add(nodePort);
        plan.takePorts.push(nodePort);
      }
    } else {
      let next: number;
      try {
        next = al.ports.allocateNext();
      } catch (err) {
        throw apiErrors.internal(new Error(`failed to allocate a nodePort: ${message(err)}`));
      }
      p['nodePort'] = next;
      plan.takePorts.push(next);
    }
  });
  const now = nodePortsOf(spec);
  for (const np of oldPorts) if (!now.includes(np)) plan.releasePorts.push(np);
}

/** Upstream allocateUpdate. */
export function planUpdate(
  name: string,
  spec: JsonObject,
  old: JsonObject,
  al: ServiceAllocators,
): AllocationPlan {
  const plan = emptyPlan();
  initIPFamilyFields(name, spec, old, al);
  updateClusterIPs(name, spec, old, al, plan);
  if (needsNodePorts(old) && !needsNodePorts(spec)) plan.releasePorts.push(...nodePortsOf(old));
  if (needsNodePorts(spec)) updateNodePorts(name, spec, old, al, plan);
  const needed = needsHealthCheck(old);
  const needs = needsHealthCheck(spec);
  if (!needed && needs) allocHealthCheckNodePort(spec, al, plan);
  if (needed && !needs) {
    const hc = num(old, 'healthCheckNodePort') ?? 0;
    if (hc !== 0) plan.releasePorts.push(hc);
  }
  // A port given back and taken again in the same write stays taken.
  const kept = (xs: number[], ys: number[]) => xs.filter((x) => !ys.includes(x));
  const releasePorts = kept([...new Set(plan.releasePorts)], plan.takePorts);
  const takePorts = kept(plan.takePorts, plan.releasePorts);
  const releaseIPs = kept2(plan.releaseIPs, plan.takeIPs);
  const takeIPs = kept2(plan.takeIPs, plan.releaseIPs);
  return { takeIPs, releaseIPs, takePorts, releasePorts };
}

const kept2 = (xs: string[], ys: string[]) => [...new Set(xs)].filter((x) => !ys.includes(x));

/** Upstream releaseAllocatedResources: everything a deleted Service held. */
export function planDelete(old: JsonObject): AllocationPlan {
  return { takeIPs: [], releaseIPs: heldIPs(old), takePorts: [], releasePorts: heldPorts(old) };
}
