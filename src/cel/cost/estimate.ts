/**
 * Static cost estimation, as cel-go v0.12.7 checker/cost.go: a [min, max] range of cost units
 * for one evaluation of a checked expression, in uint64 arithmetic that saturates instead of
 * overflowing. Sizes of inputs come from a SizeEstimator (Kubernetes: the schema's
 * maxLength/maxItems/maxProperties); library functions may price themselves (EstimateCallCost).
 */
import type { Expr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import type { CheckResult } from '../checker/checker.js';
import type { CheckedType } from '../checker/types.js';

export const MAX_UINT64 = 2n ** 64n - 1n;

/** A range of cost units (cel-go's CostEstimate). */
export interface CostEstimate {
  readonly min: bigint;
  readonly max: bigint;
}

/** A range of sizes: characters or bytes, list items or map entries (cel-go's SizeEstimate). */
export type SizeEstimate = CostEstimate;

// common/cost.go.
export const SELECT_AND_IDENT_COST = 1n;
export const CONST_COST = 0n;
export const LIST_CREATE_BASE_COST = 10n;
export const MAP_CREATE_BASE_COST = 30n;
export const STRUCT_CREATE_BASE_COST = 40n;
export const STRING_TRAVERSAL_COST_FACTOR = 0.1;
export const REGEX_STRING_LENGTH_COST_FACTOR = 0.25;

export function addU64(x: bigint, y: bigint): bigint {
  return x + y > MAX_UINT64 ? MAX_UINT64 : x + y;
}
export function mulU64(x: bigint, y: bigint): bigint {
  return x * y > MAX_UINT64 ? MAX_UINT64 : x * y;
}
/** x × factor rounded up, as float64 arithmetic (saturating). */
export function mulFactor(x: bigint, factor: number): bigint {
  const xf = Number(x);
  if (xf > 0 && factor > 0 && xf > Number(MAX_UINT64) / factor) return MAX_UINT64;
  const r = BigInt(Math.ceil(xf * factor));
  return r > MAX_UINT64 ? MAX_UINT64 : r;
}

export function est(min: bigint, max: bigint = min): CostEstimate {
  return { min, max };
}
export function add(a: CostEstimate, b: CostEstimate): CostEstimate {
  return { min: addU64(a.min, b.min), max: addU64(a.max, b.max) };
}
export function multiply(a: CostEstimate, b: CostEstimate): CostEstimate {
  return { min: mulU64(a.min, b.min), max: mulU64(a.max, b.max) };
}
export function multiplyByCostFactor(a: CostEstimate, factor: number): CostEstimate {
  return { min: mulFactor(a.min, factor), max: mulFactor(a.max, factor) };
}
export function union(a: CostEstimate, b: CostEstimate): CostEstimate {
  return { min: b.min < a.min ? b.min : a.min, max: b.max > a.max ? b.max : a.max };
}

/** An expression node as estimators see it (cel-go's checker.AstNode). */
export interface AstNode {
  /**
   * Field path from a variable to the node (`['self', 'spec', 'tags', '@items']`), or undefined.
   * Elements after the variable are field names, `@items`, `@keys` or `@values`.
   */
  readonly path: readonly string[] | undefined;
  readonly type: CheckedType | undefined;
  readonly expr: Expr | undefined;
  /** The size known from the expression itself (literals, concatenations), if any. */
  computedSize(): SizeEstimate | undefined;
}

export interface CallEstimate {
  readonly cost: CostEstimate;
  readonly resultSize?: SizeEstimate;
}

/** cel-go's checker.CostEstimator. */
export interface CostEstimator {
  estimateSize(node: AstNode): SizeEstimate | undefined;
  estimateCallCost(
    fn: string,
    overloadId: string,
    target: AstNode | undefined,
    args: readonly AstNode[],
  ): CallEstimate | undefined;
}

/** Accumulator variable names of expanded macros (cel-go `__result__`, @bufbuild/cel `@result`). */
const ACCUMULATOR_NAMES = new Set(['__result__', '@result']);

function constantSize(e: Expr): SizeEstimate | undefined {
  const k = e.exprKind;
  switch (k.case) {
    case 'constExpr':
      switch (k.value.constantKind.case) {
        case 'stringValue':
          return est(BigInt(Buffer.byteLength(k.value.constantKind.value, 'utf8')));
        case 'bytesValue':
          return est(BigInt(k.value.constantKind.value.length));
        case undefined:
          return undefined;
        default:
          return est(1n);
      }
    case 'listExpr':
      return est(BigInt(k.value.elements.length));
    case 'structExpr':
      return k.value.messageName === '' ? est(BigInt(k.value.entries.length)) : est(0n);
    default:
      return undefined;
  }
}

function isScalar(t: CheckedType | undefined): boolean {
  if (t === undefined) return false;
  if (t.kind === 'primitive') return t.name !== 'string' && t.name !== 'bytes';
  return t.kind === 'wellKnown' && (t.name === 'duration' || t.name === 'timestamp');
}

/** Estimates the cost of one evaluation of a checked expression. */
export function estimateCost(expr: Expr, checked: CheckResult, estimator: CostEstimator): CostEstimate {
  return new Coster(checked, estimator).cost(expr);
}

class Coster {
  readonly #checked: CheckResult;
  readonly #estimator: CostEstimator;
  readonly #paths = new Map<bigint, readonly string[]>();
  readonly #iterRanges = new Map<string, Expr[]>();
  readonly #computedSizes = new Map<bigint, SizeEstimate>();

  constructor(checked: CheckResult, estimator: CostEstimator) {
    this.#checked = checked;
    this.#estimator = estimator;
  }

  cost(e: Expr | undefined): CostEstimate {
    if (e === undefined) return est(0n);
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr':
        return est(CONST_COST);
      case 'identExpr':
        return this.#costIdent(e, k.value.name);
      case 'selectExpr': {
        if (k.value.testOnly) return est(0n);
        let sum = this.cost(k.value.operand);
        const targetType = this.#type(k.value.operand);
        if (targetType?.kind === 'map' || targetType?.kind === 'object' || targetType?.kind === 'typeParam') {
          sum = add(sum, est(SELECT_AND_IDENT_COST));
        }
        this.#paths.set(e.id, [...(this.#path(k.value.operand) ?? []), k.value.field]);
        return sum;
      }
      case 'callExpr':
        return this.#costCall(e, k.value.function, k.value.target, k.value.args);
      case 'listExpr': {
        let sum = est(0n);
        for (const el of k.value.elements) sum = add(sum, this.cost(el));
        return add(sum, est(LIST_CREATE_BASE_COST));
      }
      case 'structExpr': {
        let sum = est(0n);
        for (const entry of k.value.entries) {
          if (k.value.messageName === '' && entry.keyKind.case === 'mapKey') {
            sum = add(sum, this.cost(entry.keyKind.value));
          }
          sum = add(sum, this.cost(entry.value));
        }
        return add(sum, est(k.value.messageName === '' ? MAP_CREATE_BASE_COST : STRUCT_CREATE_BASE_COST));
      }
      case 'comprehensionExpr': {
        const comp = k.value;
        let sum = add(this.cost(comp.iterRange), this.cost(comp.accuInit));
        const stack = this.#iterRanges.get(comp.iterVar) ?? [];
        if (comp.iterRange !== undefined) stack.push(comp.iterRange);
        this.#iterRanges.set(comp.iterVar, stack);
        const loopCost = this.cost(comp.loopCondition);
        const stepCost = this.cost(comp.loopStep);
        if (comp.iterRange !== undefined) stack.pop();
        sum = add(sum, this.cost(comp.result));
        const rangeCnt = this.#sizeEstimate(this.#node(comp.iterRange));
        return add(sum, multiply(rangeCnt, add(stepCost, loopCost)));
      }
      default:
        return est(0n);
    }
  }

  #costIdent(e: Expr, name: string): CostEstimate {
    const stack = this.#iterRanges.get(name);
    const iterRange = stack?.[stack.length - 1];
    if (iterRange !== undefined) {
      const rangeType = this.#type(iterRange);
      const base = this.#path(iterRange) ?? [];
      if (rangeType?.kind === 'list') this.#paths.set(e.id, [...base, '@items']);
      else if (rangeType?.kind === 'map') this.#paths.set(e.id, [...base, '@keys']);
    } else {
      this.#paths.set(e.id, [name]);
    }
    return est(SELECT_AND_IDENT_COST);
  }

  #costCall(e: Expr, fn: string, target: Expr | undefined, args: readonly Expr[]): CostEstimate {
    const argCosts = args.map((a) => this.cost(a));
    const argNodes = args.map((a) => this.#node(a));
    const overloadIds = this.#checked.references.get(e.id)?.overloadIds ?? [];
    if (overloadIds.length === 0) return est(0n);
    let sum = est(0n);
    let targetNode: AstNode | undefined;
    if (target !== undefined) {
      sum = add(sum, this.cost(target));
      targetNode = this.#node(target);
    }
    let fnCost = est(MAX_UINT64, 0n);
    let resultSize: SizeEstimate | undefined;
    for (const overload of overloadIds) {
      const call = this.#functionCost(fn, overload, targetNode, argNodes, argCosts);
      fnCost = union(fnCost, call.cost);
      if (call.resultSize !== undefined) {
        resultSize = resultSize === undefined ? call.resultSize : union(resultSize, call.resultSize);
      }
      const first = args[0];
      if (first !== undefined && overload === 'index_list') {
        this.#paths.set(e.id, [...(this.#path(first) ?? []), '@items']);
      } else if (first !== undefined && overload === 'index_map') {
        this.#paths.set(e.id, [...(this.#path(first) ?? []), '@values']);
      }
    }
    if (resultSize !== undefined) this.#computedSizes.set(e.id, resultSize);
    return add(sum, fnCost);
  }

  #functionCost(
    fn: string,
    overloadId: string,
    target: AstNode | undefined,
    args: readonly AstNode[],
    argCosts: readonly CostEstimate[],
  ): CallEstimate {
    const argCostSum = (): CostEstimate => argCosts.reduce(add, est(0n));
    const library = this.#estimator.estimateCallCost(fn, overloadId, target, args);
    if (library !== undefined) {
      return {
        cost: add(library.cost, argCostSum()),
        ...(library.resultSize !== undefined ? { resultSize: library.resultSize } : {}),
      };
    }
    const [a0, a1, a2] = args;
    const [c0 = est(0n), c1 = est(0n), c2 = est(0n)] = argCosts;
    switch (overloadId) {
      case 'string_to_bytes':
        if (args.length === 1 && a0 !== undefined) {
          const sz = this.#sizeEstimate(a0);
          return {
            cost: add(multiplyByCostFactor(sz, STRING_TRAVERSAL_COST_FACTOR), argCostSum()),
            resultSize: est(sz.min, mulU64WrapLikeGo(sz.max, 4n)),
          };
        }
        break;
      case 'bytes_to_string':
        if (args.length === 1 && a0 !== undefined) {
          const sz = this.#sizeEstimate(a0);
          return {
            cost: add(multiplyByCostFactor(sz, STRING_TRAVERSAL_COST_FACTOR), argCostSum()),
            resultSize: est(sz.min / 4n, sz.max),
          };
        }
        break;
      case 'starts_with_string':
      case 'ends_with_string':
        if (args.length === 1 && a0 !== undefined) {
          return {
            cost: add(
              multiplyByCostFactor(this.#sizeEstimate(a0), STRING_TRAVERSAL_COST_FACTOR),
              argCostSum(),
            ),
          };
        }
        break;
      case 'in_list':
        if (args.length === 2 && a1 !== undefined) {
          return { cost: add(multiplyByCostFactor(this.#sizeEstimate(a1), 1), argCostSum()) };
        }
        break;
      case 'matches_string':
        if (target !== undefined && args.length === 1 && a0 !== undefined) {
          const strCost = multiplyByCostFactor(
            add(this.#sizeEstimate(target), est(1n)),
            STRING_TRAVERSAL_COST_FACTOR,
          );
          const regexCost = multiplyByCostFactor(this.#sizeEstimate(a0), REGEX_STRING_LENGTH_COST_FACTOR);
          return { cost: add(multiply(strCost, regexCost), argCostSum()) };
        }
        break;
      case 'contains_string':
        if (target !== undefined && args.length === 1 && a0 !== undefined) {
          const strCost = multiplyByCostFactor(this.#sizeEstimate(target), STRING_TRAVERSAL_COST_FACTOR);
          const substrCost = multiplyByCostFactor(this.#sizeEstimate(a0), STRING_TRAVERSAL_COST_FACTOR);
          return { cost: add(multiply(strCost, substrCost), argCostSum()) };
        }
        break;
      case 'logical_or':
      case 'logical_and':
        // Short-circuiting: the least is the left side alone.
        return { cost: est(c0.min, add(c0, c1).max) };
      case 'conditional': {
        if (a1 === undefined || a2 === undefined) break;
        const size = union(this.#sizeEstimate(a1), this.#sizeEstimate(a2));
        return { cost: add(c0, union(c1, c2)), resultSize: size };
      }
      case 'add_string':
      case 'add_bytes':
      case 'add_list':
        if (args.length === 2 && a0 !== undefined && a1 !== undefined) {
          const resultSize = add(this.#sizeEstimate(a0), this.#sizeEstimate(a1));
          if (overloadId === 'add_list') return { cost: add(est(1n), argCostSum()), resultSize };
          return {
            cost: add(multiplyByCostFactor(resultSize, STRING_TRAVERSAL_COST_FACTOR), argCostSum()),
            resultSize,
          };
        }
        break;
      case 'less_string':
      case 'greater_string':
      case 'less_equals_string':
      case 'greater_equals_string':
      case 'less_bytes':
      case 'greater_bytes':
      case 'less_equals_bytes':
      case 'greater_equals_bytes':
      case 'equals':
      case 'not_equals': {
        if (a0 === undefined || a1 === undefined) break;
        const lhs = this.#sizeEstimate(a0);
        const rhs = this.#sizeEstimate(a1);
        const smallestMax = rhs.max < lhs.max ? rhs.max : lhs.max;
        const min = smallestMax > 0n ? 1n : 0n;
        return {
          cost: add(multiplyByCostFactor(est(min, smallestMax), STRING_TRAVERSAL_COST_FACTOR), argCostSum()),
        };
      }
    }
    return { cost: add(est(1n), argCostSum()) };
  }

  #type(e: Expr | undefined): CheckedType | undefined {
    return e === undefined ? undefined : this.#checked.types.get(e.id);
  }

  #path(e: Expr | undefined): readonly string[] | undefined {
    return e === undefined ? undefined : this.#paths.get(e.id);
  }

  #node(e: Expr | undefined): AstNode {
    let path = this.#path(e);
    // Only paths from variables, never from a macro's accumulator.
    if (path !== undefined && path.length > 0 && ACCUMULATOR_NAMES.has(path[0] ?? '')) path = undefined;
    const derived = e === undefined ? undefined : this.#computedSizes.get(e.id);
    return {
      path,
      type: this.#type(e),
      expr: e,
      computedSize: () => derived ?? (e === undefined ? undefined : constantSize(e)),
    };
  }

  #sizeEstimate(node: AstNode): SizeEstimate {
    const computed = node.computedSize();
    if (computed !== undefined) return computed;
    const estimated = this.#estimator.estimateSize(node);
    if (estimated !== undefined) return estimated;
    // Values of a fixed size count as one; anything else may be as large as can be.
    if (isScalar(node.type)) return est(1n);
    return est(0n, MAX_UINT64);
  }
}

/** Go's uint64 multiplication wraps (cost.go multiplies sz.Max * 4 unchecked). */
function mulU64WrapLikeGo(x: bigint, y: bigint): bigint {
  return BigInt.asUintN(64, x * y);
}
