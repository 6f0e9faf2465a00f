/** Deployment validation as pkg/apis/apps/validation (release-1.27), on apps/v1 JSON. */
import { FieldPath, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import type { KubeObject } from '../../../../machinery/object.js';
import type { StrategyContext } from '../../../../machinery/validation-context.js';
import type { JsonObject } from '../../../../util/json.js';
import { num, obj, str } from '../../../core/v1/access.js';
import {
  immutableSelector,
  intOrPercentValue,
  nonNegative,
  notMoreThan100Percent,
  validatePositiveIntOrPercent,
} from './common.js';
import { goIntOrString, goStrategy, invalidGo, notSupportedGo } from './gorender.js';
import { validateSelectorAndTemplate } from './replicaset.js';

function validateRollingUpdateDeployment(ru: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const maxUnavailable = ru['maxUnavailable'];
  const maxSurge = ru['maxSurge'];
  errs.push(...validatePositiveIntOrPercent(maxUnavailable, path.child('maxUnavailable')));
  errs.push(...validatePositiveIntOrPercent(maxSurge, path.child('maxSurge')));
  if (intOrPercentValue(maxUnavailable) === 0 && intOrPercentValue(maxSurge) === 0) {
    errs.push(
      invalidGo(
        path.child('maxUnavailable'),
        goIntOrString(maxUnavailable),
        'may not be 0 when `maxSurge` is 0',
      ),
    );
  }
  errs.push(...notMoreThan100Percent(maxUnavailable, path.child('maxUnavailable')));
  return errs;
}

function validateDeploymentStrategy(strategy: JsonObject | undefined, path: FieldPath): FieldError[] {
  const type = str(strategy, 'type') ?? '';
  const ru = obj(strategy, 'rollingUpdate');
  switch (type) {
    case 'Recreate':
      return ru === undefined
        ? []
        : [
            fieldErrors.forbidden(
              path.child('rollingUpdate'),
              "may not be specified when strategy `type` is 'Recreate'",
            ),
          ];
    case 'RollingUpdate':
      if (ru === undefined) {
        return [
          fieldErrors.required(path.child('rollingUpdate'), 'this should be defaulted and never be nil'),
        ];
      }
      return validateRollingUpdateDeployment(ru, path.child('rollingUpdate'));
    default:
      return [
        notSupportedGo(
          path,
          goStrategy('apps.DeploymentStrategy', 'apps.RollingUpdateDeployment', strategy),
          ['Recreate', 'RollingUpdate'],
        ),
      ];
  }
}

/** Upstream ValidateDeploymentSpec. */
export function validateDeploymentSpec(
  spec: JsonObject,
  path: FieldPath,
  ctx: StrategyContext,
): FieldError[] {
  const errs: FieldError[] = [];
  const replicas = num(spec, 'replicas') ?? 0;
  errs.push(...nonNegative(replicas, path.child('replicas')));
  errs.push(...validateSelectorAndTemplate(spec, path, ctx));
  errs.push(...validateDeploymentStrategy(obj(spec, 'strategy'), path.child('strategy')));
  const minReadySeconds = num(spec, 'minReadySeconds') ?? 0;
  errs.push(...nonNegative(minReadySeconds, path.child('minReadySeconds')));
  errs.push(...nonNegative(num(spec, 'revisionHistoryLimit'), path.child('revisionHistoryLimit')));
  const pds = num(spec, 'progressDeadlineSeconds');
  if (pds !== undefined) {
    errs.push(...nonNegative(pds, path.child('progressDeadlineSeconds')));
    if (pds <= minReadySeconds) {
      errs.push(
        fieldErrors.invalid(
          path.child('progressDeadlineSeconds'),
          pds,
          'must be greater than minReadySeconds',
        ),
      );
    }
  }
  return errs;
}

const specPath = FieldPath.root('spec');

export function validateDeployment(ctx: StrategyContext, d: KubeObject): FieldError[] {
  return validateDeploymentSpec(obj(d, 'spec') ?? {}, specPath, ctx);
}

/** Update: the spec again, plus the apps/v1 selector immutability of the strategy. */
export function validateDeploymentUpdate(ctx: StrategyContext, d: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateDeploymentSpec(obj(d, 'spec') ?? {}, specPath, ctx);
  errs.push(
    ...immutableSelector(
      obj(d, 'spec')?.['selector'],
      obj(old, 'spec')?.['selector'],
      specPath.child('selector'),
    ),
  );
  return errs;
}
