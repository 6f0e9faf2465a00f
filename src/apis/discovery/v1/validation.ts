/**
 * EndpointSlice validation as pkg/apis/discovery/validation (release-1.27) on discovery/v1 JSON,
 * after defaulting (every port has a name and a protocol unless sent as null). ObjectMeta is
 * validated generically (names are DNS subdomains); no rule looks at the
 * `kubernetes.io/service-name` label.
 */
import { FieldPath, fieldErrors } from '../../../machinery/field/errors.js';
import type { FieldError } from '../../../machinery/field/errors.js';
import { parseIPSloppy } from '../../../machinery/validation/ip.js';
import {
  isDNS1123Label,
  isDNS1123Subdomain,
  isValidLabelValue,
  nameIsDNSSubdomain,
} from '../../../machinery/validation/names.js';
import { fieldImmutableErrorMsg, validateLabels } from '../../../machinery/validation/objectmeta.js';
import type { KubeObject } from '../../../machinery/object.js';
import { isJsonObject } from '../../../util/json.js';
import type { JsonObject } from '../../../util/json.js';
import { obj, str, strMap } from '../../core/v1/access.js';
import { invalidEach, validateDNS1123Label, validateQualifiedName } from '../../core/v1/validation/common.js';
import { validateNonSpecialIP } from '../../core/v1/validation/endpoints.js';

/** Sorted, as upstream's sets.String List() prints them. */
const supportedAddressTypes = ['FQDN', 'IPv4', 'IPv6'];
const supportedPortProtocols = ['SCTP', 'TCP', 'UDP'];
const maxTopologyLabels = 16;
const maxAddresses = 100;
/** 20,000 since #99795 (v1.21, backported): the API docs still say 100. */
const maxPorts = 20000;
const maxEndpoints = 1000;
const maxZoneHints = 8;
/** corev1.LabelTopologyZone: reserved in deprecatedTopology. */
const labelTopologyZone = 'topology.kubernetes.io/zone';

/** net.IP.To4() != nil: an IPv4 address or an IPv4-mapped IPv6 one. */
function isIPv4Bytes(b: Uint8Array): boolean {
  if (b.length === 4) return true;
  return b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;
}

/** utilvalidation.IsValidIPv4Address. */
function validateIPv4Address(path: FieldPath, value: string): FieldError[] {
  const b = parseIPSloppy(value);
  if (b === undefined || !isIPv4Bytes(b))
    return [fieldErrors.invalid(path, value, 'must be a valid IPv4 address')];
  return [];
}

/** utilvalidation.IsValidIPv6Address. */
function validateIPv6Address(path: FieldPath, value: string): FieldError[] {
  const b = parseIPSloppy(value);
  if (b === undefined || isIPv4Bytes(b))
    return [fieldErrors.invalid(path, value, 'must be a valid IPv6 address')];
  return [];
}

/** utilvalidation.IsFullyQualifiedDomainName: one error at most. */
export function validateFullyQualifiedDomainName(path: FieldPath, value: string): FieldError[] {
  if (value.length === 0) return [fieldErrors.required(path, '')];
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  const subdomainErrs = isDNS1123Subdomain(name);
  if (subdomainErrs.length > 0) return [fieldErrors.invalid(path, name, subdomainErrs.join(','))];
  const labels = name.split('.');
  if (labels.length < 2) {
    return [
      fieldErrors.invalid(path, name, 'should be a domain with at least two segments separated by dots'),
    ];
  }
  for (const label of labels) {
    const errs = isDNS1123Label(label);
    if (errs.length > 0) return [fieldErrors.invalid(path, label, errs.join(','))];
  }
  return [];
}

function arrayAt(o: JsonObject | undefined, key: string): unknown[] {
  const v = o?.[key];
  return Array.isArray(v) ? v : [];
}

function asObject(v: unknown): JsonObject {
  return isJsonObject(v) ? v : {};
}

function validateAddressType(addressType: string): FieldError[] {
  const path = FieldPath.root('addressType');
  if (addressType === '') return [fieldErrors.required(path, '')];
  if (!supportedAddressTypes.includes(addressType)) {
    return [fieldErrors.notSupported(path, addressType, supportedAddressTypes)];
  }
  return [];
}

