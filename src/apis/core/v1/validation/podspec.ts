/** PodSpec validation (upstream ValidatePodSpec and what it calls, for the fields kubectl users hit). */
import {
  FieldError as FieldErrorClass,
  fieldErrors,
  goQuote,
  goRendered,
} from '../../../../machinery/field/errors.js';
import type { FieldError, FieldPath } from '../../../../machinery/field/errors.js';
import { isValidLabelValue, nameIsDNSSubdomain } from '../../../../machinery/validation/names.js';
import { validateLabels } from '../../../../machinery/validation/objectmeta.js';
import type { StrategyContext } from '../../../../machinery/validation-context.js';
import type { JsonObject } from '../../../../util/json.js';
import { bool, indexedObjs, num, obj, str, strMap } from '../access.js';
import {
  invalidEach,
  validateDNS1123Label,
  validateDNS1123Subdomain,
  validateQualifiedName,
} from './common.js';
import { validateContainerCommon, validateProbes } from './container.js';
import { validateAffinity, validateTopologySpreadConstraints } from './podscheduling.js';
import { validateContainerSecurityContext, validatePodSecurityContext } from './securitycontext.js';
import { validateVolumes } from './volumes.js';

const restartPolicies = ['Always', 'OnFailure', 'Never'];
const dnsPolicies = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const tolerationOperators = ['Equal', 'Exists'];
const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const maxInt32 = 2147483647;

function validateContainerList(
  spec: JsonObject,
  key: 'containers' | 'initContainers',
  volumes: ReadonlySet<string>,
  names: Set<string>,
  claims: ReadonlySet<string>,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const list = indexedObjs(spec, key);
  if (key === 'containers' && list.length === 0) errs.push(fieldErrors.required(path, ''));
  for (const [i, c] of list) {
    const p = path.index(i);
    errs.push(...validateContainerCommon(c, volumes, p));
    errs.push(...validateResourceClaimNames(obj(c, 'resources'), claims, p.child('resources', 'claims')));
    errs.push(...validateContainerSecurityContext(c, p.child('securityContext')));
    const name = str(c, 'name') ?? '';
    if (names.has(name)) errs.push(fieldErrors.duplicate(p.child('name'), name));
    else names.add(name);
    if (key === 'containers') {
      errs.push(...validateProbes(c, p));
    } else {
      for (const forbidden of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
        if (obj(c, forbidden) !== undefined) {
          errs.push(fieldErrors.forbidden(p.child(forbidden), 'may not be set for init containers'));
        }
      }
    }
  }
  return errs;
}

function validateHostPorts(spec: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  const hostNetwork = bool(spec, 'hostNetwork') === true;
  for (const key of ['containers', 'initContainers'] as const) {
    for (const [i, c] of indexedObjs(spec, key)) {
      for (const [j, port] of indexedObjs(c, 'ports')) {
        const p = path.child(key).index(i).child('ports').index(j);
        const hostPort = num(port, 'hostPort') ?? 0;
        if (hostNetwork && hostPort !== (num(port, 'containerPort') ?? 0)) {
          errs.push(
            fieldErrors.invalid(
              p.child('containerPort'),
              num(port, 'containerPort') ?? 0,
              'must match `hostPort` when `hostNetwork` is true',
            ),
          );
        }
        if (key !== 'containers' || hostPort === 0) continue;
        const id = `${str(port, 'protocol') ?? ''}/${str(port, 'hostIP') ?? ''}/${hostPort}`;
        if (seen.has(id))
          errs.push(
            fieldErrors.duplicate(
              path.child('containers').index(i).child('ports').index(j).child('hostPort'),
              id,
            ),
          );
        seen.add(id);
      }
    }
  }
  return errs;
}

export function validateTolerations(spec: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [i, t] of indexedObjs(spec, 'tolerations')) {
    const p = path.index(i);
    const key = str(t, 'key') ?? '';
    const operator = str(t, 'operator') ?? '';
    const value = str(t, 'value') ?? '';
    const effect = str(t, 'effect') ?? '';
    if (key !== '') errs.push(...validateQualifiedName(key, p.child('key')));
    if (key === '' && operator !== 'Exists') {
      errs.push(
        fieldErrors.invalid(
          p.child('operator'),
          operator,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      );
    }
    if (num(t, 'tolerationSeconds') !== undefined && effect !== 'NoExecute') {
      errs.push(
        fieldErrors.invalid(
          p.child('effect'),
          effect,
          "effect must be 'NoExecute' when `tolerationSeconds` is set",
        ),
      );
    }
    if (operator === '' || operator === 'Equal') {
      const msgs = isValidLabelValue(value);
      if (msgs.length > 0) errs.push(fieldErrors.invalid(p.child('operator'), value, msgs.join(';')));
    } else if (operator === 'Exists') {
      if (value !== '')
        errs.push(
          fieldErrors.invalid(
            p.child('operator'),
            goRendered(goToleration(t)),
            "value must be empty when `operator` is 'Exists'",
          ),
        );
    } else {
      errs.push(fieldErrors.notSupported(p.child('operator'), operator, tolerationOperators));
    }
    if (effect !== '' && !taintEffects.includes(effect)) {
      errs.push(fieldErrors.notSupported(p.child('effect'), effect, taintEffects));
    }
  }
  return errs;
}

