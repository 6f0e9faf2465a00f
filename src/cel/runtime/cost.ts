// Runtime cost of CEL calls, following cel-go v0.12.7 interpreter/runtimecost.go (CostTracker
// costCall and actualSize) with Kubernetes' estimator consulted first, as cel-go does: apiserver
// v0.27.16 pkg/cel/library/cost.go CallCost (authz, lists, strings, regex and url functions).
import { isCelList, isCelMap, type CelValue } from '@bufbuild/cel';

/** common/cost.go constants (cel-go v0.12.7). */
export const SELECT_AND_IDENT_COST = 1;
export const LIST_CREATE_BASE_COST = 10;
export const MAP_CREATE_BASE_COST = 30;
export const STRUCT_CREATE_BASE_COST = 40;
export const STRING_TRAVERSAL_COST_FACTOR = 0.1;
export const REGEX_STRING_LENGTH_COST_FACTOR = 0.25;

/** The authorizer check cost Kubernetes sets so that only two checks fit one expression. */
export const AUTHZ_CHECK_COST = 350_000;

/** cel-go's message when the tracker passes its limit. */
export const COST_LIMIT_EXCEEDED_MESSAGE = 'operation cancelled: actual cost limit exceeded';

const utf8 = new TextEncoder();

/** traits.Sizer: string (code points), bytes, list and map sizes; every other value is 1. */
export function actualSize(value: CelValue | undefined): number {
  if (typeof value === 'string') return codePointLength(value);
  if (value instanceof Uint8Array) return value.length;
  if (isCelList(value)) return value.size;
  if (isCelMap(value)) return value.size;
  return 1;
}

export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/**
 * cost.go traversalCost: strings and bytes by their byte length times the traversal factor
 * (truncated, as the Go conversion to uint64 does), lists and maps summed over their elements.
 */
export function traversalCost(value: CelValue): number {
  if (typeof value === 'string') {
    return Math.trunc(utf8.encode(value).length * STRING_TRAVERSAL_COST_FACTOR);
  }
  if (value instanceof Uint8Array) return Math.trunc(value.length * STRING_TRAVERSAL_COST_FACTOR);
  if (isCelList(value)) {
    let cost = 0;
    for (const item of value) cost += traversalCost(item);
    return cost;
  }
  if (isCelMap(value)) {
    let cost = 0;
    for (const [k, v] of value) cost += traversalCost(k) + traversalCost(v);
    return cost;
  }
  return 1;
}

const ceilFactor = (n: number, factor: number): number => Math.ceil(n * factor);

/** Kubernetes' CallCost (cost.go), by function name; undefined when it has no opinion. */
function kubernetesCallCost(
  fn: string,
  args: readonly CelValue[],
  result: CelValue | undefined,
): number | undefined {
  switch (fn) {
    case 'check':
      return AUTHZ_CHECK_COST;
    case 'serviceAccount':
    case 'path':
    case 'group':
    case 'resource':
    case 'subresource':
    case 'namespace':
    case 'name':
    case 'allowed':
    case 'denied':
    case 'reason':
      return 1;
    case 'isSorted':
    case 'sum':
    case 'max':
    case 'min':
    case 'indexOf':
    case 'lastIndexOf':
      return args.length > 0 ? traversalCost(args[0]!) : 0;
    case 'url':
    case 'lowerAscii':
    case 'upperAscii':
    case 'substring':
    case 'trim':
      return args.length >= 1 ? ceilFactor(actualSize(args[0]), STRING_TRAVERSAL_COST_FACTOR) : undefined;
    case 'replace':
    case 'split':
      return args.length >= 1 ? ceilFactor(actualSize(args[0]) * 2, STRING_TRAVERSAL_COST_FACTOR) : undefined;
    case 'join':
      return args.length >= 1 ? ceilFactor(actualSize(result) * 2, STRING_TRAVERSAL_COST_FACTOR) : undefined;
    case 'find':
    case 'findAll':
      return args.length >= 2 ? regexCost(args[0], args[1]) : undefined;
    default:
      return undefined;
  }
}

