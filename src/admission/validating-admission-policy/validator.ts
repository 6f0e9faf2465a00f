/**
 * One policy evaluated for one binding and request (apiserver v0.27 validatingadmissionpolicy
 * validator.go): match conditions first (AM-08), then the validations within one runtime cost
 * budget (AM-03), their messages from messageExpression when it yields a usable one-line string
 * (AM-05), else `message`, else "failed expression: <expression>"; then the audit annotations
 * (AM-04). Evaluation errors and exhausted budgets become decisions per the failure policy.
 */
import type { CelValue } from '@bufbuild/cel';
import {
  evaluateExpressions,
  type AdmissionActivation,
  type EvaluationResult,
} from '../../cel/admission/index.js';
import { RUNTIME_CEL_COST_BUDGET } from '../../cel/budget.js';
import { evaluateMatchConditions } from '../matching/match-conditions.js';
import type { CompiledPolicy, FailurePolicy } from './compiled-policy.js';

/** celconfig.MaxEvaluatedMessageExpressionSizeBytes. */
const MAX_MESSAGE_BYTES = 5 * 1024;

export interface PolicyDecision {
  readonly action: 'admit' | 'deny';
  /** Set when the decision comes from an error (evaluation, budget, match conditions). */
  readonly evalError: boolean;
  readonly message: string;
  /** Status reason of a denial ('' means Invalid). */
  readonly reason: string;
  readonly elapsedMs: number;
}

export type AuditAnnotationResult =
  | { readonly action: 'publish'; readonly key: string; readonly value: string }
  | { readonly action: 'exclude' }
  | { readonly action: 'error'; readonly key: string; readonly error: string; readonly elapsedMs: number };

export interface ValidateResult {
  readonly decisions: readonly PolicyDecision[];
  readonly auditAnnotations: readonly AuditAnnotationResult[];
}

function errorAction(f: FailurePolicy): PolicyDecision['action'] {
  return f === 'Ignore' ? 'admit' : 'deny';
}

function errorDecision(f: FailurePolicy, message: string, elapsedMs = 0): PolicyDecision {
  return { action: errorAction(f), evalError: true, message, reason: '', elapsedMs };
}

/** A messageExpression result usable as a message: a trimmed, bounded, one-line string. */
function usableMessage(r: EvaluationResult | undefined): string {
  if (r?.kind !== 'value' || typeof r.value !== 'string') return '';
  const message = r.value.trim();
  if (Buffer.byteLength(message, 'utf8') > MAX_MESSAGE_BYTES) return '';
  if (message.includes('\n')) return '';
  return message;
}

/** cel-go's type name of an audit annotation value of the wrong type. */
function celTypeName(v: CelValue): string {
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'double';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'list';
  if (v instanceof Uint8Array) return 'bytes';
  return 'map';
}

export interface ValidateInput {
  readonly policy: CompiledPolicy;
  readonly activation: AdmissionActivation;
  /** Test seam: the runtime budget (default RuntimeCELCostBudget). */
  readonly budget?: number;
}

export function validatePolicy(input: ValidateInput): ValidateResult {
  const { policy, activation } = input;
  const f = policy.failurePolicy;
  const budget = input.budget ?? RUNTIME_CEL_COST_BUDGET;
  const match = evaluateMatchConditions(policy.matchConditions, activation, f);
  if ('error' in match) return { decisions: [errorDecision(f, match.error)], auditAnnotations: [] };
  if (!match.matches) return { decisions: [], auditAnnotations: [] };

  const outcome = evaluateExpressions(
    policy.validations.map((v) => v.expression),
    activation,
    budget,
  );
  if (!outcome.ok) return { decisions: [errorDecision(f, outcome.error.detail)], auditAnnotations: [] };
  const messages = evaluateExpressions(
    policy.validations.map((v) => v.messageExpression),
    activation,
    outcome.remainingBudget,
    { withAuthorizer: false },
  );
  // The only failure of a whole list is the exhausted budget: every decision becomes an error.
  const messageBudgetError = messages.ok ? undefined : messages.error;
  const decisions = outcome.results.map((r, i): PolicyDecision => {
    const v = policy.validations[i]!;
    const elapsedMs = r.kind === 'none' ? 0 : r.elapsedMs;
    if (r.kind === 'error') return errorDecision(f, r.error.detail, elapsedMs);
    if (messageBudgetError !== undefined) {
      return errorDecision(f, `failed messageExpression: ${messageBudgetError.detail}`, elapsedMs);
    }
    if (r.kind === 'value' && r.value === true) {
      return { action: 'admit', evalError: false, message: '', reason: '', elapsedMs };
    }
    let message = messages.ok ? usableMessage(messages.results[i]) : '';
    if (message === '' && v.message !== '') message = v.message.trim();
    if (message === '') message = `failed expression: ${v.expression.expression.trim()}`;
    return {
      action: 'deny',
      evalError: false,
      message,
      reason: v.reason === '' ? 'Invalid' : v.reason,
      elapsedMs,
    };
  });

  const annotations = evaluateExpressions(
    policy.auditAnnotations.map((a) => a.valueExpression),
    activation,
    budget,
    { withAuthorizer: false },
  );
  if (!annotations.ok)
    return { decisions: [errorDecision(f, annotations.error.detail)], auditAnnotations: [] };
  const auditAnnotations = annotations.results.map((r, i): AuditAnnotationResult => {
    const a = policy.auditAnnotations[i]!;
    if (r.kind === 'none') return { action: 'exclude' };
    if (r.kind === 'error') {
      return f === 'Ignore'
        ? { action: 'exclude' }
        : { action: 'error', key: a.key, error: r.error.detail, elapsedMs: r.elapsedMs };
    }
    if (r.value === null) return { action: 'exclude' };
    if (typeof r.value === 'string') {
      const value = r.value.trim();
      return value === '' ? { action: 'exclude' } : { action: 'publish', key: a.key, value };
    }
    return {
      action: 'error',
      key: a.key,
      error: `valueExpression '${a.valueExpression.expression}' resulted in unsupported return type: ${celTypeName(r.value)}. Return type must be either string or null.`,
      elapsedMs: r.elapsedMs,
    };
  });
  return { decisions, auditAnnotations };
}