function validateSchedulingGates(spec: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const [i, gate] of indexedObjs(spec, 'schedulingGates')) {
    const name = str(gate, 'name') ?? '';
    errs.push(...validateQualifiedName(name, path.index(i)));
    if (seen.has(name)) errs.push(fieldErrors.duplicate(path.index(i), name));
    seen.add(name);
  }
  return errs;
}

function validateEnum(value: string, path: FieldPath, valid: readonly string[]): FieldError[] {
  if (value === '') return [fieldErrors.required(path, '')];
  return valid.includes(value) ? [] : [fieldErrors.notSupported(path, value, valid)];
}

function validateOptionalName(
  spec: JsonObject,
  key: string,
  path: FieldPath,
  check: (v: string) => string[],
): FieldError[] {
  const v = str(spec, key) ?? '';
  return v === '' ? [] : invalidEach(path.child(key), v, check(v));
}

/** Container resizePolicy (only with InPlacePodVerticalScaling; the field is dropped otherwise). */
function validateResizePolicies(spec: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [i, c] of indexedObjs(spec, 'containers')) {
    const p = path.child('containers').index(i).child('resizePolicy');
    const seen = new Set<string>();
    for (const [j, policy] of indexedObjs(c, 'resizePolicy')) {
      const resource = str(policy, 'resourceName') ?? '';
      if (seen.has(resource)) errs.push(fieldErrors.duplicate(p.index(j), resource));
      seen.add(resource);
      if (resource === '') errs.push(fieldErrors.required(p, ''));
      else if (resource !== 'cpu' && resource !== 'memory')
        errs.push(fieldErrors.notSupported(p, resource, ['cpu', 'memory']));
      const restart = str(policy, 'restartPolicy') ?? '';
      if (restart === '') errs.push(fieldErrors.required(p, ''));
      else if (restart !== 'NotRequired' && restart !== 'RestartContainer') {
        errs.push(fieldErrors.notSupported(p, restart, ['NotRequired', 'RestartContainer']));
      }
    }
  }
  return errs;
}

/** Go's `%#v` of a core.Toleration. */
function goToleration(t: JsonObject): string {
  const seconds = num(t, 'tolerationSeconds');
  return (
    `core.Toleration{Key:${goQuote(str(t, 'key') ?? '')}, Operator:${goQuote(str(t, 'operator') ?? '')}, ` +
    `Value:${goQuote(str(t, 'value') ?? '')}, Effect:${goQuote(str(t, 'effect') ?? '')}, ` +
    `TolerationSeconds:${seconds === undefined ? '(*int64)(nil)' : '(*int64)(0xc000010000)'}}`
  );
}

/** Upstream validatePodResourceClaims (DynamicResourceAllocation; the field is dropped otherwise). */
function validatePodResourceClaims(
  spec: JsonObject,
  path: FieldPath,
  podName: string | undefined,
): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  for (const [i, claim] of indexedObjs(spec, 'resourceClaims')) {
    const p = path.index(i);
    const name = str(claim, 'name') ?? '';
    const source = obj(claim, 'source') ?? {};
    const claimName = str(source, 'resourceClaimName');
    const templateName = str(source, 'resourceClaimTemplateName');
    if (name === '') errs.push(fieldErrors.required(p.child('name'), ''));
    else if (names.has(name)) errs.push(fieldErrors.duplicate(p.child('name'), name));
    else {
      const nameErrs = validateDNS1123Label(name, p.child('name'));
      if (nameErrs.length > 0) errs.push(...nameErrs);
      else if (podName !== undefined && templateName !== undefined) {
        const finalName = `${podName}-${name}`;
        for (const detail of nameIsDNSSubdomain(finalName, false)) {
          errs.push(fieldErrors.invalid(p.child('name'), finalName, `final ResourceClaim name: ${detail}`));
        }
      }
      names.add(name);
    }
    const rendered = goRendered(
      `core.ClaimSource{ResourceClaimName:${claimName === undefined ? '(*string)(nil)' : '(*string)(0xc000010000)'}, ` +
        `ResourceClaimTemplateName:${templateName === undefined ? '(*string)(nil)' : '(*string)(0xc000010000)'}}`,
    );
    const sourcePath = p.child('source');
    if (claimName !== undefined && templateName !== undefined) {
      errs.push(
        fieldErrors.invalid(
          sourcePath,
          rendered,
          'at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified',
        ),
      );
    }
    if (claimName === undefined && templateName === undefined) {
      errs.push(
        fieldErrors.invalid(
          sourcePath,
          rendered,
          'must specify one of: `resourceClaimName`, `resourceClaimTemplateName`',
        ),
      );
    }
    if (claimName !== undefined) {
      for (const detail of nameIsDNSSubdomain(claimName, false))
        errs.push(fieldErrors.invalid(sourcePath.child('resourceClaimName'), claimName, detail));
    }
    if (templateName !== undefined) {
      for (const detail of nameIsDNSSubdomain(templateName, false))
        errs.push(fieldErrors.invalid(sourcePath.child('resourceClaimTemplateName'), templateName, detail));
    }
  }
  return errs;
}

