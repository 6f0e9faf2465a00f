/**
 * The one place workload validation reaches core/v1 pod template validation (upstream
 * ValidatePodTemplateSpec), so every kind calls it the same way.
 */
import type { FieldError, FieldPath } from '../../../../machinery/field/errors.js';
import type { StrategyContext } from '../../../../machinery/validation-context.js';
import type { JsonObject } from '../../../../util/json.js';
import { validatePodTemplateSpec } from '../../../core/v1/validation/pod.js';

export function validateTemplate(template: JsonObject, path: FieldPath, ctx: StrategyContext): FieldError[] {
  return validatePodTemplateSpec(template, path, ctx);
}
