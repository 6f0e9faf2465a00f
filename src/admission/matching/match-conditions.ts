/**
 * matchConditions of webhooks and policies (AM-08; apiserver v0.27
 * pkg/admission/plugin/webhook/matchconditions): CEL conditions over the request, all of which
 * must hold for the webhook to be called or the policy to be evaluated. The first false one skips
 * it; errors (with no false condition) go to the failure policy: Fail reports them (aggregated),
 * Ignore skips. The conditions of one request share a budget of 2.5 M cost units. The CEL engine
 * is loaded on first use (cel/admission/load.ts): callers with conditions await
 * `loadCelAdmission()` first.
 */
import type {
  AdmissionActivation,
  CompiledExpression,
  OptionalVariables,
} from '../../cel/admission/index.js';
import { celAdmission } from '../../cel/admission/load.js';
import type { JsonObject } from '../../util/json.js';
import { aggregateMessage } from '../plain-error.js';

/** celconfig.RuntimeCELCostBudgetMatchConditions. */
export const MATCH_CONDITIONS_COST_BUDGET = 2_500_000;

export interface CompiledMatchCondition {
  readonly name: string;
  readonly expression: CompiledExpression;
}

export function compileMatchConditions(
  conditions: readonly JsonObject[],
  vars: OptionalVariables,
): readonly CompiledMatchCondition[] {
  if (conditions.length === 0) return [];
  const { compileAdmissionExpression } = celAdmission();
  return conditions.map((c) => {
    const expression = typeof c['expression'] === 'string' ? c['expression'] : '';
    return {
      name: typeof c['name'] === 'string' ? c['name'] : '',
      expression: { expression, compiled: compileAdmissionExpression(expression, { ...vars, kind: 'bool' }) },
    };
  });
}

export type MatchConditionsOutcome =
  | { readonly matches: true }
  | { readonly matches: false; readonly failedCondition?: string }
  | { readonly matches: false; readonly error: string };

export function evaluateMatchConditions(
  conditions: readonly CompiledMatchCondition[],
  activation: AdmissionActivation,
  failurePolicy: 'Fail' | 'Ignore',
  onEvalError?: () => void,
): MatchConditionsOutcome {
  if (conditions.length === 0) return { matches: true };
  const outcome = celAdmission().evaluateExpressions(
    conditions.map((c) => c.expression),
    activation,
    MATCH_CONDITIONS_COST_BUDGET,
  );
  if (!outcome.ok) {
    return failurePolicy === 'Fail' ? { matches: false, error: outcome.error.detail } : { matches: false };
  }
  const errors: string[] = [];
  for (const [i, r] of outcome.results.entries()) {
    if (r.kind === 'error') {
      errors.push(r.error.detail);
      onEvalError?.();
    } else if (r.kind === 'value' && r.value === false) {
      return { matches: false, failedCondition: conditions[i]!.name };
    }
  }
  if (errors.length > 0) {
    return failurePolicy === 'Fail'
      ? { matches: false, error: aggregateMessage(errors) }
      : { matches: false };
  }
  return { matches: true };
}
