/** Container validation (upstream validateContainers, validateContainerCommon and helpers). */
import { fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError, FieldPath } from '../../../../machinery/field/errors.js';
import { isValidPortName, isValidPortNum } from '../../../../machinery/validation/names.js';
import type { JsonObject } from '../../../../util/json.js';
import { indexedObjs, num, obj, str } from '../access.js';
import { invalidEach, isConfigMapKey, isEnvVarName, validateDNS1123Label } from './common.js';
import { validateLifecycle, validateProbe } from './probe.js';
import { validateResourceRequirements } from './resources.js';

export const supportedPortProtocols = ['SCTP', 'TCP', 'UDP'];
const pullPolicies = ['Always', 'IfNotPresent', 'Never'];
const terminationMessagePolicies = ['File', 'FallbackToLogsOnError'];
const envFieldPaths = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.podIP',
  'status.podIPs',
];
const resourceFieldPaths = [
  'limits.cpu',
  'limits.ephemeral-storage',
  'limits.memory',
  'requests.cpu',
  'requests.ephemeral-storage',
  'requests.memory',
];

export function validateContainerPorts(c: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  for (const [i, port] of indexedObjs(c, 'ports')) {
    const p = path.index(i);
    const name = str(port, 'name') ?? '';
    if (name !== '') {
      const msgs = isValidPortName(name);
      if (msgs.length > 0) errs.push(...invalidEach(p.child('name'), name, msgs));
      else if (names.has(name)) errs.push(fieldErrors.duplicate(p.child('name'), name));
      else names.add(name);
    }
    const containerPort = num(port, 'containerPort') ?? 0;
    if (containerPort === 0) errs.push(fieldErrors.required(p.child('containerPort'), ''));
    else errs.push(...invalidEach(p.child('containerPort'), containerPort, isValidPortNum(containerPort)));
    const hostPort = num(port, 'hostPort') ?? 0;
    if (hostPort !== 0) errs.push(...invalidEach(p.child('hostPort'), hostPort, isValidPortNum(hostPort)));
    const protocol = str(port, 'protocol') ?? '';
    if (protocol === '') errs.push(fieldErrors.required(p.child('protocol'), ''));
    else if (!supportedPortProtocols.includes(protocol)) {
      errs.push(fieldErrors.notSupported(p.child('protocol'), protocol, supportedPortProtocols));
    }
  }
  return errs;
}

function validateKeySelector(sel: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if ((str(sel, 'name') ?? '') === '') errs.push(fieldErrors.required(path.child('name'), ''));
  const key = str(sel, 'key') ?? '';
  if (key === '') errs.push(fieldErrors.required(path.child('key'), ''));
  else errs.push(...invalidEach(path.child('key'), key, isConfigMapKey(key)));
  return errs;
}

/**
 * Upstream validateObjectFieldSelector: `allowed` lists the plain paths; labels and annotations
 * are also allowed with a subscript (`metadata.labels['app']`).
 */
