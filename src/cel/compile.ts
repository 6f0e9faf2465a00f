/**
 * Compiling one CEL expression for Kubernetes, as apiextensions-apiserver v0.27
 * pkg/apiserver/schema/cel/compilation.go compileRule: parse, type-check against the declared
 * variables, require the result type (a rule returns bool, a messageExpression a string),
 * plan a cost-limited program and estimate its worst-case cost. Errors carry upstream's text
 * ("compilation failed: ERROR: <input>:1:6: ...", "cel expression must evaluate to a bool").
 * The CRD walk (which rules, budgets across them) lives with the caller.
 */
import { checkExpr, type CheckResult } from './checker/checker.js';
import { CheckerEnv } from './checker/env.js';
import { type CheckedType, typeEquals, BOOL, STRING } from './checker/types.js';
import { estimateCost, type CostEstimate } from './cost/estimate.js';
import { LibraryCostEstimator } from './cost/library-cost.js';
import { DeclTypeSizeEstimator } from './cost/schema-size.js';
import { CelCompileError, formatIssues, type CelIssue } from './issues.js';
import { parseCel, type ParsedCel } from './runtime/parse.js';
import { CelProgramError, newProgram, type CelProgram } from './runtime/program.js';
import { assignTypeNames, declTypeProvider, type DeclType } from './schema/decl-type.js';
import { MAX_REQUEST_SIZE_BYTES } from './schema/schema-decl-type.js';

/** celconfig.PerCallLimit: the most cost units one evaluation may spend. */
export const PER_CALL_LIMIT = 1_000_000;
export { RUNTIME_CEL_COST_BUDGET } from './budget.js';
/** The CRD variable names (compilation.go ScopedVarName, OldScopedVarName). */
export const SCOPED_VAR_NAME = 'self';
export const OLD_SCOPED_VAR_NAME = 'oldSelf';

/** apiservercel.Error: Invalid is the author's mistake, Internal ours. */
export interface CelCompileFailure {
  readonly type: 'Invalid' | 'Internal';
  readonly detail: string;
}

export interface CompileOptions {
  /** Declared variables; object types among them must be named (see ruleVariables). */
  readonly variables: Readonly<Record<string, DeclType>>;
  /** 'bool' for a validation rule, 'string' for a messageExpression (their upstream messages). */
  readonly expectedResult?: 'bool' | 'string';
  /** Per-evaluation cost limit of the program (default PER_CALL_LIMIT). */
  readonly perCallLimit?: number;
  /**
   * The type cost paths start from (upstream: the rule's root, whatever the variable); default
   * the `self` variable's type.
   */
  readonly sizeRoot?: DeclType;
}

export type CompileResult =
  | {
      readonly ok: true;
      readonly program: CelProgram;
      readonly outputType: CheckedType;
      /** Worst-case cost of one evaluation (cel.EstimateCost Max), uint64. */
      readonly maxCost: bigint;
      readonly cost: CostEstimate;
      /** The expression references `oldSelf`: a transition rule. */
      readonly transitionRule: boolean;
      readonly parsed: ParsedCel;
      readonly checked: CheckResult;
    }
  | {
      readonly ok: false;
      readonly error: CelCompileFailure;
      /** Parse or type-check issues behind a "compilation failed" error. */
      readonly issues: readonly CelIssue[];
    };

function failure(
  type: CelCompileFailure['type'],
  detail: string,
  issues: readonly CelIssue[] = [],
): CompileResult {
  return { ok: false, error: { type, detail }, issues };
}

/**
 * Compiles one expression. Never throws (AM-09): a bad expression is an Invalid failure with
 * upstream's text, and anything unexpected underneath is an Internal one.
 */
export function compileCel(source: string, options: CompileOptions): CompileResult {
  try {
    return compile(source, options);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const what = options.expectedResult === 'string' ? 'messageExpression compilation' : 'compilation';
    return failure('Internal', `unexpected ${what} error: ${message}`);
  }
}

function compile(source: string, options: CompileOptions): CompileResult {
  const messageExpression = options.expectedResult === 'string';
  const prefix = messageExpression ? 'messageExpression compilation failed: ' : 'compilation failed: ';
  let parsed: ParsedCel;
  try {
    parsed = parseCel(source);
  } catch (err) {
    if (err instanceof CelCompileError) return failure('Invalid', prefix + err.message, err.issues);
    throw err;
  }
  const variables = new Map<string, CheckedType>();
  for (const [name, t] of Object.entries(options.variables)) variables.set(name, t.celType);
  const env = new CheckerEnv({ variables, types: declTypeProvider(Object.values(options.variables)) });
  const checked = checkExpr(parsed.expr, parsed.sourceInfo, env);
  if (checked.issues.length > 0) {
    return failure('Invalid', prefix + formatIssues(source, checked.issues), checked.issues);
  }
  if (options.expectedResult !== undefined) {
    const want = options.expectedResult === 'bool' ? BOOL : STRING;
    if (!typeEquals(checked.type, want)) {
      return failure(
        'Invalid',
        messageExpression
          ? 'messageExpression must evaluate to a string'
          : 'cel expression must evaluate to a bool',
      );
    }
  }
  let transitionRule = false;
  for (const ref of checked.references.values()) {
    if (ref.name === OLD_SCOPED_VAR_NAME) transitionRule = true;
  }
  let program: CelProgram;
  try {
    program = newProgram(parsed, {
      variables: Object.keys(options.variables),
      costLimit: options.perCallLimit ?? PER_CALL_LIMIT,
    });
  } catch (err) {
    if (!(err instanceof CelProgramError)) throw err;
    return failure(
      'Invalid',
      `${messageExpression ? 'messageExpression instantiation failed' : 'program instantiation failed'}: ${err.message}`,
    );
  }
  const root = options.sizeRoot ?? options.variables[SCOPED_VAR_NAME];
  const estimator = new LibraryCostEstimator(
    root === undefined ? undefined : new DeclTypeSizeEstimator(root),
  );
  const cost = estimateCost(parsed.expr, checked, estimator);
  return {
    ok: true,
    program,
    outputType: checked.type,
    maxCost: cost.max,
    cost,
    transitionRule,
    parsed,
    checked,
  };
}

/**
 * The variables a CRD rule sees for a schema node's DeclType: `self` and `oldSelf` of the node's
 * type, named after a per-compilation placeholder (compilation.go generateUniqueSelfTypeName) so
 * rule authors cannot depend on it, and the legacy `rule` variable RuleTypes.EnvOptions declares.
 */
export function ruleVariables(
  declType: DeclType,
  typeName = `selfType${process.hrtime.bigint() % 1_000_000_000n}`,
): { readonly root: DeclType; readonly variables: Readonly<Record<string, DeclType>> } {
  const root = assignTypeNames(declType, typeName);
  return { root, variables: { rule: root, [SCOPED_VAR_NAME]: root, [OLD_SCOPED_VAR_NAME]: root } };
}

/**
 * The most times data of this minimum serialized size fits in one request
 * (compilation.go maxCardinality): rules under unbounded lists or maps may run this often.
 */
export function maxCardinality(minSize: bigint): bigint {
  const size = minSize + 1n;
  return BigInt.asUintN(64, MAX_REQUEST_SIZE_BYTES / size);
}
