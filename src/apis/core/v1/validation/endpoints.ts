/** Endpoints validation (upstream ValidateEndpoints: subsets, addresses and ports). */
import { FieldPath, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import { parseIPSloppy } from '../../../../machinery/validation/ip.js';
import { isValidIP, nameIsDNSSubdomain } from '../../../../machinery/validation/names.js';
import type { JsonObject } from '../../../../util/json.js';
import { indexedObjs, num, str } from '../access.js';
import { invalidEach, validateDNS1123Label, validateQualifiedName } from './common.js';
import { supportedPortProtocols } from './container.js';

/** Upstream ValidateNonSpecialIP. */
export function validateNonSpecialIP(ip: string, path: FieldPath): FieldError[] {
  const b = parseIPSloppy(ip);
  if (b === undefined) return [fieldErrors.invalid(path, ip, 'must be a valid IP address')];
  const v4 =
    b.length === 4
      ? b
      : b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff
        ? b.slice(12)
        : undefined;
  const errs: FieldError[] = [];
  if (v4 !== undefined) {
    if (v4.every((x) => x === 0))
      errs.push(fieldErrors.invalid(path, ip, 'may not be unspecified (0.0.0.0)'));
    if (v4[0] === 127)
      errs.push(fieldErrors.invalid(path, ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
    if (v4[0] === 169 && v4[1] === 254) {
      errs.push(
        fieldErrors.invalid(path, ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'),
      );
    }
    if (v4[0] === 224 && v4[1] === 0 && v4[2] === 0) {
      errs.push(
        fieldErrors.invalid(
          path,
          ip,
          'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)',
        ),
      );
    }
    return errs;
  }
  if (b.every((x) => x === 0)) errs.push(fieldErrors.invalid(path, ip, 'may not be unspecified (0.0.0.0)'));
  if (b.slice(0, 15).every((x) => x === 0) && b[15] === 1) {
    errs.push(fieldErrors.invalid(path, ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  }
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0x80) {
    errs.push(
      fieldErrors.invalid(path, ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'),
    );
  }
  if (b[0] === 0xff && (b[1]! & 0x0f) === 0x02) {
    errs.push(
      fieldErrors.invalid(path, ip, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'),
    );
  }
  return errs;
}

function validateAddress(addr: JsonObject, path: FieldPath): FieldError[] {
  const ip = str(addr, 'ip') ?? '';
  const errs = invalidEach(path.child('ip'), ip, isValidIP(ip));
  const hostname = str(addr, 'hostname') ?? '';
  if (hostname !== '') errs.push(...validateDNS1123Label(hostname, path.child('hostname')));
  const nodeName = str(addr, 'nodeName');
  if (nodeName !== undefined)
    errs.push(...invalidEach(path.child('nodeName'), nodeName, nameIsDNSSubdomain(nodeName, false)));
  errs.push(...validateNonSpecialIP(ip, path.child('ip')));
  return errs;
}

function validatePort(port: JsonObject, requireName: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(port, 'name') ?? '';
  if (requireName && name === '') errs.push(fieldErrors.required(path.child('name'), ''));
  else if (name !== '') errs.push(...validateDNS1123Label(name, path.child('name')));
  const p = num(port, 'port') ?? 0;
  errs.push(
    ...invalidEach(
      path.child('port'),
      p,
      p >= 1 && p <= 65535 ? [] : ['must be between 1 and 65535, inclusive'],
    ),
  );
  const protocol = str(port, 'protocol') ?? '';
  if (protocol === '') errs.push(fieldErrors.required(path.child('protocol'), ''));
  else if (!supportedPortProtocols.includes(protocol)) {
    errs.push(fieldErrors.notSupported(path.child('protocol'), protocol, supportedPortProtocols));
  }
  const appProtocol = str(port, 'appProtocol');
  if (appProtocol !== undefined) errs.push(...validateQualifiedName(appProtocol, path.child('appProtocol')));
  return errs;
}

export function validateEndpoints(ep: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  for (const [i, subset] of indexedObjs(ep, 'subsets')) {
    const p = FieldPath.root('subsets').index(i);
    const addresses = indexedObjs(subset, 'addresses');
    const notReady = indexedObjs(subset, 'notReadyAddresses');
    if (addresses.length === 0 && notReady.length === 0) {
      errs.push(fieldErrors.required(p, 'must specify `addresses` or `notReadyAddresses`'));
    }
    for (const [j, a] of addresses) errs.push(...validateAddress(a, p.child('addresses').index(j)));
    for (const [j, a] of notReady) errs.push(...validateAddress(a, p.child('notReadyAddresses').index(j)));
    const ports = indexedObjs(subset, 'ports');
    for (const [j, port] of ports)
      errs.push(...validatePort(port, ports.length > 1, p.child('ports').index(j)));
  }
  return errs;
}
