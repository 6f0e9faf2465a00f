/**
 * Static costs of the Kubernetes library functions, as apiserver v0.27.16 pkg/cel/library/cost.go
 * (CostEstimator.EstimateCallCost), delegating sizes to a schema-based estimator. Any change
 * here changes which CRD rules are accepted, so the numbers follow upstream exactly.
 */
import {
  type AstNode,
  type CallEstimate,
  type CostEstimator,
  type SizeEstimate,
  MAX_UINT64,
  REGEX_STRING_LENGTH_COST_FACTOR,
  STRING_TRAVERSAL_COST_FACTOR,
  add,
  est,
  multiply,
  multiplyByCostFactor,
} from './estimate.js';

/** Sizes of input data (cel-go's EstimateSize half of checker.CostEstimator). */
export interface SizeEstimator {
  estimateSize(node: AstNode): SizeEstimate | undefined;
}

const AUTHZ_NOMINAL = new Set([
  'serviceAccount',
  'path',
  'group',
  'resource',
  'subresource',
  'namespace',
  'name',
  'allowed',
  'denied',
  'reason',
]);
const LIST_TRAVERSALS = new Set(['isSorted', 'sum', 'max', 'min', 'indexOf', 'lastIndexOf']);

export class LibraryCostEstimator implements CostEstimator {
  readonly #sizes: SizeEstimator | undefined;

  constructor(sizes?: SizeEstimator) {
    this.#sizes = sizes;
  }

  estimateSize(node: AstNode): SizeEstimate | undefined {
    return this.#sizes?.estimateSize(node);
  }