/** Upstream validateResourceClaimNames: a container's claims name the pod's claims. */
function validateResourceClaimNames(
  resources: JsonObject | undefined,
  podClaims: ReadonlySet<string>,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const [i, claim] of indexedObjs(resources, 'claims')) {
    const name = str(claim, 'name') ?? '';
    if (name === '') {
      errs.push(fieldErrors.required(path.index(i), ''));
      continue;
    }
    if (seen.has(name)) errs.push(fieldErrors.duplicate(path.index(i), name));
    else seen.add(name);
    if (!podClaims.has(name)) {
      const known = [...podClaims].sort();
      const detail =
        'must be one of the names in pod.spec.resourceClaims' +
        (known.length === 0 ? ' which is empty' : `: ${known.join(', ')}`);
      errs.push(new FieldErrorClass('FieldValueNotFound', path.index(i), name, detail));
    }
  }
  return errs;
}

export function validatePodSpec(
  spec: JsonObject,
  path: FieldPath,
  ctx: StrategyContext,
  podName?: string,
): FieldError[] {
  const { errs, names: volumes } = validateVolumes(spec, path.child('volumes'));
  const claims = new Set(indexedObjs(spec, 'resourceClaims').map(([, c]) => str(c, 'name') ?? ''));
  errs.push(...validatePodResourceClaims(spec, path.child('resourceClaims'), podName));
  const containerNames = new Set<string>();
  errs.push(
    ...validateContainerList(spec, 'containers', volumes, containerNames, claims, path.child('containers')),
  );
  errs.push(
    ...validateContainerList(
      spec,
      'initContainers',
      volumes,
      containerNames,
      claims,
      path.child('initContainers'),
    ),
  );
  errs.push(...validateEnum(str(spec, 'restartPolicy') ?? '', path.child('restartPolicy'), restartPolicies));
  const dnsPolicy = str(spec, 'dnsPolicy') ?? '';
  errs.push(...validateEnum(dnsPolicy, path.child('dnsPolicy'), dnsPolicies));
  errs.push(...validateLabels(strMap(spec, 'nodeSelector'), path.child('nodeSelector')));
  errs.push(...validateHostPorts(spec, path));
  errs.push(...validatePodSecurityContext(spec, path.child('securityContext')));
  // Upstream validateImagePullSecrets only refuses fields besides `name` ("only name may be set"),
  // which decoding has already dropped or refused; an empty name is accepted with a warning.
  errs.push(...validateAffinity(spec, path.child('affinity')));
  if (dnsPolicy === 'None' && obj(spec, 'dnsConfig') === undefined) {
    errs.push(
      fieldErrors.required(path.child('dnsConfig'), 'must provide `dnsConfig` when `dnsPolicy` is None'),
    );
  }
  for (const [i, gate] of indexedObjs(spec, 'readinessGates')) {
    errs.push(
      ...validateQualifiedName(
        str(gate, 'conditionType') ?? '',
        path.child('readinessGates').index(i).child('conditionType'),
      ),
    );
  }
  errs.push(...validateOptionalName(spec, 'serviceAccountName', path, (v) => nameIsDNSSubdomain(v, false)));
  errs.push(...validateOptionalName(spec, 'nodeName', path, (v) => nameIsDNSSubdomain(v, false)));
  const deadline = num(spec, 'activeDeadlineSeconds');
  if (deadline !== undefined && (deadline < 1 || deadline > maxInt32)) {
    errs.push(
      fieldErrors.invalid(
        path.child('activeDeadlineSeconds'),
        deadline,
        `must be between 1 and ${maxInt32}, inclusive`,
      ),
    );
  }
  const hostname = str(spec, 'hostname') ?? '';
  if (hostname !== '') errs.push(...validateDNS1123Label(hostname, path.child('hostname')));
  const subdomain = str(spec, 'subdomain') ?? '';
  if (subdomain !== '') errs.push(...validateDNS1123Label(subdomain, path.child('subdomain')));
  errs.push(...validateTolerations(spec, path.child('tolerations')));
  errs.push(...validateOptionalName(spec, 'priorityClassName', path, (v) => nameIsDNSSubdomain(v, false)));
  const runtimeClass = str(spec, 'runtimeClassName');
  if (runtimeClass !== undefined)
    errs.push(...validateDNS1123Subdomain(runtimeClass, path.child('runtimeClassName')));
  const preemption = str(spec, 'preemptionPolicy');
  if (preemption !== undefined) {
    errs.push(...validateEnum(preemption, path.child('preemptionPolicy'), ['PreemptLowerPriority', 'Never']));
  }
  errs.push(...validateSchedulingGates(spec, path.child('schedulingGates')));
  errs.push(...validateTopologySpreadConstraints(spec, path.child('topologySpreadConstraints')));
  if (ctx.features.enabled('InPlacePodVerticalScaling')) errs.push(...validateResizePolicies(spec, path));
  return errs;
}
