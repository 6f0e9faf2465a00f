/**
 * CSIDriver validation as pkg/apis/storage/validation (release-1.27), on storage/v1 JSON; metadata
 * (DNS subdomain names) is validated by the generic store first.
 */
import { FieldPath, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import type { KubeObject } from '../../../../machinery/object.js';
import { invalidRendered } from '../../../../machinery/validation/gosyntax.js';
import { fieldImmutableErrorMsg } from '../../../../machinery/validation/objectmeta.js';
import type { FeatureGateReader } from '../../../../machinery/validation-context.js';
import type { JsonObject } from '../../../../util/json.js';
import { jsonEqual } from '../../../../util/json.js';
import { bool, indexedObjs, num, obj, str } from '../../../core/v1/access.js';
import { goSlice, seLinuxMountEnabled } from './common.js';

const supportedFSGroupPolicies = ['File', 'None', 'ReadWriteOnceWithFSType'];
const lifecycleModes = ['Persistent', 'Ephemeral'];
const minTokenSeconds = 600;
const maxTokenSeconds = 2 ** 32;

function requiredBool(spec: JsonObject | undefined, key: string, path: FieldPath): FieldError[] {
  return bool(spec, key) === undefined ? [fieldErrors.required(path, '')] : [];
}

/** validateTokenRequests: distinct audiences, expirations between 10 minutes and 2^32 seconds. */
function validateTokenRequests(spec: JsonObject | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const audiences = new Set<string>();
  for (const [i, tr] of indexedObjs(spec, 'tokenRequests')) {
    const p = path.index(i);
    const audience = str(tr, 'audience') ?? '';
    if (audiences.has(audience)) {
      errs.push(fieldErrors.duplicate(p.child('audience'), audience));
      continue;
    }
    audiences.add(audience);
    const seconds = num(tr, 'expirationSeconds');
    if (seconds === undefined) continue;
    if (seconds < minTokenSeconds) {
      errs.push(
        fieldErrors.invalid(
          p.child('expirationSeconds'),
          seconds,
          'may not specify a duration less than 10 minutes',
        ),
      );
    }
    if (seconds > maxTokenSeconds) {
      errs.push(
        fieldErrors.invalid(
          p.child('expirationSeconds'),
          seconds,
          'may not specify a duration larger than 2^32 seconds',
        ),
      );
    }
  }
  return errs;
}

/** validateCSIDriverSpec (note upstream's `attachedRequired` path). */
function validateSpec(spec: JsonObject | undefined, features: FeatureGateReader): FieldError[] {
  const path = FieldPath.root('spec');
  const errs: FieldError[] = [];
  errs.push(...requiredBool(spec, 'attachRequired', path.child('attachedRequired')));
  errs.push(...requiredBool(spec, 'podInfoOnMount', path.child('podInfoOnMount')));
  errs.push(...requiredBool(spec, 'storageCapacity', path.child('storageCapacity')));
  const policy = str(spec, 'fsGroupPolicy');
  if (policy !== undefined && !supportedFSGroupPolicies.includes(policy)) {
    errs.push(fieldErrors.notSupported(path.child('fsGroupPolicy'), policy, supportedFSGroupPolicies));
  }
  errs.push(...validateTokenRequests(spec, path.child('tokenRequests')));
  const modes = spec?.['volumeLifecycleModes'];
  if (Array.isArray(modes)) {
    for (const mode of modes) {
      const m = typeof mode === 'string' ? mode : '';
      if (!lifecycleModes.includes(m)) {
        errs.push(fieldErrors.notSupported(path.child('volumeLifecycleModes'), m, lifecycleModes));
      }
    }
  }
  if (bool(spec, 'seLinuxMount') === undefined && seLinuxMountEnabled(features)) {
    errs.push(fieldErrors.required(path.child('seLinuxMount'), ''));
  }
  return errs;
}

/** Upstream ValidateCSIDriver, after ValidateObjectMeta. */
export function validateCSIDriver(driver: KubeObject, features: FeatureGateReader): FieldError[] {
  return validateSpec(obj(driver, 'spec'), features);
}

/**
 * Upstream ValidateCSIDriverUpdate: the spec rules, then attachRequired, fsGroupPolicy,
 * podInfoOnMount and volumeLifecycleModes are immutable; tokenRequests are checked a second time
 * (so their errors appear twice, as upstream reports them).
 */
export function validateCSIDriverUpdate(
  driver: KubeObject,
  old: KubeObject,
  features: FeatureGateReader,
): FieldError[] {
  const spec = obj(driver, 'spec');
  const oldSpec = obj(old, 'spec');
  const path = FieldPath.root('spec');
  const errs = validateSpec(spec, features);
  for (const [key, name] of [
    ['attachRequired', 'attachedRequired'],
    ['fsGroupPolicy', 'fsGroupPolicy'],
    ['podInfoOnMount', 'podInfoOnMount'],
  ] as const) {
    const value = spec?.[key];
    if (!jsonEqual(value, oldSpec?.[key])) {
      errs.push(fieldErrors.invalid(path.child(name), value ?? null, fieldImmutableErrorMsg));
    }
  }
  const modes = spec?.['volumeLifecycleModes'];
  const oldModes = oldSpec?.['volumeLifecycleModes'];
  // Semantic equality: a nil and an empty slice are equal.
  const empty = (v: unknown): boolean => !Array.isArray(v) || v.length === 0;
  if (!(empty(modes) && empty(oldModes)) && !jsonEqual(modes, oldModes)) {
    errs.push(
      invalidRendered(
        path.child('volumeLifecycleModes'),
        goSlice('storage.VolumeLifecycleMode', modes),
        fieldImmutableErrorMsg,
      ),
    );
  }
  errs.push(...validateTokenRequests(spec, path.child('tokenRequests')));
  return errs;
}
