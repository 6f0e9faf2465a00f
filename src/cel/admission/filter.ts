/**
 * Evaluating a list of compiled admission expressions for one request (apiserver v0.27
 * pkg/admission/plugin/cel/filter.go ForInput): each expression runs with the per-call limit of
 * its program; their actual costs draw on one budget for the call, and exhausting it stops the
 * whole list with "validation failed due to running out of cost budget, no further validation
 * rules will be run". Compilation failures surface here as "compilation error: ...", evaluation
 * failures as "expression '<e>' resulted in error: <why>". Never throws.
 */
import type { CelValue } from '@bufbuild/cel';
import type { CelCompileFailure } from '../compile.js';
import type { AdmissionActivation } from './activation.js';
import type { AdmissionCompileResult } from './compile.js';

/** One expression of a list, compiled; undefined stands for a placeholder (no expression there). */
export interface CompiledExpression {
  readonly expression: string;
  readonly compiled: AdmissionCompileResult;
}

export type EvaluationResult =
  | { readonly kind: 'none' }
  | { readonly kind: 'value'; readonly value: CelValue; readonly elapsedMs: number }
  | { readonly kind: 'error'; readonly error: CelCompileFailure; readonly elapsedMs: number };

export type FilterOutcome =
  | { readonly ok: true; readonly results: readonly EvaluationResult[]; readonly remainingBudget: number }
  | { readonly ok: false; readonly error: CelCompileFailure };

export const OUT_OF_BUDGET_MESSAGE =
  'validation failed due to running out of cost budget, no further validation rules will be run';

export function evaluateExpressions(
  expressions: readonly (CompiledExpression | undefined)[],
  activation: AdmissionActivation,
  budget: number,
  options: { readonly withAuthorizer: boolean } = { withAuthorizer: true },
): FilterOutcome {
  const results: EvaluationResult[] = [];
  let remaining = budget;
  for (const e of expressions) {
    if (e === undefined) {
      results.push({ kind: 'none' });
      continue;
    }
    if (!e.compiled.ok) {
      results.push({
        kind: 'error',
        error: { type: 'Invalid', detail: `compilation error: ${e.compiled.error.detail}` },
        elapsedMs: 0,
      });
      continue;
    }
    const started = performance.now();
    const authorizer = options.withAuthorizer ? activation.authorizer : undefined;
    const outcome = e.compiled.program.eval(
      activation.bindings,
      authorizer === undefined ? {} : { authorizer },
    );
    const elapsedMs = performance.now() - started;
    if (outcome.cost > remaining)
      return { ok: false, error: { type: 'Invalid', detail: OUT_OF_BUDGET_MESSAGE } };
    remaining -= outcome.cost;
    if ('error' in outcome) {
      results.push({
        kind: 'error',
        error: {
          type: 'Invalid',
          detail: `expression '${e.expression}' resulted in error: ${outcome.error.message}`,
        },
        elapsedMs,
      });
    } else {
      results.push({ kind: 'value', value: outcome.value, elapsedMs });
    }
  }
  return { ok: true, results, remainingBudget: remaining };
}
