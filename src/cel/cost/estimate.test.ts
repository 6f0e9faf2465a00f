// Static cost estimates against upstream's expected values (AM-03): apiserver v0.27.16
// pkg/cel/library/cost_test.go (estimated costs) with its test size estimator.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from '@bufbuild/cel';
import { checkExpr } from '../checker/checker.js';
import { CheckerEnv } from '../checker/env.js';
import { AUTHORIZER_TYPE } from '../checker/k8s-library.js';
import { type SizeEstimate, MAX_UINT64, estimateCost, est } from './estimate.js';
import { LibraryCostEstimator } from './library-cost.js';

// cost_test.go's testCostEstimator: strings and bytes of unknown size are at most 12 long.
const testSizes = new LibraryCostEstimator({
  estimateSize: (node): SizeEstimate | undefined =>
    node.type?.kind === 'primitive' && (node.type.name === 'string' || node.type.name === 'bytes')
      ? est(0n, 12n)
      : undefined,
});
// cel.NewEnv defaults: no homogeneous literal requirement.
const env = new CheckerEnv({
  homogeneousAggregateLiterals: false,
  variables: new Map([['authorizer', AUTHORIZER_TYPE]]),
});

function cost(source: string): [bigint, bigint] {
  const parsed = parse(source);
  const checked = checkExpr(parsed.expr, parsed.sourceInfo, env);
  assert.deepEqual(checked.issues, [], source);
  const c = estimateCost(parsed.expr, checked, testSizes);
  return [c.min, c.max];
}

const lists = {
  int: '[1, 2, 3, 4, 5]',
  uint: '[uint(1), uint(2), uint(3), uint(4), uint(5)]',
  double: '[1.0, 2.0, 3.0, 4.0, 5.0]',
  bool: '[false, true, false, true, false]',
  string: "['012345678901', '012345678901', '012345678901', '012345678901', '012345678901']",
  bytes:
    "[bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901')]",
  duration: "[duration('1s'), duration('2s'), duration('3s'), duration('4s'), duration('5s')]",
  timestamp:
    "[timestamp('2011-01-01T00:00:00.000+01:00'), timestamp('2011-01-02T00:00:00.000+01:00'), " +
    "timestamp('2011-01-03T00:00:00.000+01:00'), timestamp('2011-01-04T00:00:00.000+01:00'), " +
    "timestamp('2011-01-05T00:00:00.000+01:00')]",
};

describe('cost estimates: lists library (TestListsCost, TestIndexOfCost)', () => {
  const sum: [string, [bigint, bigint]][] = [
    [lists.int, [15n, 15n]],
    [lists.uint, [20n, 20n]],
    [lists.double, [15n, 15n]],
    [lists.duration, [20n, 20n]],
  ];
  for (const [list, want] of sum) it(`${list}.sum()`, () => assert.deepEqual(cost(`${list}.sum()`), want));
  const comparable: [string, [bigint, bigint]][] = [
    [lists.int, [15n, 15n]],
    [lists.uint, [20n, 20n]],
    [lists.double, [15n, 15n]],
    [lists.bool, [15n, 15n]],
    [lists.string, [15n, 25n]],
    [lists.bytes, [25n, 35n]],
    [lists.duration, [20n, 20n]],
    [lists.timestamp, [20n, 20n]],
  ];
  for (const op of ['.isSorted()', '.max()', '.min()']) {
    for (const [list, want] of comparable) it(`${list}${op}`, () => assert.deepEqual(cost(list + op), want));
  }
  const indexOf: [string, string, [bigint, bigint]][] = [
    [lists.int, '3', [15n, 15n]],
    [lists.uint, 'uint(3)', [21n, 21n]],
    [lists.double, '3.0', [15n, 15n]],
    [lists.bool, 'true', [15n, 15n]],
    [lists.string, "'x'", [15n, 25n]],
    [lists.bytes, "bytes('x')", [26n, 36n]],
    [lists.duration, "duration('3s')", [21n, 21n]],
    [lists.timestamp, "timestamp('2011-01-03T00:00:00.000+01:00')", [21n, 21n]],
    ["'01234567890123456789012345678901234567890123456789'", "'123'", [5n, 5n]],
  ];
  for (const fn of ['indexOf', 'lastIndexOf']) {
    for (const [list, param, want] of indexOf) {
      const source = `${list}.${fn}(${param})`;
      it(source, () => assert.deepEqual(cost(source), want));
    }
  }
});

