/**
 * The CEL limits of x-kubernetes-validations, with upstream's numbers: apiserver v0.27.16
 * pkg/apis/cel/config.go (PerCallLimit, RuntimeCELCostBudget, MaxEvaluatedMessageExpressionSizeBytes)
 * and apiextensions-apiserver v0.27 pkg/apis/apiextensions/validation/validation.go
 * (StaticEstimatedCostLimit, StaticEstimatedCRDCostLimit).
 */
export { PER_CALL_LIMIT, RUNTIME_CEL_COST_BUDGET } from '../compile.js';

/** The largest static (estimated) cost one expression may have, times its cardinality. */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000n;
/** The largest total estimated cost of all rules of one CRD version's schema. */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000n;
/** The longest message a messageExpression may produce (bytes, after trimming). */
export const MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES = 5 * 1024;
