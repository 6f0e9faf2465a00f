/** Service validation (upstream ValidateService, ValidateServiceUpdate) and warnings. */
import { FieldPath, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import { isValidIP } from '../../../../machinery/validation/names.js';
import { validateLabels } from '../../../../machinery/validation/objectmeta.js';
import type { JsonObject } from '../../../../util/json.js';
import { indexedObjs, intOrStr, num, obj, str, strArr, strMap } from '../access.js';
import {
  duplicateRendered,
  invalidEach,
  validateDNS1123Label,
  validateDNS1123Subdomain,
  validateQualifiedName,
} from './common.js';
import { supportedPortProtocols } from './container.js';
import { warningsForIP } from './ipwarnings.js';
import {
  externallyAccessible,
  isHeadless,
  validateClusterIPs,
  validateClusterIPsUpdate,
} from './service-ips.js';

export { externallyAccessible, isHeadless } from './service-ips.js';
import { validatePortNumOrName } from './probe.js';

export const topologyModeAnnotation = 'service.kubernetes.io/topology-mode';
export const topologyHintsAnnotation = 'service.kubernetes.io/topology-aware-hints';
const serviceTypes = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const sessionAffinities = ['ClientIP', 'None'];
const trafficPolicies = ['Cluster', 'Local'];
const maxClientIPTimeout = 86400;

const specPath = FieldPath.root('spec');
const clusterIPsPath = specPath.child('clusterIPs');

function validatePort(
  port: JsonObject,
  requireName: boolean,
  names: Set<string>,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(port, 'name') ?? '';
  if (requireName && name === '') errs.push(fieldErrors.required(path.child('name'), ''));
  else if (name !== '') {
    errs.push(...validateDNS1123Label(name, path.child('name')));
    if (names.has(name)) errs.push(fieldErrors.duplicate(path.child('name'), name));
    else names.add(name);
  }
  errs.push(...validatePortNumOrName(num(port, 'port') ?? 0, path.child('port')));
  const protocol = str(port, 'protocol') ?? '';
  if (protocol === '') errs.push(fieldErrors.required(path.child('protocol'), ''));
  else if (!supportedPortProtocols.includes(protocol)) {
    errs.push(fieldErrors.notSupported(path.child('protocol'), protocol, supportedPortProtocols));
  }
  errs.push(...validatePortNumOrName(intOrStr(port, 'targetPort'), path.child('targetPort')));
  const appProtocol = str(port, 'appProtocol');
  if (appProtocol !== undefined) errs.push(...validateQualifiedName(appProtocol, path.child('appProtocol')));
  return errs;
}

function validateTypeRules(spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(spec, 'type') ?? '';
  const ips = strArr(spec, 'clusterIPs');
  if ((type === 'LoadBalancer' || type === 'NodePort') && isHeadless(spec)) {
    errs.push(
      fieldErrors.invalid(clusterIPsPath.index(0), ips[0], `may not be set to 'None' for ${type} services`),
    );
  }
  if (type === 'ExternalName') {
    if (ips.length > 0)
      errs.push(fieldErrors.forbidden(clusterIPsPath, 'may not be set for ExternalName services'));
    if (strArr(spec, 'ipFamilies').length > 0) {
      errs.push(
        fieldErrors.forbidden(specPath.child('ipFamilies'), 'may not be set for ExternalName services'),
      );
    }
    if (str(spec, 'ipFamilyPolicy') !== undefined) {
      errs.push(
        fieldErrors.forbidden(specPath.child('ipFamilyPolicy'), 'may not be set for ExternalName services'),
      );
    }
    const cname = (str(spec, 'externalName') ?? '').replace(/\.$/, '');
    if (cname !== '') errs.push(...validateDNS1123Subdomain(cname, specPath.child('externalName')));
    else errs.push(fieldErrors.required(specPath.child('externalName'), ''));
  }
  return errs;
}

function validatePorts(spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const ports = indexedObjs(spec, 'ports');
  const names = new Set<string>();
  const portsPath = specPath.child('ports');
  for (const [i, port] of ports)
    errs.push(...validatePort(port, ports.length > 1, names, portsPath.index(i)));
  const type = str(spec, 'type');
  const nodePorts = new Set<string>();
  const keys = new Set<string>();
  for (const [i, port] of ports) {
    const nodePort = num(port, 'nodePort') ?? 0;
    const protocol = str(port, 'protocol') ?? '';
    if (type === 'ClusterIP' && nodePort !== 0) {
      errs.push(
        fieldErrors.forbidden(
          portsPath.index(i).child('nodePort'),
          "may not be used when `type` is 'ClusterIP'",
        ),
      );
    }
    if (nodePort !== 0) {
      const k = `${protocol}/${nodePort}`;
      if (nodePorts.has(k)) errs.push(fieldErrors.duplicate(portsPath.index(i).child('nodePort'), nodePort));
      nodePorts.add(k);
    }
    const p = num(port, 'port') ?? 0;
    const key = `${protocol}/${p}`;
    if (keys.has(key)) {
      const rendered = `core.ServicePort{Name:"", Protocol:${JSON.stringify(protocol)}, AppProtocol:(*string)(nil), Port:${p}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`;
      errs.push(duplicateRendered(portsPath.index(i), rendered));
    }
    keys.add(key);
  }
  return errs;
}

function validateAffinity(spec: JsonObject): FieldError[] {
  const affinity = str(spec, 'sessionAffinity') ?? '';
  const path = specPath.child('sessionAffinity');
  if (affinity === '') return [fieldErrors.required(path, '')];
  if (!sessionAffinities.includes(affinity))
    return [fieldErrors.notSupported(path, affinity, sessionAffinities)];
  const config = obj(spec, 'sessionAffinityConfig');
  const configPath = specPath.child('sessionAffinityConfig');
  if (affinity === 'None') {
    return config !== undefined
      ? [fieldErrors.forbidden(configPath, 'must not be set when session affinity is None')]
      : [];
  }
  const timeoutPath = configPath.child('clientIP', 'timeoutSeconds');
  const timeout = num(obj(config, 'clientIP'), 'timeoutSeconds');
  if (timeout === undefined)
    return [fieldErrors.required(timeoutPath, 'when session affinity type is ClientIP')];
  if (timeout <= 0 || timeout > maxClientIPTimeout) {
    return [
      fieldErrors.invalid(timeoutPath, timeout, `must be greater than 0 and less than ${maxClientIPTimeout}`),
    ];
  }
  return [];
}

function validateTrafficPolicies(spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const etp = str(spec, 'externalTrafficPolicy') ?? '';
  const hcnp = num(spec, 'healthCheckNodePort') ?? 0;
  if (!externallyAccessible(spec)) {
    if (etp !== '') {
      errs.push(
        fieldErrors.invalid(
          specPath.child('externalTrafficPolicy'),
          etp,
          'may only be set for externally-accessible services',
        ),
      );
    }
    if (hcnp !== 0) {
      errs.push(
        fieldErrors.invalid(
          specPath.child('healthCheckNodePort'),
          hcnp,
          'may only be set for externally-accessible services',
        ),
      );
    }
  } else if (etp === '') {
    // ClusterIP services with externalIPs are externally accessible but never defaulted.
    if (str(spec, 'type') !== 'ClusterIP')
      errs.push(fieldErrors.required(specPath.child('externalTrafficPolicy'), ''));
  } else if (!trafficPolicies.includes(etp)) {
    errs.push(fieldErrors.notSupported(specPath.child('externalTrafficPolicy'), etp, trafficPolicies));
  }
  const type = str(spec, 'type');
  const itp = str(spec, 'internalTrafficPolicy');
  if (itp === undefined && (type === 'NodePort' || type === 'LoadBalancer' || type === 'ClusterIP')) {
    errs.push(fieldErrors.required(specPath.child('internalTrafficPolicy'), 'must be specified'));
  }
  if (itp !== undefined && !trafficPolicies.includes(itp)) {
    errs.push(fieldErrors.notSupported(specPath.child('internalTrafficPolicy'), itp, trafficPolicies));
  }
  return errs;
}

export function validateService(svc: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const annotations = strMap(obj(svc, 'metadata'), 'annotations') ?? {};
  const mode = annotations[topologyModeAnnotation];
  const hints = annotations[topologyHintsAnnotation];
  if (mode !== undefined && hints !== undefined && mode !== hints) {
    errs.push(
      fieldErrors.invalid(
        FieldPath.root('metadata', 'annotations').key(topologyModeAnnotation),
        mode,
        `must match annotations[${topologyHintsAnnotation}] when both are specified`,
      ),
    );
  }
  const spec = obj(svc, 'spec') ?? {};
  const type = str(spec, 'type') ?? '';
  if (indexedObjs(spec, 'ports').length === 0 && !isHeadless(spec) && type !== 'ExternalName') {
    errs.push(fieldErrors.required(specPath.child('ports'), ''));
  }
  errs.push(...validateTypeRules(spec));
  errs.push(...validatePorts(spec));
  const selector = strMap(spec, 'selector');
  if (selector !== undefined) errs.push(...validateLabels(selector, specPath.child('selector')));
  errs.push(...validateAffinity(spec));
  errs.push(...validateClusterIPs(spec));
  strArr(spec, 'externalIPs').forEach((ip, i) => {
    errs.push(...invalidEach(specPath.child('externalIPs').index(i), ip, isValidIP(ip)));
  });
  if (type === '') errs.push(fieldErrors.required(specPath.child('type'), ''));
  else if (!serviceTypes.includes(type))
    errs.push(fieldErrors.notSupported(specPath.child('type'), type, serviceTypes));
  errs.push(...validateTrafficPolicies(spec));
  if (type === 'LoadBalancer' && spec['allocateLoadBalancerNodePorts'] === undefined) {
    errs.push(fieldErrors.required(specPath.child('allocateLoadBalancerNodePorts'), ''));
  }
  return errs;
}

export function validateServiceUpdate(svc: JsonObject, old: JsonObject): FieldError[] {
  return [
    ...validateClusterIPsUpdate(obj(svc, 'spec') ?? {}, obj(old, 'spec') ?? {}),
    ...validateService(svc),
  ];
}

/** Upstream GetWarningsForService. */
export function serviceWarnings(svc: JsonObject): string[] {
  const warnings: string[] = [];
  const annotations = strMap(obj(svc, 'metadata'), 'annotations') ?? {};
  if (annotations[topologyHintsAnnotation] !== undefined) {
    warnings.push(
      `annotation ${topologyHintsAnnotation} is deprecated, please use ${topologyModeAnnotation} instead`,
    );
  }
  const spec = obj(svc, 'spec') ?? {};
  const clusterIP = str(spec, 'clusterIP') ?? '';
  if (clusterIP !== '' && clusterIP !== 'None') {
    strArr(spec, 'clusterIPs').forEach((ip, i) =>
      warnings.push(...warningsForIP(`spec.clusterIPs[${i}]`, ip)),
    );
  }
  strArr(spec, 'externalIPs').forEach((ip, i) =>
    warnings.push(...warningsForIP(`spec.externalIPs[${i}]`, ip)),
  );
  const lbIP = str(spec, 'loadBalancerIP') ?? '';
  if (lbIP !== '') warnings.push(...warningsForIP('spec.loadBalancerIP', lbIP));
  const type = str(spec, 'type');
  if (type === 'ExternalName' && strArr(spec, 'externalIPs').length > 0) {
    warnings.push('spec.externalIPs is ignored when spec.type is "ExternalName"');
  }
  if (type !== 'ExternalName' && (str(spec, 'externalName') ?? '') !== '') {
    warnings.push('spec.externalName is ignored when spec.type is not "ExternalName"');
  }
  return warnings;
}
