/**
 * Compiling the x-kubernetes-validations of one schema node, as apiextensions-apiserver v0.27
 * pkg/apiserver/schema/cel/compilation.go Compile/compileRule: every rule (and its
 * messageExpression) is compiled in one environment where `self` and `oldSelf` have the node's
 * type under a fresh placeholder name; a rule referencing `oldSelf` is a transition rule. Results
 * keep the rules' order; an empty (blank) rule has neither program nor error.
 */
import {
  compileCel,
  maxCardinality,
  PER_CALL_LIMIT,
  ruleVariables,
  type CelCompileFailure,
} from '../compile.js';
import type { CelProgram } from '../runtime/program.js';
import type { DeclType } from '../schema/decl-type.js';
import type { ValidationRule } from './rules.js';

export interface CompiledRule {
  readonly rule: ValidationRule;
  readonly program?: CelProgram;
  readonly error?: CelCompileFailure;
  /** The rule references `oldSelf`. */
  readonly transitionRule: boolean;
  /** Worst-case cost of one evaluation (uint64). */
  readonly maxCost: bigint;
  /** How often the rule could run under unbounded lists/maps (compilation.go maxCardinality). */
  readonly maxCardinality: bigint;
  readonly messageExpression?: CelProgram;
  readonly messageExpressionError?: CelCompileFailure;
  readonly messageExpressionMaxCost: bigint;
}

function internal(prefix: string, err: unknown): CelCompileFailure {
  return { type: 'Internal', detail: prefix + (err instanceof Error ? err.message : String(err)) };
}

/**
 * Compiles `rules` against `declType` (the node's CEL type). Never throws: an unexpected failure
 * of the compiler becomes an Internal error on the rule (AM-09).
 */
export function compileRules(
  rules: readonly ValidationRule[],
  declType: DeclType,
  perCallLimit: number = PER_CALL_LIMIT,
): CompiledRule[] {
  if (rules.length === 0) return [];
  const { root, variables } = ruleVariables(declType);
  const cardinality = maxCardinality(root.minSerializedSize);
  return rules.map((rule) => compileRule(rule, variables, root, perCallLimit, cardinality));
}

function compileRule(
  rule: ValidationRule,
  variables: Readonly<Record<string, DeclType>>,
  root: DeclType,
  perCallLimit: number,
  cardinality: bigint,
): CompiledRule {
  const empty = {
    rule,
    transitionRule: false,
    maxCost: 0n,
    maxCardinality: 0n,
    messageExpressionMaxCost: 0n,
  };
  if (rule.rule.trim() === '') return empty;
  let compiled;
  try {
    compiled = compileCel(rule.rule, { variables, expectedResult: 'bool', perCallLimit, sizeRoot: root });
  } catch (err) {
    return { ...empty, error: internal('unexpected compilation error: ', err) };
  }
  if (!compiled.ok) return { ...empty, error: compiled.error };
  const result = {
    rule,
    program: compiled.program,
    transitionRule: compiled.transitionRule,
    maxCost: compiled.maxCost,
    maxCardinality: cardinality,
  };
  if (rule.messageExpression === '') return { ...result, messageExpressionMaxCost: 0n };
  let message;
  try {
    message = compileCel(rule.messageExpression, {
      variables,
      expectedResult: 'string',
      perCallLimit,
      sizeRoot: root,
    });
  } catch (err) {
    return {
      ...result,
      messageExpressionError: internal('unexpected messageExpression compilation error: ', err),
      messageExpressionMaxCost: 0n,
    };
  }
  if (!message.ok) return { ...result, messageExpressionError: message.error, messageExpressionMaxCost: 0n };
  return { ...result, messageExpression: message.program, messageExpressionMaxCost: message.maxCost };
}
