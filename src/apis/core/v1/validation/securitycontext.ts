/**
 * Pod and container security contexts (upstream validatePodSpecSecurityContext and
 * ValidateSecurityContext, release-1.27), on core/v1 JSON. In core/v1 `hostPID` and
 * `shareProcessNamespace` sit on the pod spec; upstream's internal type keeps them in the security
 * context, so their errors name `spec.securityContext.*`.
 */
import { fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError, FieldPath } from '../../../../machinery/field/errors.js';
import type { JsonObject } from '../../../../util/json.js';
import { bool, indexedObjs, num, obj, str } from '../access.js';
import { validateLocalPath } from './volumes.js';

const maxID = 2147483647;
const idRangeError = `must be between 0 and ${maxID}, inclusive`;
const fsGroupChangePolicies = ['Always', 'OnRootMismatch'];
const seccompTypes = ['Localhost', 'RuntimeDefault', 'Unconfined'];
const sysctlFmt = '^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$';
const sysctlRegexp = new RegExp(sysctlFmt);
const sysctlMaxLength = 253;

function validateID(value: number | undefined, path: FieldPath): FieldError[] {
  if (value === undefined) return [];
  return value < 0 || value > maxID ? [fieldErrors.invalid(path, value, idRangeError)] : [];
}

/** Upstream validateSeccompProfileField. */
function validateSeccompProfile(sp: JsonObject | undefined, path: FieldPath): FieldError[] {
  if (sp === undefined) return [];
  const errs: FieldError[] = [];
  const type = str(sp, 'type') ?? '';
  if (type === '') {
    errs.push(fieldErrors.required(path.child('type'), 'type is required when seccompProfile is set'));
  } else if (!seccompTypes.includes(type)) {
    errs.push(fieldErrors.notSupported(path.child('type'), type, seccompTypes));
  }
  const profile = str(sp, 'localhostProfile');
  if (type === 'Localhost') {
    if (profile === undefined) {
      errs.push(
        fieldErrors.required(path.child('localhostProfile'), 'must be set when seccomp type is Localhost'),
      );
    } else {
      errs.push(...validateLocalPath(profile, path.child('localhostProfile')));
    }
  }
  return errs;
}

function validateSysctls(sc: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  for (const [i, s] of indexedObjs(sc, 'sysctls')) {
    const name = str(s, 'name') ?? '';
    const p = path.index(i).child('name');
    if (name === '') errs.push(fieldErrors.required(p, ''));
    else if (name.length > sysctlMaxLength || !sysctlRegexp.test(name)) {
      errs.push(
        fieldErrors.invalid(
          p,
          name,
          `must have at most ${sysctlMaxLength} characters and match regex ${sysctlFmt}`,
        ),
      );
    } else if (names.has(name)) errs.push(fieldErrors.duplicate(p, name));
    names.add(name);
  }
  return errs;
}

/** Upstream validatePodSpecSecurityContext. */
export function validatePodSecurityContext(spec: JsonObject, path: FieldPath): FieldError[] {
  const sc = obj(spec, 'securityContext');
  if (sc === undefined) return [];
  const errs: FieldError[] = [];
  errs.push(...validateID(num(sc, 'fsGroup'), path.child('fsGroup')));
  errs.push(...validateID(num(sc, 'runAsUser'), path.child('runAsUser')));
  errs.push(...validateID(num(sc, 'runAsGroup'), path.child('runAsGroup')));
  const groups = sc['supplementalGroups'];
  if (Array.isArray(groups)) {
    groups.forEach((g, i) => {
      if (typeof g === 'number') errs.push(...validateID(g, path.child('supplementalGroups').index(i)));
    });
  }
  const share = bool(spec, 'shareProcessNamespace');
  if (share === true && bool(spec, 'hostPID') === true) {
    errs.push(
      fieldErrors.invalid(
        path.child('shareProcessNamespace'),
        share,
        'ShareProcessNamespace and HostPID cannot both be enabled',
      ),
    );
  }
  errs.push(...validateSysctls(sc, path.child('sysctls')));
  const policy = str(sc, 'fsGroupChangePolicy');
  if (policy !== undefined && !fsGroupChangePolicies.includes(policy)) {
    errs.push(fieldErrors.notSupported(path.child('fsGroupChangePolicy'), policy, fsGroupChangePolicies));
  }
  errs.push(...validateSeccompProfile(obj(sc, 'seccompProfile'), path.child('seccompProfile')));
  return errs;
}

/**
 * Upstream ValidateSecurityContext for a container (privileged containers are allowed, as with
 * `--allow-privileged=true`; the allowPrivilegeEscalation conflicts print the whole Go struct,
 * pointers included, and are not reproduced).
 */
export function validateContainerSecurityContext(c: JsonObject, path: FieldPath): FieldError[] {
  const sc = obj(c, 'securityContext');
  if (sc === undefined) return [];
  const errs: FieldError[] = [];
  errs.push(...validateID(num(sc, 'runAsUser'), path.child('runAsUser')));
  errs.push(...validateID(num(sc, 'runAsGroup'), path.child('runAsGroup')));
  errs.push(...validateSeccompProfile(obj(sc, 'seccompProfile'), path.child('seccompProfile')));
  return errs;
}
