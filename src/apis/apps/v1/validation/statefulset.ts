/** StatefulSet validation as pkg/apis/apps/validation (release-1.27), on apps/v1 JSON. */
import { FieldPath, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import type { KubeObject } from '../../../../machinery/object.js';
import { validateAnnotations, validateLabels } from '../../../../machinery/validation/objectmeta.js';
import type { JsonObject } from '../../../../util/json.js';
import { num, obj, str, strMap } from '../../../core/v1/access.js';
import {
  intOrPercentValue,
  nonNegative,
  notMoreThan100Percent,
  templateLabels,
  templateLabelsMismatch,
  validatePositiveIntOrPercent,
  validateRequiredSelector,
  validateWorkloadPodSpec,
} from './common.js';
import { asSelector } from '../../../../machinery/labels/metav1.js';
import { semanticEqual } from './semantic.js';
import { fakePointer, goIntOrString, goLabelSelector, invalidGo } from './gorender.js';

const retentionValues = ['Retain', 'Delete'];

function validateRetentionPolicy(policy: JsonObject | undefined, path: FieldPath): FieldError[] {
  if (policy === undefined) return [];
  const errs: FieldError[] = [];
  for (const key of ['whenDeleted', 'whenScaled']) {
    const v = str(policy, key) ?? '';
    if (!retentionValues.includes(v))
      errs.push(fieldErrors.notSupported(path.child(key), v, retentionValues));
  }
  return errs;
}

function validateRollingUpdate(ru: JsonObject, path: FieldPath): FieldError[] {
  const errs = nonNegative(num(ru, 'partition') ?? 0, path.child('partition'));
  const maxUnavailable = ru['maxUnavailable'];
  if (maxUnavailable !== undefined && maxUnavailable !== null) {
    const p = path.child('maxUnavailable');
    errs.push(...validatePositiveIntOrPercent(maxUnavailable, p));
    if (intOrPercentValue(maxUnavailable) === 0)
      errs.push(invalidGo(p, goIntOrString(maxUnavailable), 'cannot be 0'));
    errs.push(...notMoreThan100Percent(maxUnavailable, p));
  }
  return errs;
}

function goUpdateStrategy(s: JsonObject | undefined): string {
  const t = str(s, 'type') ?? '';
  const inner = obj(s, 'rollingUpdate') === undefined ? 'nil' : fakePointer;
  return `apps.StatefulSetUpdateStrategy{Type:${JSON.stringify(t)}, RollingUpdate:(*apps.RollingUpdateStatefulSetStrategy)(${inner})}`;
}

function goRollingUpdate(ru: JsonObject): string {
  const mu = ru['maxUnavailable'] === undefined || ru['maxUnavailable'] === null ? 'nil' : fakePointer;
  return `apps.RollingUpdateStatefulSetStrategy{Partition:${num(ru, 'partition') ?? 0}, MaxUnavailable:(*intstr.IntOrString)(${mu})}`;
}

function validateUpdateStrategy(s: JsonObject | undefined, path: FieldPath): FieldError[] {
  const ru = obj(s, 'rollingUpdate');
  switch (str(s, 'type') ?? '') {
    case '':
      return [fieldErrors.required(path, '')];
    case 'OnDelete':
      return ru === undefined
        ? []
        : [
            invalidGo(
              path.child('rollingUpdate'),
              goRollingUpdate(ru),
              "only allowed for updateStrategy 'RollingUpdate'",
            ),
          ];
    case 'RollingUpdate':
      return ru === undefined ? [] : validateRollingUpdate(ru, path.child('rollingUpdate'));
    default:
      return [invalidGo(path, goUpdateStrategy(s), "must be 'RollingUpdate' or 'OnDelete'")];
  }
}

/** Upstream ValidatePodTemplateSpecForStatefulSet (the pod spec itself is not validated upstream). */
function validateTemplate(
  template: JsonObject,
  selector: ReturnType<typeof asSelector>,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  if (selector.ok && !selector.empty && !selector.matches(templateLabels(template))) {
    errs.push(templateLabelsMismatch(template, path));
  }
  const meta = obj(template, 'metadata');
  errs.push(...validateLabels(strMap(meta, 'labels'), path.child('labels')));
  errs.push(...validateAnnotations(strMap(meta, 'annotations'), path.child('annotations')));
  return errs;
}

/** Upstream ValidateStatefulSetSpec. */
export function validateStatefulSetSpec(spec: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const pmp = str(spec, 'podManagementPolicy') ?? '';
  if (pmp === '') errs.push(fieldErrors.required(path.child('podManagementPolicy'), ''));
  else if (pmp !== 'OrderedReady' && pmp !== 'Parallel') {
    errs.push(
      fieldErrors.invalid(path.child('podManagementPolicy'), pmp, "must be 'OrderedReady' or 'Parallel'"),
    );
  }
  errs.push(...validateUpdateStrategy(obj(spec, 'updateStrategy'), path.child('updateStrategy')));
  errs.push(
    ...validateRetentionPolicy(
      obj(spec, 'persistentVolumeClaimRetentionPolicy'),
      path.child('persistentVolumeClaimRetentionPolicy'),
    ),
  );
  errs.push(...nonNegative(num(spec, 'replicas') ?? 0, path.child('replicas')));
  errs.push(...nonNegative(num(spec, 'minReadySeconds') ?? 0, path.child('minReadySeconds')));
  const ordinals = obj(spec, 'ordinals');
  if (ordinals !== undefined)
    errs.push(...nonNegative(num(ordinals, 'start') ?? 0, path.child('ordinals.start')));
  errs.push(...validateRequiredSelector(spec, path, 'statefulset'));
  const sel = obj(spec, 'selector');
  const selector = asSelector(sel);
  const template = obj(spec, 'template') ?? {};
  if (!selector.ok) errs.push(invalidGo(path.child('selector'), goLabelSelector(sel), ''));
  else errs.push(...validateTemplate(template, selector, path.child('template')));
  errs.push(...validateWorkloadPodSpec(obj(template, 'spec'), path.child('template'), 'StatefulSet'));
  return errs;
}

const specPath = FieldPath.root('spec');

export function validateStatefulSet(sts: KubeObject): FieldError[] {
  return validateStatefulSetSpec(obj(sts, 'spec') ?? {}, specPath);
}

/** Spec fields an update may change; everything else in the spec is frozen. */
const mutableSpecFields = [
  'replicas',
  'template',
  'updateStrategy',
  'minReadySeconds',
  'ordinals',
  'persistentVolumeClaimRetentionPolicy',
];

export const statefulSetForbiddenUpdateMsg =
  "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', " +
  "'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

/** The strategy's update validation: ValidateStatefulSet, then ValidateStatefulSetUpdate. */
export function validateStatefulSetUpdate(sts: KubeObject, old: KubeObject): FieldError[] {
  const spec = obj(sts, 'spec') ?? {};
  const oldSpec = obj(old, 'spec') ?? {};
  const errs = validateStatefulSetSpec(spec, specPath);
  errs.push(...validateStatefulSetSpec(spec, specPath));
  const keys = new Set([...Object.keys(spec), ...Object.keys(oldSpec)]);
  for (const k of keys) {
    if (mutableSpecFields.includes(k)) continue;
    if (!semanticEqual(spec[k], oldSpec[k])) {
      errs.push(fieldErrors.forbidden(specPath, statefulSetForbiddenUpdateMsg));
      break;
    }
  }
  return errs;
}