  #sizeEstimate(node: AstNode): SizeEstimate {
    return node.computedSize() ?? this.estimateSize(node) ?? est(0n, MAX_UINT64);
  }

  /** A node standing for a list's elements (with the path to them when the list has one). */
  #listElementNode(list: AstNode): AstNode | undefined {
    if (list.type?.kind !== 'list') return undefined;
    const elem = list.type.elem;
    return {
      path: list.path === undefined ? undefined : [...list.path, '@items'],
      type: elem,
      expr: undefined,
      computedSize: () => undefined,
    };
  }

  estimateCallCost(
    fn: string,
    _overloadId: string,
    target: AstNode | undefined,
    args: readonly AstNode[],
  ): CallEstimate | undefined {
    if (fn === 'check') return { cost: est(350_000n) };
    if (AUTHZ_NOMINAL.has(fn)) return { cost: est(1n) };
    if (LIST_TRAVERSALS.has(fn)) {
      if (target === undefined) return undefined;
      const elNode = this.#listElementNode(target);
      if (elNode !== undefined) {
        // One per element compared, plus traversing each string or bytes element.
        let elCost = est(1n);
        if (
          elNode.type?.kind === 'primitive' &&
          (elNode.type.name === 'string' || elNode.type.name === 'bytes')
        ) {
          elCost = add(
            elCost,
            multiplyByCostFactor(this.#sizeEstimate(elNode), STRING_TRAVERSAL_COST_FACTOR),
          );
        }
        return { cost: multiply(this.#sizeEstimate(target), elCost) };
      }
      // indexOf/lastIndexOf on a string.
      return { cost: multiplyByCostFactor(this.#sizeEstimate(target), STRING_TRAVERSAL_COST_FACTOR) };
    }
    const [a0, a1] = args;
    switch (fn) {
      case 'url':
        if (args.length === 1 && a0 !== undefined) {
          return { cost: multiplyByCostFactor(this.#sizeEstimate(a0), STRING_TRAVERSAL_COST_FACTOR) };
        }
        return undefined;
      case 'lowerAscii':
      case 'upperAscii':
      case 'substring':
      case 'trim': {
        if (target === undefined) return undefined;
        const sz = this.#sizeEstimate(target);
        return { cost: multiplyByCostFactor(sz, STRING_TRAVERSAL_COST_FACTOR), resultSize: sz };
      }
      case 'replace':
        if (target !== undefined && args.length >= 2 && a0 !== undefined && a1 !== undefined) {
          return this.#replace(target, a0, a1);
        }
        return undefined;
      case 'split': {
        if (target === undefined) return undefined;
        const sz = this.#sizeEstimate(target);
        // The worst case splits on "" into one element per character, unless a limit is given.
        let max = sz.max;
        const limit = a1?.expr?.exprKind;
        if (args.length > 1 && limit?.case === 'constExpr') {
          const c = limit.value.constantKind;
          max = c.case === 'int64Value' ? BigInt.asUintN(64, c.value) : 0n;
        }
        return { cost: multiplyByCostFactor(sz, 2 * STRING_TRAVERSAL_COST_FACTOR), resultSize: est(0n, max) };
      }
      case 'join': {
        if (target === undefined) return undefined;
        let sz = est(0n);
        const listSize = this.#sizeEstimate(target);
        const elNode = this.#listElementNode(target);
        if (elNode !== undefined) sz = multiply(listSize, this.#sizeEstimate(elNode));
        if (a0 !== undefined) {
          const sepSize = this.#sizeEstimate(a0);
          const separators = est(
            listSize.min > 0n ? listSize.min - 1n : 0n,
            listSize.max > 0n ? listSize.max - 1n : 0n,
          );
          sz = add(sz, multiply(sepSize, separators));
        }
        return { cost: multiplyByCostFactor(sz, STRING_TRAVERSAL_COST_FACTOR), resultSize: sz };
      }
      case 'find':
      case 'findAll': {
        if (target === undefined || a0 === undefined) return undefined;
        const sz = this.#sizeEstimate(target);
        // One more than the length, so an empty string against a costly regex is not free.
        const strCost = multiplyByCostFactor(add(sz, est(1n)), STRING_TRAVERSAL_COST_FACTOR);
        const regexCost = multiplyByCostFactor(this.#sizeEstimate(a0), REGEX_STRING_LENGTH_COST_FACTOR);
        return { cost: multiply(strCost, regexCost), resultSize: est(0n, sz.max) };
      }
    }
    return undefined;
  }

  /** replace(old, new): the result's size range from the shortest and longest replacements. */
  #replace(target: AstNode, toReplace: AstNode, replaceWith: AstNode): CallEstimate {
    const sz = this.#sizeEstimate(target);
    const toReplaceSz = this.#sizeEstimate(toReplace);
    const replaceWithSz = this.#sizeEstimate(replaceWith);
    let countMax: bigint;
    let countMin: bigint;
    let retainedMax = 0n;
    let retainedMin = 0n;
    if (toReplaceSz.min === 0n) {
      countMax = sz.max < MAX_UINT64 ? sz.max + 1n : sz.max;
      retainedMax = sz.max;
    } else if (replaceWithSz.max <= toReplaceSz.min) {
      countMax = 0n;
      retainedMax = sz.max;
    } else {
      countMax = ceilDiv(sz.max, toReplaceSz.min);
    }
    if (toReplaceSz.max === 0n) {
      countMin = sz.min < MAX_UINT64 ? sz.min + 1n : sz.min;
      retainedMin = sz.min;
    } else if (toReplaceSz.max <= replaceWithSz.min) {
      countMin = 0n;
      retainedMin = sz.min;
    } else {
      countMin = ceilDiv(sz.min, toReplaceSz.max);
    }
    const size = add(multiply(est(countMin, countMax), replaceWithSz), est(retainedMin, retainedMax));
    return { cost: multiplyByCostFactor(sz, 2 * STRING_TRAVERSAL_COST_FACTOR), resultSize: size };
  }
}

/** math.Ceil(float64(a) / float64(b)) converted back to uint64, as upstream computes it. */
function ceilDiv(a: bigint, b: bigint): bigint {
  const r = BigInt(Math.ceil(Number(a) / Number(b)));
  return r > MAX_UINT64 ? MAX_UINT64 : r;
}
