/**
 * Ingress validation as pkg/apis/networking/validation (release-1.27), on networking/v1 JSON.
 * Object metadata is validated by the generic store; these are the spec, class and status rules.
 */
import { FieldPath, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import type { KubeObject } from '../../../../machinery/object.js';
import { invalidRendered } from '../../../../machinery/validation/gosyntax.js';
import { parseIPSloppy } from '../../../../machinery/validation/ip.js';
import {
  isDNS1035Label,
  isDNS1123Subdomain,
  isValidPathSegmentName,
  isValidPortName,
  isValidPortNum,
} from '../../../../machinery/validation/names.js';
import type { JsonObject } from '../../../../util/json.js';
import { indexedObjs, num, obj, str, strArr } from '../../../core/v1/access.js';
import { invalidEach } from '../../../core/v1/validation/common.js';
import { isWildcardDNS1123Subdomain } from './strings.js';

/** The legacy class annotation `spec.ingressClassName` replaced. */
export const annotationIngressClass = 'kubernetes.io/ingress.class';

const supportedPathTypes = ['Exact', 'ImplementationSpecific', 'Prefix'];
const invalidPathSequences = ['//', '/./', '/../', '%2f', '%2F'];
const invalidPathSuffixes = ['/..', '/.'];

/** Upstream IngressValidationOptions: leniency for data stored by older servers. */
interface IngressValidationOptions {
  readonly allowInvalidSecretName: boolean;
  readonly allowInvalidWildcardHostRule: boolean;
}

const strict: IngressValidationOptions = {
  allowInvalidSecretName: false,
  allowInvalidWildcardHostRule: false,
};

/** Upstream validateIngressTypedLocalObjectReference (also the IngressClass parameters' base). */
export function validateTypedLocalObjectReference(ref: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const apiGroup = str(ref, 'apiGroup');
  if (apiGroup !== undefined)
    errs.push(...invalidEach(path.child('apiGroup'), apiGroup, isDNS1123Subdomain(apiGroup)));
  const kind = str(ref, 'kind') ?? '';
  if (kind === '') errs.push(fieldErrors.required(path.child('kind'), 'kind is required'));
  else errs.push(...invalidEach(path.child('kind'), kind, isValidPathSegmentName(kind)));
  const name = str(ref, 'name') ?? '';
  if (name === '') errs.push(fieldErrors.required(path.child('name'), 'name is required'));
  else errs.push(...invalidEach(path.child('name'), name, isValidPathSegmentName(name)));
  return errs;
}

/** Upstream validateIngressBackend: exactly one of resource and service; a service names one port. */
function validateIngressBackend(backend: JsonObject, path: FieldPath): FieldError[] {
  const resource = obj(backend, 'resource');
  const service = obj(backend, 'service');
  if (resource !== undefined && service !== undefined) {
    return [fieldErrors.invalid(path, '', 'cannot set both resource and service backends')];
  }
  if (resource !== undefined) return validateTypedLocalObjectReference(resource, path.child('resource'));
  if (service === undefined) {
    return [fieldErrors.invalid(path, '', 'resource or service backend is required')];
  }
  const errs: FieldError[] = [];
  const name = str(service, 'name') ?? '';
  const namePath = path.child('service', 'name');
  if (name === '') errs.push(fieldErrors.required(namePath, ''));
  else errs.push(...invalidEach(namePath, name, isDNS1035Label(name)));
  const port = obj(service, 'port');
  const portName = str(port, 'name') ?? '';
  const portNumber = num(port, 'number') ?? 0;
  if (portName !== '' && portNumber !== 0) {
    errs.push(fieldErrors.invalid(path, '', 'cannot set both port name & port number'));
  } else if (portName !== '') {
    errs.push(...invalidEach(path.child('service', 'port', 'name'), portName, isValidPortName(portName)));
  } else if (portNumber !== 0) {
    errs.push(
      ...invalidEach(path.child('service', 'port', 'number'), portNumber, isValidPortNum(portNumber)),
    );
  } else {
    errs.push(fieldErrors.required(path, 'port name or number is required'));
  }
  return errs;
}

function validateHTTPIngressPath(p: JsonObject, path: FieldPath): FieldError[] {
  const pathType = str(p, 'pathType');
  if (pathType === undefined) {
    return [fieldErrors.required(path.child('pathType'), 'pathType must be specified')];
  }
  const errs: FieldError[] = [];
  const value = str(p, 'path') ?? '';
  const valuePath = path.child('path');
  switch (pathType) {
    case 'Exact':
    case 'Prefix':
      if (!value.startsWith('/'))
        errs.push(fieldErrors.invalid(valuePath, value, 'must be an absolute path'));
      if (value.length > 0) {
        for (const seq of invalidPathSequences) {
          if (value.includes(seq))
            errs.push(fieldErrors.invalid(valuePath, value, `must not contain '${seq}'`));
        }
        for (const suffix of invalidPathSuffixes) {
          if (value.endsWith(suffix)) {
            errs.push(fieldErrors.invalid(valuePath, value, `cannot end with '${suffix}'`));
          }
        }
      }
      break;
    case 'ImplementationSpecific':
      if (value.length > 0 && !value.startsWith('/')) {
        errs.push(fieldErrors.invalid(valuePath, value, 'must be an absolute path'));
      }
      break;
    default:
      errs.push(fieldErrors.notSupported(path.child('pathType'), pathType, supportedPathTypes));
  }
  errs.push(...validateIngressBackend(obj(p, 'backend') ?? {}, path.child('backend')));
  return errs;
}

/** Upstream validateIngressRuleValue: the HTTP paths, when the rule has any. */
function validateIngressRuleValue(rule: JsonObject, path: FieldPath): FieldError[] {
  const http = obj(rule, 'http');
  if (http === undefined) return [];
  const httpPath = path.child('http');
  const errs: FieldError[] = [];
  const paths = indexedObjs(http, 'paths');
  if (paths.length === 0) errs.push(fieldErrors.required(httpPath.child('paths'), ''));
  for (const [i, p] of paths) errs.push(...validateHTTPIngressPath(p, httpPath.child('paths').index(i)));
  return errs;
}

function validateIngressRules(
  rules: [number, JsonObject][],
  path: FieldPath,
  opts: IngressValidationOptions,
): FieldError[] {
  const errs: FieldError[] = [];
  for (const [i, rule] of rules) {
    const host = str(rule, 'host') ?? '';
    const hostPath = path.index(i).child('host');
    let wildcardHost = false;
    if (host.length > 0) {
      if (parseIPSloppy(host) !== undefined) {
        errs.push(fieldErrors.invalid(hostPath, host, 'must be a DNS name, not an IP address'));
      }
      if (host.includes('*')) {
        errs.push(...invalidEach(hostPath, host, isWildcardDNS1123Subdomain(host)));
        wildcardHost = true;
      } else {
        errs.push(...invalidEach(hostPath, host, isDNS1123Subdomain(host)));
      }
    }
    if (!wildcardHost || !opts.allowInvalidWildcardHostRule) {
      errs.push(...validateIngressRuleValue(rule, path.index(i)));
    }
  }
  return errs;
}

/** Upstream validateTLSSecretName: empty is fine, anything else is a Secret name. */
function tlsSecretNameErrors(name: string): string[] {
  return name.length === 0 ? [] : isDNS1123Subdomain(name);
}

function validateIngressTLS(
  tls: [number, JsonObject][],
  path: FieldPath,
  opts: IngressValidationOptions,
): FieldError[] {
  const errs: FieldError[] = [];
  for (const [t, entry] of tls) {
    strArr(entry, 'hosts').forEach((host, i) => {
      const hostPath = path.index(t).child('hosts').index(i);
      const msgs = host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host);
      errs.push(...invalidEach(hostPath, host, msgs));
    });
    if (!opts.allowInvalidSecretName) {
      const secretName = str(entry, 'secretName') ?? '';
      errs.push(
        ...invalidEach(path.index(t).child('secretName'), secretName, tlsSecretNameErrors(secretName)),
      );
    }
  }
  return errs;
}

