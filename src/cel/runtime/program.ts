// A planned CEL program with cel-go-like runtime cost tracking (AM-03) over @bufbuild/cel:
// the parsed expression is instrumented (instrument.ts), its function calls dispatch through our
// wrappers to the Kubernetes environment (environment.ts), and every evaluation reports its
// actual cost. eval() never throws (AM-09): failures are CelRuntimeError values.
import {
  celEnv,
  celFunc,
  celMethod,
  CelScalar,
  isCelError,
  isCelMap,
  isCelUint,
  plan,
  type CelEnv,
  type CelFunc,
  type CelInput,
  type CelValue,
} from '@bufbuild/cel';
import type { Expr, SourceInfo } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import { authorizerValue, withAuthorizer, type CelAuthorizer } from '../library/authz.js';
import { compileRegex } from '../library/regex.js';
import { keyedListAdd, keyedListEquals } from '../schema/keyed-lists.js';
import { callCost, CostTracker } from './cost.js';
import { kubernetesEnv } from './environment.js';
import { celGoMessage, CelRuntimeError } from './errors.js';
import {
  CALL_FUNCTION_PREFIX,
  CHARGE_FUNCTION_PREFIX,
  FREE_CALL_FUNCTION_PREFIX,
  MAP_LITERAL_FUNCTION,
  PASS_FUNCTION,
  instrument,
  type WrapperUse,
} from './instrument.js';

const { DYN } = CelScalar;

export interface ProgramOptions {
  /** Variable names the expression may reference (bindings outside this list are ignored). */
  readonly variables?: readonly string[];
  /** Answers authorizer checks; bound to the `authorizer` variable when it is declared. */
  readonly authorizer?: CelAuthorizer;
  /** Per-evaluation cost limit (Kubernetes: PerCallLimit); no limit when absent. */
  readonly costLimit?: number;
  /**
   * cel.OptOptimize, as Kubernetes' CRD validation and admission programs use (default true):
   * constant literals and conversions are folded and cost nothing. Upstream's library cost tests
   * run without it.
   */
  readonly optimize?: boolean;
  /** The container (namespace) identifiers resolve in; Kubernetes uses none. */
  readonly container?: string;
  /**
   * The functions and types calls dispatch to: the Kubernetes v1.27 environment unless given
   * (the conformance test passes the spec's test types and @bufbuild/cel's newer extensions).
   */
  readonly environment?: CelEnv;
}

export interface EvalOptions {
  readonly costLimit?: number;
  /** Overrides ProgramOptions.authorizer for this evaluation (e.g. the request's user). */
  readonly authorizer?: CelAuthorizer;
}

export type CelEvalResult =
  | { readonly value: CelValue; readonly cost: number }
  | { readonly error: CelRuntimeError; readonly cost: number };

export interface CelProgram {
  eval(bindings: Readonly<Record<string, CelInput>>, options?: EvalOptions): CelEvalResult;
}

/** The program cannot be instantiated (cel-go: "program instantiation failed: ..."). */
export class CelProgramError extends Error {
  override readonly name = 'CelProgramError';
}

const REGEX_FUNCTIONS = new Set(['find', 'findAll', 'matches']);

/** cel-go compiles constant patterns when planning (OptimizeRegex): bad ones fail the program. */
function checkConstantRegexes(e: Expr | undefined, optimize: boolean): void {
  if (e === undefined) return;
  const kind = e.exprKind;
  switch (kind.case) {
    case 'callExpr': {
      const call = kind.value;
      if (REGEX_FUNCTIONS.has(call.function) && (optimize || call.function !== 'matches')) {
        const pattern = call.target !== undefined ? call.args[0] : call.args[1];
        const c = pattern?.exprKind;
        if (c?.case === 'constExpr' && c.value.constantKind.case === 'stringValue') {
          try {
            compileRegex(c.value.constantKind.value);
          } catch (err) {
            throw new CelProgramError(err instanceof Error ? err.message : String(err));
          }
        }
      }
      checkConstantRegexes(call.target, optimize);
      call.args.forEach((a) => checkConstantRegexes(a, optimize));
      return;
    }
    case 'selectExpr':
      checkConstantRegexes(kind.value.operand, optimize);
      return;
    case 'listExpr':
      kind.value.elements.forEach((x) => checkConstantRegexes(x, optimize));
      return;
    case 'structExpr':
      for (const entry of kind.value.entries) {
        if (entry.keyKind.case === 'mapKey') checkConstantRegexes(entry.keyKind.value, optimize);
        checkConstantRegexes(entry.value, optimize);
      }
      return;
    case 'comprehensionExpr':
      for (const x of [
        kind.value.iterRange,
        kind.value.accuInit,
        kind.value.loopCondition,
        kind.value.loopStep,
        kind.value.result,
      ]) {
        checkConstantRegexes(x, optimize);
      }
      return;
    default:
      return;
  }
}

/**
 * `==`, `!=` and `+` with an x-kubernetes-list-type set or map list on the left, which compare
 * and concatenate by element key as apiserver pkg/cel/common/values.go (schema/keyed-lists.ts).
 */
function keyedListOperator(
  fn: string,
  target: CelValue | undefined,
  args: readonly CelValue[],
): CelValue | undefined {
  if (target !== undefined || args.length !== 2) return undefined;
  const [lhs, rhs] = args as [CelValue, CelValue];
  switch (fn) {
    case '_==_':
      return keyedListEquals(lhs, rhs);
    case '_!=_': {
      const equal = keyedListEquals(lhs, rhs);
      return equal === undefined ? undefined : !equal;
    }
    case '_+_':
      return keyedListAdd(lhs, rhs);
    default:
      return undefined;
  }
}

