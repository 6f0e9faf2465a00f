/**
 * Pod validation entry points: pod create/update and the PodSpec / PodTemplateSpec validators that
 * workload kinds (apps, batch) reuse.
 */
import { FieldPath, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import { validateAnnotations, validateLabels } from '../../../../machinery/validation/objectmeta.js';
import type { StrategyContext } from '../../../../machinery/validation-context.js';
import type { JsonObject } from '../../../../util/json.js';
import { indexedObjs, obj, objArr, str, strMap } from '../access.js';
import { validatePodSpec } from './podspec.js';

export { validatePodSpec } from './podspec.js';

/** `template` is a PodTemplateSpec; `path` points at it (e.g. `spec.template`). */
export function validatePodTemplateSpec(
  template: JsonObject,
  path: FieldPath,
  ctx: StrategyContext,
): FieldError[] {
  const meta = obj(template, 'metadata');
  const errs = [
    ...validateLabels(strMap(meta, 'labels'), path.child('labels')),
    ...validateAnnotations(strMap(meta, 'annotations'), path.child('annotations')),
    ...validatePodSpec(obj(template, 'spec') ?? {}, path.child('spec'), ctx),
  ];
  if (objArr(obj(template, 'spec'), 'ephemeralContainers').length > 0) {
    errs.push(
      fieldErrors.forbidden(
        path.child('spec', 'ephemeralContainers'),
        'ephemeral containers not allowed in pod template',
      ),
    );
  }
  return errs;
}

/** Checks only pods get (not templates): image whitespace. */
function validateContainersOnlyForPod(spec: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['containers', 'initContainers']) {
    for (const [i, c] of indexedObjs(spec, key)) {
      const image = str(c, 'image') ?? '';
      if (image.trim().length !== image.length) {
        errs.push(
          fieldErrors.invalid(
            path.child(key).index(i).child('image'),
            image,
            'must not have leading or trailing whitespace',
          ),
        );
      }
    }
  }
  return errs;
}

/** Spec checks shared by pod create and update (upstream validatePodMetadataAndSpec, spec part). */
export function validatePodSpecOfPod(pod: JsonObject, ctx: StrategyContext): FieldError[] {
  const spec = obj(pod, 'spec') ?? {};
  const path = FieldPath.root('spec');
  const name = str(obj(pod, 'metadata'), 'name');
  return [...validatePodSpec(spec, path, ctx, name), ...validateContainersOnlyForPod(spec, path)];
}

/** Upstream ValidatePodCreate (ObjectMeta is validated by the generic store). */
export function validatePodCreate(pod: JsonObject, ctx: StrategyContext): FieldError[] {
  const spec = obj(pod, 'spec') ?? {};
  const path = FieldPath.root('spec');
  const errs = validatePodSpecOfPod(pod, ctx);
  if (objArr(spec, 'ephemeralContainers').length > 0) {
    errs.push(fieldErrors.forbidden(path.child('ephemeralContainers'), 'cannot be set on create'));
  }
  if ((str(spec, 'nodeName') ?? '') !== '' && objArr(spec, 'schedulingGates').length > 0) {
    errs.push(
      fieldErrors.forbidden(
        path.child('nodeName'),
        'cannot be set until all schedulingGates have been cleared',
      ),
    );
  }
  return errs;
}