/** Upstream ValidateIngressSpec. */
function validateIngressSpec(ingress: KubeObject, opts: IngressValidationOptions): FieldError[] {
  const path = FieldPath.root('spec');
  const spec = obj(ingress, 'spec');
  const errs: FieldError[] = [];
  const rules = indexedObjs(spec, 'rules');
  const defaultBackend = obj(spec, 'defaultBackend');
  if (rules.length === 0 && defaultBackend === undefined) {
    // Empty rules are dropped on decoding (omitempty), so the Go value is always the nil slice.
    errs.push(
      invalidRendered(
        path,
        '[]networking.IngressRule(nil)',
        'either `defaultBackend` or `rules` must be specified',
      ),
    );
  }
  if (defaultBackend !== undefined)
    errs.push(...validateIngressBackend(defaultBackend, path.child('defaultBackend')));
  if (rules.length > 0) errs.push(...validateIngressRules(rules, path.child('rules'), opts));
  const tls = indexedObjs(spec, 'tls');
  if (tls.length > 0) errs.push(...validateIngressTLS(tls, path.child('tls'), opts));
  const className = str(spec, 'ingressClassName');
  if (className !== undefined) {
    errs.push(...invalidEach(path.child('ingressClassName'), className, isDNS1123Subdomain(className)));
  }
  return errs;
}

