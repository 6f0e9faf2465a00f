// The Kubernetes lists library (apiserver v0.27.16 pkg/cel/library/lists.go): isSorted, sum,
// min, max, indexOf and lastIndexOf as member functions on lists, with upstream's errors
// ("min called on empty list"). Sums start from the zero of the element type (int for an empty
// list, the first overload's type, as cel-go dispatches it) and add with CEL's `_+_`.
import {
  celEnv,
  celMethod,
  CelScalar,
  isCelError,
  isCelList,
  isCelUint,
  type CelFunc,
  type CelList,
  type CelValue,
} from '@bufbuild/cel';
import { noSuchOverload } from './errors.js';
import { celCompare, celEquals, isComparable, secondsNanos } from './values.js';

const { DYN, INT, BOOL } = CelScalar;
const addGroup = celEnv().funcs.find('_+_');

function listOf(target: CelValue): CelList {
  if (!isCelList(target)) throw noSuchOverload();
  return target;
}

function isSorted(list: CelList): boolean {
  let prev: CelValue | undefined;
  for (const next of list) {
    if (!isComparable(next)) throw noSuchOverload();
    if (prev !== undefined && celCompare(prev, next) === 1) return false;
    prev = next;
  }
  return true;
}

/** traits.Adder among the summable element types: int, uint, double, duration. */
function isSummable(v: CelValue): boolean {
  return (
    typeof v === 'bigint' ||
    typeof v === 'number' ||
    isCelUint(v) ||
    secondsNanos(v)?.type === 'google.protobuf.Duration'
  );
}

function sum(list: CelList): CelValue {
  let acc: CelValue | undefined;
  for (const next of list) {
    if (!isSummable(next)) throw noSuchOverload();
    if (acc === undefined) {
      acc = next;
      continue;
    }
    const added = addGroup?.call(0, undefined, [acc, next]);
    if (added === undefined) throw noSuchOverload();
    if (isCelError(added)) throw added;
    acc = added;
  }
  return acc ?? 0n;
}

/** lists.go cmp: keeps the first element unless a later one compares `prefer` against it. */
function pick(list: CelList, op: 'min' | 'max'): CelValue {
  const prefer = op === 'min' ? 1 : -1;
  let result: CelValue | undefined;
  for (const next of list) {
    if (!isComparable(next)) throw noSuchOverload();
    if (result === undefined || celCompare(result, next) === prefer) result = next;
  }
  if (result === undefined) throw new Error(`${op} called on empty list`);
  return result;
}

function indexOf(list: CelList, item: CelValue, last: boolean): bigint {
  const items = Array.from(list);
  if (last) {
    for (let i = items.length - 1; i >= 0; i--) if (celEquals(items[i]!, item)) return BigInt(i);
  } else {
    for (let i = 0; i < items.length; i++) if (celEquals(items[i]!, item)) return BigInt(i);
  }
  return -1n;
}

export const listsLibrary: readonly CelFunc[] = [
  celMethod('isSorted', DYN, [], BOOL, function () {
    return isSorted(listOf(this));
  }),
  celMethod('sum', DYN, [], DYN, function () {
    return sum(listOf(this));
  }),
  celMethod('min', DYN, [], DYN, function () {
    return pick(listOf(this), 'min');
  }),
  celMethod('max', DYN, [], DYN, function () {
    return pick(listOf(this), 'max');
  }),
  celMethod('indexOf', DYN, [DYN], INT, function (item) {
    return indexOf(listOf(this), item, false);
  }),
  celMethod('lastIndexOf', DYN, [DYN], INT, function (item) {
    return indexOf(listOf(this), item, true);
  }),
];
