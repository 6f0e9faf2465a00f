/** DaemonSet validation as pkg/apis/apps/validation (release-1.27), on apps/v1 JSON. */
import { FieldPath, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import { validateLabelSelector } from '../../../../machinery/labels/selector.js';
import type { KubeObject } from '../../../../machinery/object.js';
import type { StrategyContext } from '../../../../machinery/validation-context.js';
import type { JsonObject } from '../../../../util/json.js';
import { num, obj, str } from '../../../core/v1/access.js';
import {
  immutableSelector,
  intOrPercentValue,
  isEmptySelectorObject,
  nonNegative,
  notMoreThan100Percent,
  templateLabels,
  templateLabelsMismatch,
  validatePositiveIntOrPercent,
  validateWorkloadPodSpec,
} from './common.js';
import { asSelector, toMetav1Selector } from '../../../../machinery/labels/metav1.js';
import { goIntOrString, goLabelSelector, goStrategy, invalidGo, notSupportedGo } from './gorender.js';
import { validateTemplate } from './podtemplate.js';
import { semanticEqual } from './semantic.js';

/** Annotation carrying the internal spec.templateGeneration on apps/v1 DaemonSets. */
export const templateGenerationAnnotation = 'deprecated.daemonset.template.generation';

function validateRollingUpdate(ru: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const mu = ru['maxUnavailable'];
  const ms = ru['maxSurge'];
  errs.push(...validatePositiveIntOrPercent(mu, path.child('maxUnavailable')));
  errs.push(...validatePositiveIntOrPercent(ms, path.child('maxSurge')));
  errs.push(...notMoreThan100Percent(mu, path.child('maxUnavailable')));
  errs.push(...notMoreThan100Percent(ms, path.child('maxSurge')));
  const hasUnavailable = intOrPercentValue(mu) !== 0;
  const hasSurge = intOrPercentValue(ms) !== 0;
  if (hasUnavailable && hasSurge) {
    errs.push(
      invalidGo(path.child('maxSurge'), goIntOrString(ms), 'may not be set when maxUnavailable is non-zero'),
    );
  } else if (!hasUnavailable && !hasSurge) {
    errs.push(fieldErrors.required(path.child('maxUnavailable'), 'cannot be 0 when maxSurge is 0'));
  }
  return errs;
}

function validateUpdateStrategy(s: JsonObject | undefined, path: FieldPath): FieldError[] {
  switch (str(s, 'type') ?? '') {
    case 'OnDelete':
      return [];
    case 'RollingUpdate': {
      const ru = obj(s, 'rollingUpdate');
      if (ru === undefined) return [fieldErrors.required(path.child('rollingUpdate'), '')];
      return validateRollingUpdate(ru, path.child('rollingUpdate'));
    }
    default:
      return [
        notSupportedGo(path, goStrategy('apps.DaemonSetUpdateStrategy', 'apps.RollingUpdateDaemonSet', s), [
          'RollingUpdate',
          'OnDelete',
        ]),
      ];
  }
}

/** Upstream ValidateDaemonSetSpec (templateGeneration lives in an annotation on apps/v1). */
export function validateDaemonSetSpec(spec: JsonObject, path: FieldPath, ctx: StrategyContext): FieldError[] {
  const errs: FieldError[] = [];
  const sel = obj(spec, 'selector');
  errs.push(...validateLabelSelector(toMetav1Selector(sel), path.child('selector')));
  const template = obj(spec, 'template') ?? {};
  const selector = asSelector(sel);
  if (selector.ok && !selector.matches(templateLabels(template))) {
    errs.push(templateLabelsMismatch(template, path.child('template')));
  }
  if (isEmptySelectorObject(sel)) {
    errs.push(
      invalidGo(path.child('selector'), goLabelSelector(sel), 'empty selector is invalid for daemonset'),
    );
  }
  errs.push(...validateTemplate(template, path.child('template'), ctx));
  errs.push(...validateWorkloadPodSpec(obj(template, 'spec'), path.child('template'), 'DaemonSet'));
  errs.push(...nonNegative(num(spec, 'minReadySeconds') ?? 0, path.child('minReadySeconds')));
  errs.push(...validateUpdateStrategy(obj(spec, 'updateStrategy'), path.child('updateStrategy')));
  errs.push(...nonNegative(num(spec, 'revisionHistoryLimit'), path.child('revisionHistoryLimit')));
  return errs;
}

/** The template generation an apps/v1 DaemonSet carries (0 when the annotation is absent). */
export function templateGeneration(ds: KubeObject): number {
  const v = ds.metadata.annotations?.[templateGenerationAnnotation];
  if (v === undefined || !/^[+-]?\d+$/.test(v)) return 0;
  return Number.parseInt(v, 10);
}

const specPath = FieldPath.root('spec');

export function validateDaemonSet(ctx: StrategyContext, ds: KubeObject): FieldError[] {
  const errs = validateDaemonSetSpec(obj(ds, 'spec') ?? {}, specPath, ctx);
  errs.push(...nonNegative(templateGeneration(ds), specPath.child('templateGeneration')));
  return errs;
}

/** The strategy's update validation: ValidateDaemonSet, ValidateDaemonSetUpdate, immutable selector. */
export function validateDaemonSetUpdate(ctx: StrategyContext, ds: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateDaemonSet(ctx, ds);
  const newGen = templateGeneration(ds);
  const oldGen = templateGeneration(old);
  const p = specPath.child('templateGeneration');
  if (newGen < oldGen) errs.push(fieldErrors.invalid(p, newGen, 'must not be decremented'));
  const templateUpdated = !semanticEqual(obj(ds, 'spec')?.['template'], obj(old, 'spec')?.['template']);
  if (newGen === oldGen && templateUpdated) {
    errs.push(fieldErrors.invalid(p, newGen, 'must be incremented upon template update'));
  } else if (newGen > oldGen && !templateUpdated) {
    errs.push(fieldErrors.invalid(p, newGen, 'must not be incremented without template update'));
  }
  errs.push(...validateDaemonSet(ctx, ds));
  errs.push(
    ...immutableSelector(
      obj(ds, 'spec')?.['selector'],
      obj(old, 'spec')?.['selector'],
      specPath.child('selector'),
    ),
  );
  return errs;
}
