/**
 * Upstream's computeConcurrencyAllocation (conc_alloc.go): shares `requiredSum` seats among
 * priority levels in proportion to their targets (one fair proportion for all), each kept within
 * its bounds. Returns the allocations and the fair proportion; throws on an impossible problem.
 */

export interface AllocationItem {
  readonly target: number;
  readonly lowerBound: number;
  readonly upperBound: number;
}

const minTarget = 0.001;
const epsilon = 0.0000001;

export function computeConcurrencyAllocation(
  requiredSum: number,
  items: readonly AllocationItem[],
): { allocs: number[]; fairProp: number } {
  if (requiredSum < 0) throw new Error('negative sums are not supported');
  let lowSum = 0;
  let highSum = 0;
  let targetSum = 0;
  let ubMin = Number.MAX_VALUE;
  let ubMax = -Number.MAX_VALUE;
  let lbMin = Number.MAX_VALUE;
  let lbMax = -Number.MAX_VALUE;
  const rel = items.map((item, idx) => {
    if (item.lowerBound < 0)
      throw new Error(`lower bound ${idx} is ${item.lowerBound} but negative lower bounds are not allowed`);
    if (item.target < item.lowerBound)
      throw new Error(
        `target ${idx} is ${item.target}, which is below its lower bound of ${item.lowerBound}`,
      );
    if (item.upperBound < item.lowerBound)
      throw new Error(
        `upper bound ${idx} is ${item.upperBound} but should not be less than the lower bound ${item.lowerBound}`,
      );
    const target = Math.max(item.target, minTarget);
    lowSum += item.lowerBound;
    highSum += item.upperBound;
    targetSum += target;
    const r = { target, lower: item.lowerBound / target, upper: item.upperBound / target };
    ubMin = Math.min(ubMin, r.upper);
    ubMax = Math.max(ubMax, r.upper);
    lbMin = Math.min(lbMin, r.lower);
    lbMax = Math.max(lbMax, r.lower);
    return r;
  });
  if (lbMax > 1)
    throw new Error(
      `lbRange.max-1=${lbMax - 1}, which is impossible because lbRange.max can not be greater than 1`,
    );
  if (lowSum - requiredSum > epsilon)
    throw new Error(`lower bounds sum to ${lowSum}, which is higher than the required sum of ${requiredSum}`);
  if (requiredSum - highSum > epsilon)
    throw new Error(`upper bounds sum to ${highSum}, which is lower than the required sum of ${requiredSum}`);
  if (requiredSum === 0) return { allocs: items.map(() => 0), fairProp: 0 };
  if (lowSum - requiredSum > -epsilon) return { allocs: items.map((i) => i.lowerBound), fairProp: lbMin };
  if (requiredSum - highSum > -epsilon) return { allocs: items.map((i) => i.upperBound), fairProp: ubMax };
  let fairProp = requiredSum / targetSum;
  if (lbMax <= fairProp && fairProp <= ubMin) {
    return { allocs: rel.map((r) => r.target * fairProp), fairProp };
  }
  // The bounds (as proportions), ascending: lower bounds open a class to the proportion, upper close it.
  const bounds = rel
    .flatMap((r, idx) => [
      { prop: r.lower, idx, lower: true },
      { prop: r.upper, idx, lower: false },
    ])
    .sort((a, b) => a.prop - b.prop);
  let sumSoFar = lowSum;
  fairProp = lbMin;
  let sensitiveTargetSum = 0;
  let deltaTargetSum = 0;
  let sensitive = 0;
  let deltaSensitive = 0;
  let next = 0;
  while (sumSoFar < requiredSum) {
    let nextBound = 0;
    for (;;) {
      sensitiveTargetSum += deltaTargetSum;
      sensitive += deltaSensitive;
      const b = bounds[next];
      if (b === undefined)
        throw new Error('impossible: ran out of bounds to consider in bound-constrained problem');
      nextBound = b.prop;
      const t = rel[b.idx]!.target;
      deltaSensitive = b.lower ? 1 : -1;
      deltaTargetSum = b.lower ? t : -t;
      next++;
      if (nextBound > fairProp) break;
    }
    if (sensitive === 0) {
      fairProp = nextBound;
      continue;
    }
    const nextProp = fairProp + (requiredSum - sumSoFar) / sensitiveTargetSum;
    if (nextProp <= nextBound) {
      fairProp = nextProp;
      break;
    }
    sumSoFar += (nextBound - fairProp) * sensitiveTargetSum;
    fairProp = nextBound;
  }
  return {
    allocs: items.map((item, idx) =>
      Math.max(item.lowerBound, Math.min(item.upperBound, fairProp * rel[idx]!.target)),
    ),
    fairProp,
  };
}
