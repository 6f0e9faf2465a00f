/**
 * ReplicationController and PodTemplate validation (upstream ValidateReplicationController*,
 * ValidatePodTemplate*, release-1.27), on core/v1 JSON. ObjectMeta is checked by the generic store.
 */
import { FieldPath, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import { labelSelectorFromSet } from '../../../../machinery/labels/selector.js';
import type { StrategyContext } from '../../../../machinery/validation-context.js';
import type { JsonObject } from '../../../../util/json.js';
import { templateLabels, templateLabelsMismatch } from '../../../apps/v1/validation/common.js';
import { bool, indexedObjs, num, obj, str, strMap } from '../access.js';
import { validateNonnegative } from './common.js';
import { validatePodTemplateSpec } from './pod.js';

/** Upstream ValidateReadOnlyPersistentDisks: GCE PDs of replicated pods must be read-only. */
function validateReadOnlyPersistentDisks(podSpec: JsonObject | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [i, v] of indexedObjs(podSpec, 'volumes')) {
    const pd = obj(v, 'gcePersistentDisk');
    if (pd !== undefined && bool(pd, 'readOnly') !== true) {
      errs.push(
        fieldErrors.invalid(
          path.index(i).child('gcePersistentDisk', 'readOnly'),
          false,
          'must be true for replicated pods > 1; GCE PD can only be mounted on multiple machines if it is read-only',
        ),
      );
    }
  }
  return errs;
}

/** Upstream ValidatePodTemplateSpecForRC. */
function validatePodTemplateSpecForRC(
  template: JsonObject | undefined,
  selectorMap: Record<string, string> | undefined,
  replicas: number,
  path: FieldPath,
  ctx: StrategyContext,
): FieldError[] {
  if (template === undefined) return [fieldErrors.required(path, '')];
  const errs: FieldError[] = [];
  const selector = labelSelectorFromSet(selectorMap);
  if (!selector.empty() && !selector.matches(templateLabels(template) ?? {})) {
    errs.push(templateLabelsMismatch(template, path));
  }
  errs.push(...validatePodTemplateSpec(template, path, ctx));
  const podSpec = obj(template, 'spec');
  if (replicas > 1) errs.push(...validateReadOnlyPersistentDisks(podSpec, path.child('spec', 'volumes')));
  const restartPolicy = str(podSpec, 'restartPolicy') ?? '';
  if (restartPolicy !== 'Always') {
    errs.push(fieldErrors.notSupported(path.child('spec', 'restartPolicy'), restartPolicy, ['Always']));
  }
  if (num(podSpec, 'activeDeadlineSeconds') !== undefined) {
    errs.push(
      fieldErrors.forbidden(
        path.child('spec', 'activeDeadlineSeconds'),
        'activeDeadlineSeconds in ReplicationController is not Supported',
      ),
    );
  }
  return errs;
}

/** Upstream ValidateReplicationControllerSpec. */
export function validateReplicationControllerSpec(
  spec: JsonObject,
  path: FieldPath,
  ctx: StrategyContext,
): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateNonnegative(num(spec, 'minReadySeconds') ?? 0, path.child('minReadySeconds')));
  const selector = strMap(spec, 'selector');
  if (Object.keys(selector ?? {}).length === 0) errs.push(fieldErrors.required(path.child('selector'), ''));
  const replicas = num(spec, 'replicas') ?? 0;
  errs.push(...validateNonnegative(replicas, path.child('replicas')));
  errs.push(
    ...validatePodTemplateSpecForRC(obj(spec, 'template'), selector, replicas, path.child('template'), ctx),
  );
  return errs;
}

const specPath = FieldPath.root('spec');

export function validateReplicationController(ctx: StrategyContext, rc: JsonObject): FieldError[] {
  return validateReplicationControllerSpec(obj(rc, 'spec') ?? {}, specPath, ctx);
}

/**
 * The strategy's ValidateUpdate: ValidateReplicationController and ValidateReplicationControllerUpdate
 * both validate the spec, so each spec error is reported twice in the Status causes (the message
 * lists it once), exactly as upstream.
 */
export function validateReplicationControllerUpdate(ctx: StrategyContext, rc: JsonObject): FieldError[] {
  const once = validateReplicationController(ctx, rc);
  return [...once, ...once];
}

/** Upstream ValidatePodTemplate / ValidatePodTemplateUpdate (the template part). */
export function validatePodTemplate(ctx: StrategyContext, pt: JsonObject): FieldError[] {
  return validatePodTemplateSpec(obj(pt, 'template') ?? {}, FieldPath.root('template'), ctx);
}