function regexCost(str: CelValue | undefined, pattern: CelValue | undefined): number {
  const strCost = ceilFactor(1 + actualSize(str), STRING_TRAVERSAL_COST_FACTOR);
  const reCost = ceilFactor(actualSize(pattern), REGEX_STRING_LENGTH_COST_FACTOR);
  return strCost * reCost;
}

const minSizeCost = (a: CelValue | undefined, b: CelValue | undefined): number =>
  ceilFactor(Math.min(actualSize(a), actualSize(b)), STRING_TRAVERSAL_COST_FACTOR);

const isStringOrBytes = (v: CelValue | undefined): boolean =>
  typeof v === 'string' || v instanceof Uint8Array;

/**
 * The cost of one call. `args` holds the receiver first for member calls, as cel-go's
 * InterpretableCall.Args does; `member` tells `x.matches(re)` (matches_string) from the global
 * `matches(x, re)` (overload "matches", costed 1 by cel-go).
 */
export function callCost(
  fn: string,
  member: boolean,
  args: readonly CelValue[],
  result: CelValue | undefined,
): number {
  const k8s = kubernetesCallCost(fn, args, result);
  if (k8s !== undefined) return k8s;
  const [a, b] = args;
  switch (fn) {
    case 'startsWith':
    case 'endsWith':
      if (typeof a === 'string') return ceilFactor(actualSize(a), STRING_TRAVERSAL_COST_FACTOR);
      break;
    case 'string':
      if (a instanceof Uint8Array) return ceilFactor(actualSize(a), STRING_TRAVERSAL_COST_FACTOR);
      break;
    case 'bytes':
      if (typeof a === 'string') return ceilFactor(actualSize(a), STRING_TRAVERSAL_COST_FACTOR);
      break;
    case '@in':
      if (isCelList(b)) return actualSize(b);
      break;
    case '_<_':
    case '_>_':
    case '_<=_':
    case '_>=_':
      // string and bytes comparisons cost like equality; other operands are O(1)
      if (isStringOrBytes(a) && isStringOrBytes(b)) return minSizeCost(a, b);
      break;
    case '_==_':
    case '_!=_':
      return minSizeCost(a, b);
    case '_+_':
      if (isStringOrBytes(a) && isStringOrBytes(b)) {
        return ceilFactor(actualSize(a) + actualSize(b), STRING_TRAVERSAL_COST_FACTOR);
      }
      break;
    case 'matches':
      if (member) return regexCost(a, b);
      break;
    case 'contains':
      if (typeof a === 'string') {
        return (
          ceilFactor(actualSize(a), STRING_TRAVERSAL_COST_FACTOR) *
          ceilFactor(actualSize(b), STRING_TRAVERSAL_COST_FACTOR)
        );
      }
      break;
  }
  return 1;
}

/** The running total of one evaluation and its limit. */
export class CostTracker {
  #cost = 0;
  #limit: number | undefined;
  #exceeded = false;

  constructor(limit: number | undefined) {
    this.#limit = limit;
  }

  get cost(): number {
    return this.#cost;
  }

  get exceeded(): boolean {
    return this.#exceeded;
  }

  /** Adds `n` without checking the limit (a charge ahead of a step; see finish()). */
  addUnchecked(n: number): void {
    this.#cost += n;
  }

  /** Checks the limit once more at the end of an evaluation. */
  finish(): void {
    if (this.#limit !== undefined && this.#cost > this.#limit) this.#exceeded = true;
  }

  /** Adds `n`; returns false once the limit is passed (cel-go cancels when cost > limit). */
  add(n: number): boolean {
    if (this.#exceeded) return false;
    this.#cost += n;
    if (this.#limit !== undefined && this.#cost > this.#limit) this.#exceeded = true;
    return !this.#exceeded;
  }
}
