/**
 * networking.k8s.io/v1alpha1 validation as pkg/apis/networking/validation (release-1.27):
 * IPAddress (KEP-1880, MultiCIDRServiceAllocator) and ClusterCIDR (KEP-2593,
 * MultiCIDRRangeAllocator), on v1alpha1 JSON. Object metadata is validated by the generic store.
 */
import { FieldPath, fieldErrors } from '../../../machinery/field/errors.js';
import type { FieldError } from '../../../machinery/field/errors.js';
import type { KubeObject } from '../../../machinery/object.js';
import { invalidRendered } from '../../../machinery/validation/gosyntax.js';
import { isDNS1123Subdomain, isValidPathSegmentName } from '../../../machinery/validation/names.js';
import { fieldImmutableErrorMsg } from '../../../machinery/validation/objectmeta.js';
import { jsonEqual } from '../../../util/json.js';
import type { JsonObject } from '../../../util/json.js';
import { num, obj, str } from '../../core/v1/access.js';
import { invalidEach } from '../../core/v1/validation/common.js';
import { validateNodeSelector } from '../../core/v1/validation/nodeselector.js';
import { parseCIDRSloppy } from '../v1/validation/cidr.js';
import { goNodeSelector, goParentReference } from './gosyntax.js';
import { ParseAddrError, addrString, parseAddr } from './netip.js';

/**
 * Upstream ValidateIPAddressName: the name is an IP address in canonical form (netip.ParseAddr's
 * error, or "not a valid ip in canonical format" for e.g. `2001:db8:0::1` or an IPv4-mapped form).
 */
export function validateIPAddressName(name: string): string[] {
  try {
    const addr = parseAddr(name);
    return addrString(addr) === name ? [] : ['not a valid ip in canonical format'];
  } catch (err) {
    if (err instanceof ParseAddrError) return [err.message];
    throw err;
  }
}

/** Upstream validateIPAddressParentReference. */
function validateParentReference(ref: JsonObject | undefined, spec: FieldPath): FieldError[] {
  if (ref === undefined) return [fieldErrors.required(spec.child('parentRef'), '')];
  const path = spec.child('parentRef');
  const errs: FieldError[] = [];
  // group is required, but the core group of Services is '' so it cannot be enforced.
  const group = str(ref, 'group') ?? '';
  if (group !== '') errs.push(...invalidEach(path.child('group'), group, isDNS1123Subdomain(group)));
  for (const key of ['resource', 'name'] as const) {
    const v = str(ref, key) ?? '';
    if (v === '') errs.push(fieldErrors.required(path.child(key), ''));
    else errs.push(...invalidEach(path.child(key), v, isValidPathSegmentName(v)));
  }
  const namespace = str(ref, 'namespace') ?? '';
  if (namespace !== '') {
    errs.push(...invalidEach(path.child('namespace'), namespace, isValidPathSegmentName(namespace)));
  }
  return errs;
}

/** Upstream ValidateIPAddress (the name check, then spec.parentRef). */
export function validateIPAddress(ip: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const name = ip.metadata.name ?? '';
  if (name !== '') {
    errs.push(...invalidEach(FieldPath.root('metadata', 'name'), name, validateIPAddressName(name)));
  }
  errs.push(...validateParentReference(obj(obj(ip, 'spec'), 'parentRef'), FieldPath.root('spec')));
  return errs;
}

/** Upstream ValidateIPAddressUpdate: spec.parentRef is immutable. */
export function validateIPAddressUpdate(ip: KubeObject, old: KubeObject): FieldError[] {
  const ref = obj(obj(ip, 'spec'), 'parentRef');
  const oldRef = obj(obj(old, 'spec'), 'parentRef');
  if (jsonEqual(ref ?? null, oldRef ?? null)) return [];
  return [
    invalidRendered(FieldPath.root('spec', 'parentRef'), goParentReference(ref), fieldImmutableErrorMsg),
  ];
}

const minPerNodeHostBits = 4;

/** Go's IP.To4() != nil on a parsed CIDR's address (IPv4, or IPv4-mapped IPv6). */
function isIPv4(ip: Uint8Array): boolean {
  if (ip.length === 4) return true;
  for (let i = 0; i < 10; i++) if (ip[i] !== 0) return false;
  return ip[10] === 0xff && ip[11] === 0xff;
}