/** A map literal whose int and uint keys collide numerically: "Failed with repeated key". */
function checkRepeatedKeys(map: CelValue): CelValue {
  if (!isCelMap(map)) return map;
  const numeric = new Set<bigint>();
  for (const key of map.keys()) {
    const n = typeof key === 'bigint' ? key : isCelUint(key) ? key.value : undefined;
    if (n === undefined) continue;
    if (numeric.has(n)) throw new Error('Failed with repeated key');
    numeric.add(n);
  }
  return map;
}

/** Evaluation state shared by the wrappers of one program (eval is synchronous). */
class Session {
  tracker = new CostTracker(undefined);
  readonly #env: CelEnv;

  constructor(env: CelEnv) {
    this.#env = env;
  }

  charge(n: number): void {
    if (!this.tracker.add(n)) throw CelRuntimeError.costLimitExceeded();
  }

  /** A charge ahead of evaluation; the limit is checked by the next charge or at the end. */
  precharge(n: number): void {
    if (this.tracker.exceeded) throw CelRuntimeError.costLimitExceeded();
    this.tracker.addUnchecked(n);
  }

  /** Calls `fn`; a charged call was precharged 1 by its first argument, which is dropped. */
  dispatch(fn: string, free: boolean, target: CelValue | undefined, given: CelValue[]): CelValue {
    if (this.tracker.exceeded) throw CelRuntimeError.costLimitExceeded();
    const args = free ? given : given.slice(1);
    const result = keyedListOperator(fn, target, args) ?? this.#env.funcs.find(fn)?.call(0, target, args);
    if (!free) {
      const all = target === undefined ? args : [target, ...args];
      const cost = callCost(fn, target !== undefined, all, isCelError(result) ? undefined : result);
      this.charge(cost - 1);
    }
    if (result === undefined) throw new Error('no such overload');
    if (isCelError(result)) throw result;
    return result;
  }
}

function wrapperFunc(use: WrapperUse, session: Session): CelFunc {
  const { name, arity, member } = use;
  if (name.startsWith(CHARGE_FUNCTION_PREFIX)) {
    const cost = Number(name.slice(CHARGE_FUNCTION_PREFIX.length));
    return celFunc(name, [], DYN, () => {
      session.precharge(cost);
      return null;
    });
  }
  if (name === PASS_FUNCTION) return celFunc(name, [DYN, DYN], DYN, (_charged, v) => v);
  if (name === MAP_LITERAL_FUNCTION) {
    return celFunc(name, [DYN, DYN], DYN, (_charged, map) => checkRepeatedKeys(map));
  }
  const free = name.startsWith(FREE_CALL_FUNCTION_PREFIX);
  const fn = name.slice(free ? FREE_CALL_FUNCTION_PREFIX.length : CALL_FUNCTION_PREFIX.length);
  const params = Array.from({ length: arity }, () => DYN);
  if (member) {
    return celMethod(name, DYN, params, DYN, function (this: CelValue, ...args: CelValue[]) {
      return session.dispatch(fn, free, this, args);
    });
  }
  return celFunc(name, params, DYN, (...args: CelValue[]) => session.dispatch(fn, free, undefined, args));
}

/** Plans a parsed expression. Throws CelProgramError when a constant regex does not compile. */
export function newProgram(
  parsed: { readonly expr: Expr; readonly sourceInfo?: SourceInfo | undefined },
  options: ProgramOptions = {},
): CelProgram {
  const optimize = options.optimize ?? true;
  checkConstantRegexes(parsed.expr, optimize);
  const target = options.environment ?? kubernetesEnv;
  const { expr, wrappers } = instrument(parsed.expr, {
    optimize,
    isFunction: (name) => target.funcs.find(name) !== undefined,
  });
  const session = new Session(target);
  const env = celEnv({
    registry: target.registry,
    namespace: options.container ?? target.namespace,
    funcs: wrappers.map((w) => wrapperFunc(w, session)),
  });
  const evaluate = plan(env, expr);
  const declared = options.variables === undefined ? undefined : new Set(options.variables);
  return {
    eval(bindings, evalOptions = {}) {
      const authorizer = evalOptions.authorizer ?? options.authorizer;
      const ctx: Record<string, CelInput> = {};
      for (const [k, v] of Object.entries(bindings)) {
        if (declared === undefined || declared.has(k)) ctx[k] = v;
      }
      if (authorizer !== undefined && !('authorizer' in ctx) && declared?.has('authorizer') !== false) {
        ctx['authorizer'] = authorizerValue();
      }
      session.tracker = new CostTracker(evalOptions.costLimit ?? options.costLimit);
      let result: CelValue | Error;
      try {
        result = withAuthorizer(authorizer, () => evaluate(ctx));
      } catch (err) {
        result = err instanceof Error ? err : new Error(String(err));
      }
      session.tracker.finish();
      const cost = session.tracker.cost;
      if (session.tracker.exceeded) return { error: CelRuntimeError.costLimitExceeded(), cost };
      if (isCelError(result) || result instanceof Error) {
        return { error: new CelRuntimeError(celGoMessage(result.message)), cost };
      }
      return { value: result, cost };
    },
  };
}
