/** Service clusterIP/clusterIPs/ipFamilies rules (upstream ValidateServiceClusterIPsRelatedFields, update rules). */
import { FieldPath, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import { goStringSlice, invalidRendered } from '../../../../machinery/validation/gosyntax.js';
import { isValidIP } from '../../../../machinery/validation/names.js';
import type { JsonObject } from '../../../../util/json.js';
import { str, strArr } from '../access.js';
import { invalidEach } from './common.js';

const ipFamilies = ['IPv4', 'IPv6'];
const ipFamilyPolicies = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const specPath = FieldPath.root('spec');
const clusterIPsPath = specPath.child('clusterIPs');

export function isHeadless(spec: JsonObject | undefined): boolean {
  const ips = strArr(spec, 'clusterIPs');
  return ips.length === 1 && ips[0] === 'None';
}

export function externallyAccessible(spec: JsonObject | undefined): boolean {
  const type = str(spec, 'type');
  return (
    type === 'LoadBalancer' ||
    type === 'NodePort' ||
    (type === 'ClusterIP' && strArr(spec, 'externalIPs').length > 0)
  );
}

export function invalidIPs(ips: readonly string[], path: FieldPath, detail: string): FieldError {
  return invalidRendered(path, goStringSlice(ips), detail);
}

export function validateClusterIPs(spec: JsonObject): FieldError[] {
  if (str(spec, 'type') === 'ExternalName') return [];
  const errs: FieldError[] = [];
  const clusterIP = str(spec, 'clusterIP') ?? '';
  const ips = strArr(spec, 'clusterIPs');
  if (clusterIP !== '') {
    if (ips.length === 0) errs.push(fieldErrors.required(clusterIPsPath, ''));
    else if (ips[0] !== clusterIP)
      errs.push(invalidIPs(ips, clusterIPsPath, 'first value must match `clusterIP`'));
  } else if (ips.length > 0) {
    errs.push(invalidIPs(ips, clusterIPsPath, 'must be empty when `clusterIP` is not specified'));
  }
  const families = strArr(spec, 'ipFamilies');
  const seen = new Set<string>();
  families.forEach((f, i) => {
    if (!ipFamilies.includes(f))
      errs.push(fieldErrors.notSupported(specPath.child('ipFamilies').index(i), f, ipFamilies));
    if (seen.has(f)) errs.push(fieldErrors.duplicate(specPath.child('ipFamilies').index(i), f));
    seen.add(f);
  });
  const policy = str(spec, 'ipFamilyPolicy');
  if (policy !== undefined && !ipFamilyPolicies.includes(policy)) {
    errs.push(fieldErrors.notSupported(specPath.child('ipFamilyPolicy'), policy, ipFamilyPolicies));
  }
  let hasInvalid = false;
  ips.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (ips.length > 1) {
        hasInvalid = true;
        errs.push(invalidIPs(ips, clusterIPsPath, "'None' must be the first and only value"));
      }
      return;
    }
    const msgs = isValidIP(ip);
    if (msgs.length > 0) hasInvalid = true;
    errs.push(...invalidEach(clusterIPsPath.index(i), ip, msgs));
  });
  if (ips.length > 2) errs.push(invalidIPs(ips, clusterIPsPath, 'may only hold up to 2 values'));
  if (hasInvalid) return errs;
  if (ips.length > 1 && ips[0]!.includes(':') === ips[1]!.includes(':')) {
    errs.push(invalidIPs(ips, clusterIPsPath, 'may specify no more than one IP for each IP family'));
  }
  if (!isHeadless(spec)) {
    ips.forEach((ip, i) => {
      const family = families[i];
      if (family === 'IPv4' && ip.includes(':')) {
        errs.push(
          fieldErrors.invalid(
            clusterIPsPath.index(i),
            ip,
            `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``,
          ),
        );
      }
      if (family === 'IPv6' && !ip.includes(':')) {
        errs.push(
          fieldErrors.invalid(
            clusterIPsPath.index(i),
            ip,
            `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``,
          ),
        );
      }
    });
  }
  return errs;
}

export function validateClusterIPsUpdate(spec: JsonObject, oldSpec: JsonObject): FieldError[] {
  if (str(spec, 'type') === 'ExternalName' || str(oldSpec, 'type') === 'ExternalName') return [];
  if (isHeadless(spec) && isHeadless(oldSpec)) return [];
  const errs: FieldError[] = [];
  const ips = strArr(spec, 'clusterIPs');
  const oldIPs = strArr(oldSpec, 'clusterIPs');
  const rendered = spec['clusterIPs'] === undefined ? '[]string(nil)' : goStringSlice(ips);
  const invalid = (i: number, detail: string): FieldError =>
    invalidRendered(clusterIPsPath.index(i), rendered, detail);
  if (ips.length === oldIPs.length) {
    oldIPs.forEach((ip, i) => {
      if (ip !== ips[i]) errs.push(invalid(i, 'may not change once set'));
    });
  } else if (oldIPs.length > ips.length) {
    if (ips.length === 0) errs.push(invalid(0, 'primary clusterIP can not be unset'));
    if (oldIPs.length > 0 && ips.length > 0 && ips[0] !== oldIPs[0])
      errs.push(invalid(0, 'may not change once set'));
    if (ips.length === 1 && str(spec, 'ipFamilyPolicy') !== 'SingleStack') {
      errs.push(
        invalid(0, "`ipFamilyPolicy` must be set to 'SingleStack' when releasing the secondary clusterIP"),
      );
    }
  } else if (oldIPs.length > 0 && ips[0] !== oldIPs[0]) {
    errs.push(invalid(0, 'may not change once set'));
  }
  return errs;
}
