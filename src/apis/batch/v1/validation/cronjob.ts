/** CronJob validation as pkg/apis/batch/validation (release-1.27), on batch/v1 JSON. */
import { FieldPath, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import type { KubeObject } from '../../../../machinery/object.js';
import type { StrategyContext } from '../../../../machinery/validation-context.js';
import type { JsonObject } from '../../../../util/json.js';
import { bool, num, obj, str } from '../../../core/v1/access.js';
import { nonNegative } from '../../../apps/v1/validation/common.js';
import { goLabelSelector, invalidGo } from '../../../apps/v1/validation/gorender.js';
import { cronScheduleError } from '../cron/schedule.js';
import { loadLocationError } from '../cron/timezone.js';
import { validateJobSpecFields } from './jobspec.js';

/** Name characters IANA allows per path component (plus legacy digits and `+`). */
const validTimeZoneComponent = /^[A-Za-z.\-_0-9+]{1,14}$/;

/** Upstream validateTimeZone (only when set, and on update only when changed). */
export function validateTimeZone(timeZone: string | undefined, path: FieldPath): FieldError[] {
  if (timeZone === undefined) return [];
  if (timeZone === '')
    return [fieldErrors.invalid(path, timeZone, 'timeZone must be nil or non-empty string')];
  for (const part of timeZone.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !validTimeZoneComponent.test(part)) {
      return [fieldErrors.invalid(path, timeZone, `unknown time zone ${timeZone}`)];
    }
  }
  const errs: FieldError[] = [];
  if (timeZone.toLowerCase() === 'local') {
    errs.push(
      fieldErrors.invalid(
        path,
        timeZone,
        'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
      ),
    );
  }
  const loadErr = loadLocationError(timeZone);
  if (loadErr !== undefined) errs.push(fieldErrors.invalid(path, timeZone, loadErr));
  return errs;
}

function validateSchedule(schedule: string, timeZone: string | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const parseErr = cronScheduleError(schedule);
  if (parseErr !== undefined) errs.push(fieldErrors.invalid(path, schedule, parseErr));
  if (schedule.includes('TZ') && timeZone !== undefined) {
    errs.push(
      fieldErrors.invalid(path, schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'),
    );
  }
  return errs;
}

const concurrencyPolicies = ['Allow', 'Forbid', 'Replace'];

/** Upstream ValidateJobTemplateSpec: the job spec, with a selector the controller generates. */
function validateJobTemplate(
  template: JsonObject | undefined,
  path: FieldPath,
  ctx: StrategyContext,
): FieldError[] {
  const spec = obj(template, 'spec') ?? {};
  const specPath = path.child('spec');
  const errs = validateJobSpecFields(spec, specPath, ctx);
  const sel = obj(spec, 'selector');
  if (sel !== undefined) {
    errs.push(
      invalidGo(specPath.child('selector'), goLabelSelector(sel), '`selector` will be auto-generated'),
    );
  }
  if (bool(spec, 'manualSelector') === true) {
    errs.push(fieldErrors.notSupported(specPath.child('manualSelector'), true, ['nil', 'false']));
  }
  return errs;
}

function validateCronJobSpec(
  spec: JsonObject,
  oldSpec: JsonObject | undefined,
  path: FieldPath,
  ctx: StrategyContext,
): FieldError[] {
  const errs: FieldError[] = [];
  const schedule = str(spec, 'schedule') ?? '';
  const timeZone = str(spec, 'timeZone');
  if (schedule === '') errs.push(fieldErrors.required(path.child('schedule'), ''));
  else errs.push(...validateSchedule(schedule, timeZone, path.child('schedule')));
  errs.push(...nonNegative(num(spec, 'startingDeadlineSeconds'), path.child('startingDeadlineSeconds')));
  if (oldSpec === undefined || str(oldSpec, 'timeZone') !== timeZone) {
    errs.push(...validateTimeZone(timeZone, path.child('timeZone')));
  }
  const policy = str(spec, 'concurrencyPolicy') ?? '';
  if (policy === '') errs.push(fieldErrors.required(path.child('concurrencyPolicy'), ''));
  else if (!concurrencyPolicies.includes(policy)) {
    errs.push(fieldErrors.notSupported(path.child('concurrencyPolicy'), policy, concurrencyPolicies));
  }
  errs.push(...validateJobTemplate(obj(spec, 'jobTemplate'), path.child('jobTemplate'), ctx));
  errs.push(
    ...nonNegative(num(spec, 'successfulJobsHistoryLimit'), path.child('successfulJobsHistoryLimit')),
  );
  errs.push(...nonNegative(num(spec, 'failedJobsHistoryLimit'), path.child('failedJobsHistoryLimit')));
  return errs;
}

const specPath = FieldPath.root('spec');

/** Upstream ValidateCronJobCreate (object metadata is validated by the store). */
export function validateCronJobCreate(ctx: StrategyContext, cj: KubeObject): FieldError[] {
  const errs = validateCronJobSpec(obj(cj, 'spec') ?? {}, undefined, specPath, ctx);
  const name = cj.metadata.name ?? '';
  // Job names get an 11-character suffix and must stay within 63 characters.
  if (name.length > 52) {
    errs.push(
      fieldErrors.invalid(FieldPath.root('metadata', 'name'), name, 'must be no more than 52 characters'),
    );
  }
  return errs;
}

/** Upstream ValidateCronJobUpdate (the name length limit is not applied on update). */
export function validateCronJobUpdate(ctx: StrategyContext, cj: KubeObject, old: KubeObject): FieldError[] {
  return validateCronJobSpec(obj(cj, 'spec') ?? {}, obj(old, 'spec') ?? {}, specPath, ctx);
}
