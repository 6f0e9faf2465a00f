/**
 * The CEL compiler behind admissionregistration validation: policies' and webhooks' expressions
 * are compiled on write, as upstream does, so an expression that does not parse, does not
 * type-check, or evaluates to the wrong type is refused with the compiler's message. The engine is
 * loaded on first use: the strategies' `loadValidation` (celAdmissionPending) runs before.
 */
import { celAdmission } from '../../../cel/admission/load.js';
import type { ExpressionCompiler } from '../../../apis/admissionregistration/validation/common.js';

export const compileExpression: ExpressionCompiler = (expression, requirements) => {
  const result = celAdmission().compileAdmissionExpression(expression, requirements);
  return result.ok ? undefined : result.error;
};