/**
 * Upstream validateCIDRConfig. The CIDR's path is the IP family, capitalised as upstream has it
 * (`spec.IPv4`, `spec.IPv6`), while the immutability checks use the JSON names.
 */
function validateCIDRConfig(
  cidr: string,
  perNodeHostBits: number,
  maxMaskSize: number,
  family: 'IPv4' | 'IPv6',
  spec: FieldPath,
): FieldError[] {
  const net = parseCIDRSloppy(cidr);
  if (net === undefined) {
    return [fieldErrors.invalid(spec.child(family), cidr, `must be a valid CIDR: ${cidr}`)];
  }
  const errs: FieldError[] = [];
  const v4 = isIPv4(net.ip);
  if (family === 'IPv4' && !v4)
    errs.push(fieldErrors.invalid(spec.child(family), cidr, 'must be a valid IPv4 CIDR'));
  if (family === 'IPv6' && v4)
    errs.push(fieldErrors.invalid(spec.child(family), cidr, 'must be a valid IPv6 CIDR'));
  const maxPerNodeHostBits = maxMaskSize - net.ones;
  const path = spec.child('perNodeHostBits');
  if (perNodeHostBits < minPerNodeHostBits) {
    errs.push(
      fieldErrors.invalid(path, perNodeHostBits, `must be greater than or equal to ${minPerNodeHostBits}`),
    );
  }
  if (perNodeHostBits > maxPerNodeHostBits) {
    errs.push(
      fieldErrors.invalid(path, perNodeHostBits, `must be less than or equal to ${maxPerNodeHostBits}`),
    );
  }
  return errs;
}

/** Upstream ValidateClusterCIDRSpec (metadata: the store, with DNS-1123 label names). */
export function validateClusterCIDR(cc: KubeObject): FieldError[] {
  const path = FieldPath.root('spec');
  const spec = obj(cc, 'spec');
  const errs: FieldError[] = [];
  const selector = obj(spec, 'nodeSelector');
  if (selector !== undefined) errs.push(...validateNodeSelector(selector, path.child('nodeSelector')));
  const ipv4 = str(spec, 'ipv4') ?? '';
  const ipv6 = str(spec, 'ipv6') ?? '';
  if (ipv4 === '' && ipv6 === '') {
    errs.push(fieldErrors.required(path, 'one or both of `ipv4` and `ipv6` must be specified'));
    return errs;
  }
  const bits = num(spec, 'perNodeHostBits') ?? 0;
  if (ipv4 !== '') errs.push(...validateCIDRConfig(ipv4, bits, 32, 'IPv4', path));
  if (ipv6 !== '') errs.push(...validateCIDRConfig(ipv6, bits, 128, 'IPv6', path));
  return errs;
}

/** Upstream validateClusterCIDRUpdateSpec: the whole spec is immutable, field by field. */
export function validateClusterCIDRUpdate(cc: KubeObject, old: KubeObject): FieldError[] {
  const path = FieldPath.root('spec');
  const spec = obj(cc, 'spec');
  const oldSpec = obj(old, 'spec');
  const errs: FieldError[] = [];
  const selector = obj(spec, 'nodeSelector');
  if (!jsonEqual(selector ?? null, obj(oldSpec, 'nodeSelector') ?? null)) {
    errs.push(invalidRendered(path.child('nodeSelector'), goNodeSelector(selector), fieldImmutableErrorMsg));
  }
  const bits = num(spec, 'perNodeHostBits') ?? 0;
  if (bits !== (num(oldSpec, 'perNodeHostBits') ?? 0)) {
    errs.push(fieldErrors.invalid(path.child('perNodeHostBits'), bits, fieldImmutableErrorMsg));
  }
  for (const key of ['ipv4', 'ipv6'] as const) {
    const v = str(spec, key) ?? '';
    if (v !== (str(oldSpec, key) ?? ''))
      errs.push(fieldErrors.invalid(path.child(key), v, fieldImmutableErrorMsg));
  }
  return errs;
}