/**
 * Upstream ValidateIngressCreate: the spec, then the class annotation. Since v1.27 an
 * Ingress may carry both the annotation and `spec.ingressClassName` as long as they agree.
 */
export function validateIngressCreate(ingress: KubeObject): FieldError[] {
  const errs = validateIngressSpec(ingress, strict);
  const annotation = ingress.metadata.annotations?.[annotationIngressClass];
  const className = str(obj(ingress, 'spec'), 'ingressClassName');
  if (annotation !== undefined && className !== undefined && annotation !== className) {
    errs.push(
      fieldErrors.invalid(
        FieldPath.root('annotations').child(annotationIngressClass),
        annotation,
        'must match `ingressClassName` when both are specified',
      ),
    );
  }
  return errs;
}

/** Stored TLS secret names that are not valid Secret names keep being accepted. */
function allowInvalidSecretName(old: KubeObject): boolean {
  return indexedObjs(obj(old, 'spec'), 'tls').some(
    ([, tls]) => tlsSecretNameErrors(str(tls, 'secretName') ?? '').length > 0,
  );
}

/** Stored wildcard-host rules with invalid paths keep being accepted. */
function allowInvalidWildcardHostRule(old: KubeObject): boolean {
  return indexedObjs(obj(old, 'spec'), 'rules').some(
    ([, rule]) =>
      (str(rule, 'host') ?? '').includes('*') &&
      validateIngressRuleValue(rule, FieldPath.root('')).length > 0,
  );
}

/** Upstream ValidateIngressUpdate (no class annotation check on update). */
export function validateIngressUpdate(ingress: KubeObject, old: KubeObject): FieldError[] {
  return validateIngressSpec(ingress, {
    allowInvalidSecretName: allowInvalidSecretName(old),
    allowInvalidWildcardHostRule: allowInvalidWildcardHostRule(old),
  });
}

/** Upstream ValidateIngressLoadBalancerStatus, on the `/status` subresource. */
export function validateIngressStatusUpdate(ingress: KubeObject): FieldError[] {
  const path = FieldPath.root('status', 'loadBalancer');
  const errs: FieldError[] = [];
  for (const [i, entry] of indexedObjs(obj(obj(ingress, 'status'), 'loadBalancer'), 'ingress')) {
    const idxPath = path.child('ingress').index(i);
    const ip = str(entry, 'ip') ?? '';
    if (ip.length > 0 && parseIPSloppy(ip) === undefined) {
      errs.push(fieldErrors.invalid(idxPath.child('ip'), ip, 'must be a valid IP address'));
    }
    const hostname = str(entry, 'hostname') ?? '';
    if (hostname.length > 0) {
      errs.push(...invalidEach(idxPath.child('hostname'), hostname, isDNS1123Subdomain(hostname)));
      if (parseIPSloppy(hostname) !== undefined) {
        errs.push(
          fieldErrors.invalid(idxPath.child('hostname'), hostname, 'must be a DNS name, not an IP address'),
        );
      }
    }
  }
  return errs;
}

/** Upstream ingress WarningsOnCreate: the class annotation alone is deprecated. */
export function ingressWarningsOnCreate(ingress: KubeObject): string[] {
  const annotation = ingress.metadata.annotations?.[annotationIngressClass];
  if (annotation !== undefined && str(obj(ingress, 'spec'), 'ingressClassName') === undefined) {
    return [
      `annotation "${annotationIngressClass}" is deprecated, please use 'spec.ingressClassName' instead`,
    ];
  }
  return [];
}
