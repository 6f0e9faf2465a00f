// AM-03: runtime cost. Expected numbers are upstream's actual costs from apiserver v0.27.16
// pkg/cel/library/cost_test.go (run without OptOptimize, as there), plus cel-go v0.12.7
// runtimecost.go rules for the standard library.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { evalCel } from './test-helpers.js';
import type { CelAuthorizer } from '../library/authz.js';

const allowAll: CelAuthorizer = { authorize: () => ({ decision: 'allow', reason: '' }) };

function cost(expr: string, optimize = false): number {
  const r = evalCel(expr, {}, { optimize, authorizer: allowAll, variables: ['authorizer'] });
  assert.ok('value' in r, `${expr}: ${'error' in r ? r.error.message : ''}`);
  return r.cost;
}

const intList = '[1, 2, 3, 4, 5]';
const uintList = '[uint(1), uint(2), uint(3), uint(4), uint(5)]';
const doubleList = '[1.0, 2.0, 3.0, 4.0, 5.0]';
const boolList = '[false, true, false, true, false]';
const stringList = "['012345678901', '012345678901', '012345678901', '012345678901', '012345678901']";
const bytesList =
  "[bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901')]";
const durationList = "[duration('1s'), duration('2s'), duration('3s'), duration('4s'), duration('5s')]";
const timestampList =
  "[timestamp('2011-01-01T00:00:00.000+01:00'), timestamp('2011-01-02T00:00:00.000+01:00'), " +
  "timestamp('2011-01-03T00:00:00.000+01:00'), timestamp('2011-01-04T00:00:00.000+01:00'), " +
  "timestamp('2011-01-05T00:00:00.000+01:00')]";
const stringLiteral = "'01234567890123456789012345678901234567890123456789'";

describe('AM-03 runtime cost: lists library (cost_test.go TestListsCost)', () => {
  const sums: [string, number][] = [
    [intList, 15],
    [uintList, 20],
    [doubleList, 15],
    [durationList, 20],
  ];
  for (const [list, want] of sums) {
    it(`${list}.sum() costs ${want}`, () => assert.equal(cost(`${list}.sum()`), want));
  }
  const comparables: [string, number][] = [
    [intList, 15],
    [uintList, 20],
    [doubleList, 15],
    [boolList, 15],
    [stringList, 15],
    [bytesList, 25],
    [durationList, 20],
    [timestampList, 20],
  ];
  for (const op of ['.isSorted()', '.max()', '.min()']) {
    for (const [list, want] of comparables) {
      it(`${list}${op} costs ${want}`, () => assert.equal(cost(list + op), want));
    }
  }
});

describe('AM-03 runtime cost: indexOf (cost_test.go TestIndexOfCost)', () => {
  const cases: [string, string, number][] = [
    [intList, '3', 15],
    [uintList, 'uint(3)', 21],
    [doubleList, '3.0', 15],
    [boolList, 'true', 15],
    [stringList, "'x'", 15],
    [bytesList, "bytes('x')", 26],
    [durationList, "duration('3s')", 21],
    [timestampList, "timestamp('2011-01-03T00:00:00.000+01:00')", 21],
    [stringLiteral, "'123'", 5],
  ];
  for (const op of ['indexOf', 'lastIndexOf']) {
    for (const [list, param, want] of cases) {
      it(`${list}.${op}(${param}) costs ${want}`, () => assert.equal(cost(`${list}.${op}(${param})`), want));
    }
  }
});

describe('AM-03 runtime cost: urls (TestURLsCost)', () => {
  for (const op of ['getScheme', 'getHostname', 'getHost', 'getPort', 'getEscapedPath', 'getQuery']) {
    it(`url(...).${op}() costs 4`, () => assert.equal(cost(`url('https:://kubernetes.io/').${op}()`), 4));
  }
});

