/** ReplicaSet validation as pkg/apis/apps/validation (release-1.27), on apps/v1 JSON. */
import { FieldPath } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import type { KubeObject } from '../../../../machinery/object.js';
import type { StrategyContext } from '../../../../machinery/validation-context.js';
import type { JsonObject } from '../../../../util/json.js';
import { num, obj } from '../../../core/v1/access.js';
import type { SelectorCheck } from '../../../../machinery/labels/metav1.js';
import {
  immutableSelector,
  nonNegative,
  templateLabels,
  templateLabelsMismatch,
  validateRequiredSelector,
  validateWorkloadPodSpec,
} from './common.js';
import { asSelector } from '../../../../machinery/labels/metav1.js';
import { goLabelSelector, invalidGo } from './gorender.js';
import { validateTemplate } from './podtemplate.js';

/**
 * Upstream ValidatePodTemplateSpecForReplicaSet (also used for Deployments): labels match the
 * selector, the pod template is valid, restartPolicy Always, no activeDeadlineSeconds.
 */
export function validateReplicaSetTemplate(
  template: JsonObject | undefined,
  selector: SelectorCheck & { ok: true },
  path: FieldPath,
  ctx: StrategyContext,
  kindWord: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const t = template ?? {};
  if (!selector.empty && !selector.matches(templateLabels(t))) errs.push(templateLabelsMismatch(t, path));
  errs.push(...validateTemplate(t, path, ctx));
  errs.push(...validateWorkloadPodSpec(obj(t, 'spec'), path, kindWord));
  return errs;
}

/** Upstream ValidateReplicaSetSpec. */
export function validateReplicaSetSpec(
  spec: JsonObject,
  path: FieldPath,
  ctx: StrategyContext,
): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...nonNegative(num(spec, 'replicas') ?? 0, path.child('replicas')));
  errs.push(...nonNegative(num(spec, 'minReadySeconds') ?? 0, path.child('minReadySeconds')));
  errs.push(...validateSelectorAndTemplate(spec, path, ctx));
  return errs;
}

/**
 * The selector and pod template part both ReplicaSet and Deployment specs validate (upstream
 * repeats it in ValidateReplicaSetSpec and ValidateDeploymentSpec, with the Deployment wording).
 */
export function validateSelectorAndTemplate(
  spec: JsonObject,
  path: FieldPath,
  ctx: StrategyContext,
): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateRequiredSelector(spec, path, 'deployment'));
  const selector = asSelector(obj(spec, 'selector'));
  if (!selector.ok) {
    errs.push(
      invalidGo(path.child('selector'), goLabelSelector(obj(spec, 'selector')), 'invalid label selector'),
    );
  } else {
    errs.push(
      ...validateReplicaSetTemplate(
        obj(spec, 'template'),
        selector,
        path.child('template'),
        ctx,
        'ReplicaSet',
      ),
    );
  }
  return errs;
}

const specPath = FieldPath.root('spec');

export function validateReplicaSet(ctx: StrategyContext, rs: KubeObject): FieldError[] {
  return validateReplicaSetSpec(obj(rs, 'spec') ?? {}, specPath, ctx);
}

export function validateReplicaSetUpdate(
  ctx: StrategyContext,
  rs: KubeObject,
  old: KubeObject,
): FieldError[] {
  const errs = validateReplicaSetSpec(obj(rs, 'spec') ?? {}, specPath, ctx);
  errs.push(
    ...immutableSelector(
      obj(rs, 'spec')?.['selector'],
      obj(old, 'spec')?.['selector'],
      specPath.child('selector'),
    ),
  );
  return errs;
}
