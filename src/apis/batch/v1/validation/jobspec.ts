/** Job spec validation (upstream validateJobSpec / ValidateJobSpec, release-1.27), shared with CronJob templates. */
import { fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError, FieldPath } from '../../../../machinery/field/errors.js';
import { validateLabelSelector } from '../../../../machinery/labels/selector.js';
import type { StrategyContext } from '../../../../machinery/validation-context.js';
import type { JsonObject } from '../../../../util/json.js';
import { num, obj, str } from '../../../core/v1/access.js';
import { nonNegative, templateLabels, templateLabelsMismatch } from '../../../apps/v1/validation/common.js';
import { asSelector, toMetav1Selector } from '../../../../machinery/labels/metav1.js';
import { validateTemplate } from '../../../apps/v1/validation/podtemplate.js';
import { validatePodFailurePolicy } from './podfailurepolicy.js';

const maxParallelismForIndexedJob = 100000;

/** Upstream validateJobSpec: everything but the selector. */
export function validateJobSpecFields(spec: JsonObject, path: FieldPath, ctx: StrategyContext): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of [
    'parallelism',
    'completions',
    'activeDeadlineSeconds',
    'backoffLimit',
    'ttlSecondsAfterFinished',
  ]) {
    errs.push(...nonNegative(num(spec, f), path.child(f)));
  }
  const mode = str(spec, 'completionMode');
  if (mode !== undefined) {
    if (mode !== 'NonIndexed' && mode !== 'Indexed') {
      errs.push(fieldErrors.notSupported(path.child('completionMode'), mode, ['NonIndexed', 'Indexed']));
    }
    if (mode === 'Indexed') {
      if (num(spec, 'completions') === undefined) {
        errs.push(fieldErrors.required(path.child('completions'), 'when completion mode is Indexed'));
      }
      const parallelism = num(spec, 'parallelism');
      if (parallelism !== undefined && parallelism > maxParallelismForIndexedJob) {
        errs.push(
          fieldErrors.invalid(
            path.child('parallelism'),
            parallelism,
            `must be less than or equal to ${maxParallelismForIndexedJob} when completion mode is Indexed`,
          ),
        );
      }
    }
  }
  const hasPolicy = obj(spec, 'podFailurePolicy') !== undefined;
  if (hasPolicy) errs.push(...validatePodFailurePolicy(spec, path.child('podFailurePolicy')));
  const template = obj(spec, 'template') ?? {};
  errs.push(...validateTemplate(template, path.child('template'), ctx));
  const restartPolicy = str(obj(template, 'spec'), 'restartPolicy') ?? '';
  const rpPath = path.child('template', 'spec', 'restartPolicy');
  if (restartPolicy === 'Always' || restartPolicy === '') {
    errs.push(fieldErrors.required(rpPath, 'valid values: "OnFailure", "Never"'));
  } else if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') {
    errs.push(fieldErrors.notSupported(rpPath, restartPolicy, ['OnFailure', 'Never']));
  } else if (hasPolicy && restartPolicy !== 'Never') {
    errs.push(
      fieldErrors.invalid(
        rpPath,
        restartPolicy,
        'only "Never" is supported when podFailurePolicy is specified',
      ),
    );
  }
  return errs;
}

/** Upstream ValidateJobSpec: the fields, a required selector, and the selector matching the template. */
export function validateJobSpec(spec: JsonObject, path: FieldPath, ctx: StrategyContext): FieldError[] {
  const errs = validateJobSpecFields(spec, path, ctx);
  const sel = obj(spec, 'selector');
  if (sel === undefined) errs.push(fieldErrors.required(path.child('selector'), ''));
  else errs.push(...validateLabelSelector(toMetav1Selector(sel), path.child('selector')));
  // A nil selector converts to one matching nothing, which fails the match below as upstream does.
  const template = obj(spec, 'template');
  const selector = sel === undefined ? undefined : asSelector(sel);
  const matches =
    selector === undefined ? false : selector.ok ? selector.matches(templateLabels(template)) : true;
  if (!matches) errs.push(templateLabelsMismatch(template, path.child('template')));
  return errs;
}