function validateHints(hints: JsonObject, path: FieldPath): FieldError[] {
  const fzPath = path.child('forZones');
  const forZones = arrayAt(hints, 'forZones');
  if (forZones.length > maxZoneHints) return [fieldErrors.tooMany(fzPath, forZones.length, maxZoneHints)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  forZones.forEach((fz, i) => {
    const zonePath = fzPath.index(i).child('name');
    const name = str(asObject(fz), 'name') ?? '';
    if (seen.has(name)) errs.push(fieldErrors.duplicate(zonePath, name));
    else seen.add(name);
    errs.push(...invalidEach(zonePath, name, isValidLabelValue(name)));
  });
  return errs;
}

function validateEndpoints(endpoints: unknown[], addressType: string): FieldError[] {
  const path = FieldPath.root('endpoints');
  if (endpoints.length > maxEndpoints) return [fieldErrors.tooMany(path, endpoints.length, maxEndpoints)];
  const errs: FieldError[] = [];
  endpoints.forEach((item, i) => {
    const endpoint = asObject(item);
    const idxPath = path.index(i);
    const addressPath = idxPath.child('addresses');
    const addresses = arrayAt(endpoint, 'addresses');
    if (addresses.length === 0) {
      errs.push(fieldErrors.required(addressPath, 'must contain at least 1 address'));
    } else if (addresses.length > maxAddresses) {
      errs.push(fieldErrors.tooMany(addressPath, addresses.length, maxAddresses));
    }
    addresses.forEach((a, j) => {
      const address = typeof a === 'string' ? a : '';
      const p = addressPath.index(j);
      // Unknown address types fall through unvalidated (their own error is reported above).
      switch (addressType) {
        case 'IPv4':
          errs.push(...validateIPv4Address(p, address), ...validateNonSpecialIP(address, p));
          break;
        case 'IPv6':
          errs.push(...validateIPv6Address(p, address), ...validateNonSpecialIP(address, p));
          break;
        case 'FQDN':
          errs.push(...validateFullyQualifiedDomainName(p, address));
          break;
      }
    });
    const nodeName = str(endpoint, 'nodeName');
    if (nodeName !== undefined) {
      errs.push(...invalidEach(idxPath.child('nodeName'), nodeName, nameIsDNSSubdomain(nodeName, false)));
    }
    const topologyPath = idxPath.child('deprecatedTopology');
    const topology = strMap(endpoint, 'deprecatedTopology') ?? {};
    const topologySize = Object.keys(topology).length;
    if (topologySize > maxTopologyLabels) {
      errs.push(fieldErrors.tooMany(topologyPath, topologySize, maxTopologyLabels));
    }
    errs.push(...validateLabels(topology, topologyPath));
    if (topology[labelTopologyZone] !== undefined) {
      errs.push(
        fieldErrors.internal(
          topologyPath.key(labelTopologyZone),
          new Error('reserved key was not removed in conversion'),
        ),
      );
    }
    const hostname = str(endpoint, 'hostname');
    if (hostname !== undefined) errs.push(...validateDNS1123Label(hostname, idxPath.child('hostname')));
    const hints = obj(endpoint, 'hints');
    if (hints !== undefined) errs.push(...validateHints(hints, idxPath.child('hints')));
  });
  return errs;
}

function validatePorts(ports: unknown[]): FieldError[] {
  const path = FieldPath.root('ports');
  if (ports.length > maxPorts) return [fieldErrors.tooMany(path, ports.length, maxPorts)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((item, i) => {
    const port = asObject(item);
    const idxPath = path.index(i);
    const name = str(port, 'name') ?? '';
    if (name.length > 0) errs.push(...validateDNS1123Label(name, idxPath.child('name')));
    if (names.has(name)) errs.push(fieldErrors.duplicate(idxPath.child('name'), name));
    else names.add(name);
    const protocol = str(port, 'protocol');
    if (protocol === undefined) errs.push(fieldErrors.required(idxPath.child('protocol'), ''));
    else if (!supportedPortProtocols.includes(protocol)) {
      errs.push(fieldErrors.notSupported(idxPath.child('protocol'), protocol, supportedPortProtocols));
    }
    const appProtocol = str(port, 'appProtocol');
    if (appProtocol !== undefined)
      errs.push(...validateQualifiedName(appProtocol, idxPath.child('appProtocol')));
  });
  return errs;
}

/** Upstream ValidateEndpointSlice (ObjectMeta aside). */
export function validateEndpointSlice(eps: KubeObject): FieldError[] {
  const addressType = str(eps, 'addressType') ?? '';
  return [
    ...validateAddressType(addressType),
    ...validateEndpoints(arrayAt(eps, 'endpoints'), addressType),
    ...validatePorts(arrayAt(eps, 'ports')),
  ];
}

/** Upstream ValidateEndpointSliceUpdate: the whole slice, then addressType is immutable. */
export function validateEndpointSliceUpdate(eps: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateEndpointSlice(eps);
  const addressType = str(eps, 'addressType') ?? '';
  if (addressType !== (str(old, 'addressType') ?? '')) {
    errs.push(fieldErrors.invalid(FieldPath.root('addressType'), addressType, fieldImmutableErrorMsg));
  }
  return errs;
}

/** Upstream warnOnDeprecatedAddressType (v1.27): FQDN slices warn on create. */
export function endpointSliceWarningsOnCreate(eps: KubeObject): string[] {
  return str(eps, 'addressType') === 'FQDN' ? ['spec.addressType: FQDN endpoints are deprecated'] : [];
}