export function validateFieldRef(ref: JsonObject, path: FieldPath, allowed: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  const fieldPath = str(ref, 'fieldPath') ?? '';
  if ((str(ref, 'apiVersion') ?? '') === '') errs.push(fieldErrors.required(path.child('apiVersion'), ''));
  if (fieldPath === '') return [...errs, fieldErrors.required(path.child('fieldPath'), '')];
  if (/^metadata\.(?:labels|annotations)\['[^']*'\]$/.test(fieldPath)) return errs;
  if (!allowed.includes(fieldPath))
    errs.push(fieldErrors.notSupported(path.child('fieldPath'), fieldPath, allowed));
  return errs;
}

function validateEnvValueFrom(env: JsonObject, path: FieldPath): FieldError[] {
  const from = obj(env, 'valueFrom');
  if (from === undefined) return [];
  const errs: FieldError[] = [];
  let count = 0;
  const fieldRef = obj(from, 'fieldRef');
  if (fieldRef !== undefined) {
    count++;
    errs.push(...validateFieldRef(fieldRef, path.child('fieldRef'), envFieldPaths));
  }
  const resourceRef = obj(from, 'resourceFieldRef');
  if (resourceRef !== undefined) {
    count++;
    const resource = str(resourceRef, 'resource') ?? '';
    const rp = path.child('resourceFieldRef', 'resource');
    if (resource === '') errs.push(fieldErrors.required(rp, ''));
    else if (!resourceFieldPaths.includes(resource) && !/^(limits|requests)\.hugepages-/.test(resource)) {
      errs.push(fieldErrors.notSupported(rp, resource, resourceFieldPaths));
    }
  }
  for (const key of ['configMapKeyRef', 'secretKeyRef']) {
    const ref = obj(from, key);
    if (ref === undefined) continue;
    count++;
    errs.push(...validateKeySelector(ref, path.child(key)));
  }
  if (count === 0) {
    errs.push(
      fieldErrors.invalid(
        path,
        '',
        'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
      ),
    );
  } else if ((str(env, 'value') ?? '') !== '') {
    errs.push(fieldErrors.invalid(path, '', 'may not be specified when `value` is not empty'));
  } else if (count > 1) {
    errs.push(fieldErrors.invalid(path, '', 'may not have more than one field specified at a time'));
  }
  return errs;
}

export function validateEnv(c: JsonObject, containerPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const path = containerPath.child('env');
  for (const [i, env] of indexedObjs(c, 'env')) {
    const p = path.index(i);
    const name = str(env, 'name') ?? '';
    if (name === '') errs.push(fieldErrors.required(p.child('name'), ''));
    else errs.push(...invalidEach(p.child('name'), name, isEnvVarName(name)));
    errs.push(...validateEnvValueFrom(env, p.child('valueFrom')));
  }
  for (const [i, from] of indexedObjs(c, 'envFrom')) {
    const p = containerPath.child('envFrom').index(i);
    const prefix = str(from, 'prefix') ?? '';
    if (prefix !== '') errs.push(...invalidEach(p.child('prefix'), prefix, isEnvVarName(prefix)));
    const refs = ['configMapRef', 'secretRef'].filter((k) => obj(from, k) !== undefined);
    if (refs.length === 0) {
      errs.push(fieldErrors.invalid(p, '', 'must specify one of: `configMapRef` or `secretRef`'));
    } else if (refs.length > 1) {
      errs.push(fieldErrors.invalid(p, '', 'may not have more than one field specified at a time'));
    }
    for (const k of refs) {
      if ((str(obj(from, k), 'name') ?? '') === '') errs.push(fieldErrors.required(p.child(k, 'name'), ''));
    }
  }
  return errs;
}

export function validateVolumeMounts(
  c: JsonObject,
  volumes: ReadonlySet<string>,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const mountPaths = new Set<string>();
  for (const [i, m] of indexedObjs(c, 'volumeMounts')) {
    const p = path.index(i);
    const name = str(m, 'name') ?? '';
    if (name === '') errs.push(fieldErrors.required(p.child('name'), ''));
    if (!volumes.has(name)) errs.push(fieldErrors.notFound(p.child('name'), name));
    const mountPath = str(m, 'mountPath') ?? '';
    if (mountPath === '') errs.push(fieldErrors.required(p.child('mountPath'), ''));
    if (mountPaths.has(mountPath))
      errs.push(fieldErrors.invalid(p.child('mountPath'), mountPath, 'must be unique'));
    mountPaths.add(mountPath);
  }
  return errs;
}

/** What every kind of container shares (upstream validateContainerCommon). */
export function validateContainerCommon(
  c: JsonObject,
  volumes: ReadonlySet<string>,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(c, 'name') ?? '';
  if (name === '') errs.push(fieldErrors.required(path.child('name'), ''));
  else errs.push(...validateDNS1123Label(name, path.child('name')));
  if ((str(c, 'image') ?? '') === '') errs.push(fieldErrors.required(path.child('image'), ''));
  const policy = str(c, 'imagePullPolicy') ?? '';
  if (policy === '') errs.push(fieldErrors.required(path.child('imagePullPolicy'), ''));
  else if (!pullPolicies.includes(policy))
    errs.push(fieldErrors.notSupported(path.child('imagePullPolicy'), policy, pullPolicies));
  const tmp = str(c, 'terminationMessagePolicy') ?? '';
  if (tmp === '') errs.push(fieldErrors.required(path.child('terminationMessagePolicy'), ''));
  else if (!terminationMessagePolicies.includes(tmp)) {
    errs.push(
      fieldErrors.notSupported(path.child('terminationMessagePolicy'), tmp, terminationMessagePolicies),
    );
  }
  errs.push(...validateContainerPorts(c, path.child('ports')));
  errs.push(...validateEnv(c, path));
  errs.push(...validateVolumeMounts(c, volumes, path.child('volumeMounts')));
  errs.push(...validateResourceRequirements(obj(c, 'resources'), path.child('resources')));
  errs.push(...validateLifecycle(obj(c, 'lifecycle'), path.child('lifecycle')));
  return errs;
}

/** Probes of a regular container (init containers may not have any but startup... see pod.ts). */
export function validateProbes(c: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const liveness = obj(c, 'livenessProbe');
  const readiness = obj(c, 'readinessProbe');
  const startup = obj(c, 'startupProbe');
  errs.push(...validateProbe(liveness, path.child('livenessProbe')));
  errs.push(...validateProbe(readiness, path.child('readinessProbe')));
  errs.push(...validateProbe(startup, path.child('startupProbe')));
  for (const [key, probe] of [
    ['livenessProbe', liveness],
    ['startupProbe', startup],
  ] as const) {
    const st = num(probe, 'successThreshold');
    if (st !== undefined && st !== 1)
      errs.push(fieldErrors.invalid(path.child(key, 'successThreshold'), st, 'must be 1'));
  }
  if (num(readiness, 'terminationGracePeriodSeconds') !== undefined) {
    errs.push(
      fieldErrors.invalid(
        path.child('readinessProbe', 'terminationGracePeriodSeconds'),
        num(readiness, 'terminationGracePeriodSeconds'),
        'must not be set for readinessProbes',
      ),
    );
  }
  return errs;
}