describe('AM-03 runtime cost: strings and regex (TestStringLibrary)', () => {
  const cases: [string, number][] = [
    ["'ABCDEFGHIJ abcdefghij'.lowerAscii()", 3],
    ["'ABCDEFGHIJ abcdefghij'.lowerAscii() == 'abcdefghij ABCDEFGHIJ'.lowerAscii()", 9],
    ["'ABCDEFGHIJ abcdefghij'.upperAscii()", 3],
    ["'ABCDEFGHIJ abcdefghij'.upperAscii() == 'abcdefghij ABCDEFGHIJ'.upperAscii()", 9],
    ["'abc 123 def 123'.replace('123', '456')", 3],
    ["'abc 123 def 123'.replace('', 'x')", 3],
    ["'abc 123 def 123'.replace('123', '')", 3],
    ["'abc 123 def 123'.replace('123', '456', 1)", 3],
    ["'abc 123 def 123'.split(' ')", 3],
    ["'abc 123 def 123'.split(' ', 1)", 3],
    ["'abc 123 def 123'.substring(5)", 2],
    ["'abc 123 def 123'.substring(5, 8)", 2],
    ["' abc 123 def 123 '.trim()", 2],
    ["['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join(' ')", 15],
    ["['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join()", 13],
    ["'abc 123 def 123'.find('123')", 2],
    ["'abc 123 def 123'.findAll('123')", 2],
    ["'abc 123 def 123'.findAll('123', 1)", 2],
  ];
  for (const [expr, want] of cases) {
    it(`${expr} costs ${want}`, () => assert.equal(cost(expr), want));
  }
});

describe('AM-03 runtime cost: authz (TestAuthzLibrary)', () => {
  const cases: [string, number][] = [
    ["authorizer.path('/healthz')", 2],
    [
      "authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend')",
      6,
    ],
    ["authorizer.path('/healthz').check('get').allowed()", 350003],
    [
      "authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend').check('create').allowed()",
      350007,
    ],
  ];
  for (const [expr, want] of cases) {
    it(`${expr} costs ${want}`, () => assert.equal(cost(expr), want));
  }
});

describe('AM-03 runtime cost: cel-go runtimecost.go rules', () => {
  const cases: [string, number][] = [
    ['1 + 2', 1],
    ["'abc' == 'abc'", 1],
    ["'abc'.startsWith('a')", 1],
    ["'a'.contains('a')", 1],
    ["'abc' + 'def'", 1],
    ['[1, 2, 3][0]', 12],
    ['{"a": 1}["a"]', 32],
    ['true ? 1 : 2', 1],
    ['[1, 2].all(x, x > 0)', 21],
    ['[1, 2].exists_one(x, x > 1)', 20],
    ['[1, 2].map(x, x * 2)', 49],
    ['2 in [1, 2, 3]', 13],
  ];
  for (const [expr, want] of cases) {
    it(`${expr} costs ${want}`, () => assert.equal(cost(expr), want));
  }
  it('OptOptimize folds constant literals and set membership', () => {
    assert.equal(cost('2 in [1, 2, 3]', true), 0);
    assert.equal(cost('[1, 2, 3][0]', true), 2);
    assert.equal(cost("int('1') + 1", true), 1);
  });
});

describe('AM-03 cost limit', () => {
  it("stops with cel-go's error once the limit is passed", () => {
    const r = evalCel("'abc'.size() + [1,2,3].size()", {}, { costLimit: 1 });
    assert.ok('error' in r);
    assert.equal(r.error.message, 'operation cancelled: actual cost limit exceeded');
    assert.equal(r.error.kind, 'costLimitExceeded');
  });
  it('a cost equal to the limit passes', () => {
    const r = evalCel("'abc'.size() + [1,2,3].size()", {}, { costLimit: 3 });
    assert.ok('value' in r);
    assert.equal(r.cost, 3);
  });
  it('errors absorbed by || do not hide the cancellation', () => {
    const big = Array.from({ length: 50 }, (_, i) => String(i)).join(', ');
    const r = evalCel(`[${big}].all(x, x >= 0) || true`, {}, { costLimit: 20, optimize: false });
    assert.ok('error' in r);
    assert.equal(r.error.kind, 'costLimitExceeded');
  });
  it('two authorizer checks fit a 1,000,000 limit, three do not', () => {
    const check = "authorizer.path('/a').check('get').allowed()";
    const opts = { authorizer: allowAll, costLimit: 1_000_000 };
    assert.ok('value' in evalCel(`${check} && ${check}`, {}, opts));
    const r = evalCel(`${check} && ${check} && ${check}`, {}, opts);
    assert.ok('error' in r && r.error.kind === 'costLimitExceeded');
  });
});