describe('cost estimates: urls, strings, regex and authz (TestURLsCost, TestStringLibrary, TestAuthzLibrary)', () => {
  const cases: [string, [bigint, bigint]][] = [
    ...['getScheme', 'getHostname', 'getHost', 'getPort', 'getEscapedPath', 'getQuery'].map(
      (op): [string, [bigint, bigint]] => [`url('https:://kubernetes.io/').${op}()`, [4n, 4n]],
    ),
    ["'ABCDEFGHIJ abcdefghij'.lowerAscii()", [3n, 3n]],
    ["'ABCDEFGHIJ abcdefghij'.lowerAscii() == 'abcdefghij ABCDEFGHIJ'.lowerAscii()", [7n, 9n]],
    ["'ABCDEFGHIJ abcdefghij'.upperAscii()", [3n, 3n]],
    ["'ABCDEFGHIJ abcdefghij'.upperAscii() == 'abcdefghij ABCDEFGHIJ'.upperAscii()", [7n, 9n]],
    ["'abc 123 def 123'.replace('123', '456')", [3n, 3n]],
    ["'abc 123 def 123'.replace('', 'x')", [3n, 3n]],
    ["'abc 123 def 123'.replace('123', '')", [3n, 3n]],
    ["'abc 123 def 123'.replace('123', '456', 1)", [3n, 3n]],
    ["'abc 123 def 123'.split(' ')", [3n, 3n]],
    ["'abc 123 def 123'.split(' ', 1)", [3n, 3n]],
    ["'abc 123 def 123'.substring(5)", [2n, 2n]],
    ["'abc 123 def 123'.substring(5, 8)", [2n, 2n]],
    ["'  abc 123 def 123  '.trim()", [2n, 2n]],
    ["['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join(' ')", [11n, 23n]],
    ["['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join()", [10n, 22n]],
    ["'abc 123 def 123'.find('123')", [2n, 2n]],
    ["'abc 123 def 123'.findAll('123')", [2n, 2n]],
    ["'abc 123 def 123'.findAll('123', 1)", [2n, 2n]],
    ["authorizer.path('/healthz')", [2n, 2n]],
    [
      "authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend')",
      [6n, 6n],
    ],
    ["authorizer.path('/healthz').check('get').allowed()", [350003n, 350003n]],
    [
      "authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend').check('create').allowed()",
      [350007n, 350007n],
    ],
  ];
  for (const [source, want] of cases) it(source, () => assert.deepEqual(cost(source), want));
});

describe('cost estimates: core rules (cel-go checker/cost.go)', () => {
  const plain = new LibraryCostEstimator();
  const varEnv = new CheckerEnv({
    variables: new Map([
      ['s', { kind: 'primitive', name: 'string' } as const],
      ['l', { kind: 'list', elem: { kind: 'primitive', name: 'int' } } as const],
    ]),
  });
  const costOf = (source: string): [bigint, bigint] => {
    const parsed = parse(source);
    const checked = checkExpr(parsed.expr, parsed.sourceInfo, varEnv);
    const c = estimateCost(parsed.expr, checked, plain);
    return [c.min, c.max];
  };
  it('constants are free, identifiers cost one', () => assert.deepEqual(costOf('1'), [0n, 0n]));
  it('&& short-circuits for the minimum', () => assert.deepEqual(costOf('true && l.size() > 0'), [0n, 3n]));
  // range 1 + init 0 + result 1; each of [0, max] iterations: condition 2, step [1, 3].
  it('an unbounded list makes comprehensions unbounded', () =>
    assert.deepEqual(costOf('l.all(x, x > 0)'), [2n, MAX_UINT64]));
  // (size + 1, saturated) × 0.1 for the string times ceil(3 × 0.25) for the regex, plus 1 for `s`.
  it('an unbounded string makes matches nearly unbounded', () =>
    assert.deepEqual(costOf("s.matches('a+')"), [2n, 1844674407370955265n]));
  // list 10 + result 1, then 3 × ([1, 3] + 2).
  it('a literal list bounds the loop', () => assert.deepEqual(costOf('[1, 2, 3].all(x, x > 0)'), [20n, 26n]));
});
