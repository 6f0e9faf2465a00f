// Result sizes of the Kubernetes library's replace() (apiserver v0.27.16 library/cost_test.go
// TestSize, AM-03).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type AstNode, type SizeEstimate, est } from './estimate.js';
import { LibraryCostEstimator } from './library-cost.js';

const node = (size: SizeEstimate): AstNode => ({
  path: undefined,
  type: undefined,
  expr: undefined,
  computedSize: () => size,
});

describe('LibraryCostEstimator result sizes (TestSize)', () => {
  const cases: [string, SizeEstimate, SizeEstimate[], SizeEstimate][] = [
    ['replace empty with char', est(3n), [est(0n), est(1n)], est(7n)],
    ['maybe replace char with empty', est(3n), [est(1n), est(0n)], est(0n, 3n)],
    ['maybe replace repeated', est(4n), [est(2n), est(4n)], est(4n, 8n)],
    ['maybe replace empty', est(4n), [est(0n, 1n), est(0n, 2n)], est(0n, 14n)],
    ['replace non-empty size range, maybe larger', est(4n), [est(1n), est(1n, 2n)], est(4n, 8n)],
    ['replace non-empty size range, maybe smaller', est(4n), [est(1n, 2n), est(1n)], est(2n, 4n)],
  ];
  const estimator = new LibraryCostEstimator();
  for (const [name, target, args, want] of cases) {
    it(name, () => {
      const result = estimator.estimateCallCost('replace', '', node(target), args.map(node));
      assert.deepEqual(result?.resultSize, want);
    });
  }
});
