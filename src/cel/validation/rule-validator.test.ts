// Ported from apiextensions-apiserver v0.27 pkg/apiserver/schema/cel/validation_test.go
// (TestValidationExpressions, TestValidationExpressionsAtSchemaLevels, TestCELValidationLimit,
// TestMessageExpression): rules over self/oldSelf, lists, list-maps, maps, int-or-string,
// messageExpression (AM-05), the cost budget and per-call limit (AM-03), errors not throws (AM-09).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FieldPath } from '../../machinery/field/errors.js';
import { CustomResourceRuleValidator, blockingError, RUNTIME_CEL_COST_BUDGET } from './index.js';
import { FieldError } from '../../machinery/field/errors.js';

type S = Record<string, unknown>;
const integerType: S = { type: 'integer' };
const numberType: S = { type: 'number' };
const stringType: S = { type: 'string' };
const booleanType: S = { type: 'boolean' };
const durationFormat: S = { type: 'string', format: 'duration' };
const dateTimeFormat: S = { type: 'string', format: 'date-time' };
const byteType: S = { type: 'string', format: 'byte' };
const intOrString: S = { 'x-kubernetes-int-or-string': true };
const listType = (items: S): S => ({ type: 'array', items });
const listSetType = (items: S): S => ({ type: 'array', items, 'x-kubernetes-list-type': 'set' });
const listMapType = (keys: string[], items: S): S => ({
  type: 'array',
  items,
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': keys,
});
const mapType = (values: S): S => ({ type: 'object', additionalProperties: values });
const objectType = (properties: Record<string, S>): S => ({ type: 'object', properties });
const withRule = (s: S, rule: string, more: S = {}): S => ({
  ...s,
  'x-kubernetes-validations': [{ rule, ...more }],
});
/** schemas(a, b, ...) / objs(x, y, ...): an object with val1, val2, ... as upstream's helpers. */
const schemas = (...types: S[]): S => objectType(Object.fromEntries(types.map((t, i) => [`val${i + 1}`, t])));
const objs = (...vals: unknown[]): S => Object.fromEntries(vals.map((v, i) => [`val${i + 1}`, v]));
const eqSelfAndLiteral = (a: string, b: string, lit: string): string =>
  `${a} == ${a} && ${b} == ${b} && ${a} == ${b} && ${a} == ${lit} && ${lit} == ${b}`;

const root = FieldPath.root('root');

function run(schema: S, obj: unknown, old?: unknown, isResourceRoot = false): string[] {
  const v = new CustomResourceRuleValidator(schema, { isResourceRoot });
  assert.ok(v.hasRules);
  return v.validate(obj, old, { path: root }).map(String);
}

interface Case {
  readonly name: string;
  readonly schema: S;
  readonly obj: unknown;
  readonly old?: unknown;
  readonly valid?: readonly string[];
  readonly errors?: Readonly<Record<string, string>>;
  /** Set while a dependency lacks the behaviour (the test still runs, reported as todo). */
  readonly todo?: string;
}

const cases: Case[] = [
  {
    name: 'integers',
    obj: objs(9007199254740991, 9007199254740991),
    schema: schemas(integerType, integerType),
    valid: [
      eqSelfAndLiteral('self.val1', 'self.val2', '9007199254740991'),
      'type(self.val1) == int',
      'self.val1 + 1 == 9007199254740992',
    ],
    errors: {
      '9223372036854775807 + self.val1 == 0': 'integer overflow',
      '1 / (self.val1 - self.val2) == 1': 'division by zero',
    },
  },
  {
    name: 'numbers',
    obj: objs(1.5, 1.5, 1),
    schema: schemas(numberType, numberType, numberType),
    valid: [
      eqSelfAndLiteral('self.val1', 'self.val2', '1.5'),
      'type(self.val1) == double',
      'type(self.val3) == double',
      'self.val3 == 1.0',
    ],
  },
  {
    name: 'numeric comparisons',
    obj: objs(5, 10, 15, 10.0),
    schema: schemas(integerType, integerType, integerType, numberType),
    valid: [
      'double(self.val1) < self.val4',
      'double(self.val2) == self.val4',
      'double(self.val3) > self.val4',
      'self.val1 < int(self.val4)',
      'self.val2 == int(self.val4)',
    ],
  },
  {
    name: 'unicode strings',
    obj: objs('Rook takes 👑', 'Rook takes 👑'),
    schema: schemas(stringType, stringType),
    valid: [
      eqSelfAndLiteral('self.val1', 'self.val2', "'Rook takes 👑'"),
      "self.val1.startsWith('Rook')",
      "self.val1.endsWith('👑')",
      "self.val1.matches('^[^0-9]*$')",
      'size(self.val1) == 12',
      "self.val1.charAt(3) == 'k'",
      "self.val1.indexOf('o', 2) == 2",
      "self.val1.replace(' ', 'x', 1) == 'Rookxtakes 👑'",
      "self.val1.split(' ', 2) == ['Rook', 'takes 👑']",
      "self.val1.substring(4, 10).trim() == 'takes'",
      "self.val1.upperAscii() == 'ROOK TAKES 👑'",
    ],
    errors: {
      "self.val1.matches(')')":
        'compile error: program instantiation failed: error parsing regexp: unexpected ): `)`',
    },
  },
  {
    name: 'bytes',
    obj: objs('QUI=', 'QUI='),
    schema: schemas(byteType, byteType),
    valid: [
      'self.val1 == self.val2',
      "self.val1 == b'AB'",
      'type(self.val1) == bytes',
      'size(self.val1) == 2',
    ],
  },
  {
    name: 'booleans',
    obj: objs(true, true, false),
    schema: schemas(booleanType, booleanType, booleanType),
    valid: [
      eqSelfAndLiteral('self.val1', 'self.val2', 'true'),
      'self.val1 != self.val3',
      'type(self.val1) == bool',
    ],
  },
  {
    name: 'duration and date-time formats',
    obj: objs('1h2m3s4ms', '2011-08-18T19:03:37.010000000+01:00'),
    schema: schemas(durationFormat, dateTimeFormat),
    valid: [
      "self.val1 == duration('1h2m') + duration('3s4ms')",
      'self.val1.getMinutes() == 62',
      "self.val2 == timestamp('2011-08-18T19:03:37.01+01:00')",
      'self.val2.getFullYear() == 2011',
    ],
  },
  {
    name: 'lists',
    obj: objs([1, 2, 3], [1, 2, 3]),
    schema: schemas(listType(integerType), listType(integerType)),
    valid: [
      eqSelfAndLiteral('self.val1', 'self.val2', '[1, 2, 3]'),
      '1 in self.val1',
      '!(0 in self.val1)',
      'self.val1 + self.val2 == [1, 2, 3, 1, 2, 3]',
      'self.val1.all(x, x > 0)',
      'self.val1.exists_one(x, x == 2)',
      'self.val1.map(x, x * 2) == [2, 4, 6]',
    ],
    errors: { "[1, 'a', false].filter(x, string(x) == 'a')": "expected type 'int' but found 'string'" },
  },
  {
    name: 'listSets',
    obj: objs(['a', 'b', 'c'], ['a', 'c', 'b']),
    schema: schemas(listSetType(stringType), listSetType(stringType)),
    valid: [
      "self.val1 == ['c', 'b', 'a']",
      'self.val1 == self.val2',
      "self.val1 + ['c', 'd'] == ['a', 'b', 'c', 'd']",
      "self.val1.join('-') == 'a-b-c'",
    ],
  },
  {
    name: 'listMaps',
    obj: {
      objs: [
        [
          { k: 'a', v: '1' },
          { k: 'b', v: '2' },
        ],
        [
          { k: 'b', v: '2' },
          { k: 'a', v: '1' },
        ],
        [
          { k: 'b', v: '3' },
          { k: 'a', v: '1' },
        ],
      ],
    },
    schema: objectType({ objs: listType(listMapType(['k'], objectType({ k: stringType, v: stringType }))) }),
    valid: ['self.objs[0] == self.objs[1]', 'self.objs[0] + self.objs[2] == self.objs[2]'],
    errors: { "self.objs[0] == {'k': 'a', 'v': '1'}": "no matching overload for '_==_'" },
  },
  {
    name: 'maps',
    obj: objs({ k1: 'a', k2: 'b' }, { k2: 'b', k1: 'a' }),
    schema: schemas(mapType(stringType), mapType(stringType)),
    valid: [
      'self.val1 == self.val2',
      "'k1' in self.val1",
      "!('k3' in self.val1)",
      "self.val1 == {'k1': 'a', 'k2': 'b'}",
    ],
    errors: { "{'k1': 'a', 'k2': 1, 'k2': false}": "expected type 'string' but found 'int'" },
  },
  {
    name: 'object access',
    obj: { a: { b: 1, d: { e: 'x' } } },
    schema: objectType({
      a: objectType({ b: integerType, c: integerType, d: objectType({ e: stringType }) }),
    }),
    valid: ['has(self.a.b)', '!has(self.a.c)', "self.a.d.e == 'x'"],
    errors: { 'self.a.c == 1': 'no such key: c' },
  },
  {
    name: 'string in intOrString',
    obj: { something: '25%' },
    schema: objectType({ something: intOrString }),
    valid: [
      "self.something == '25%'",
      'self.something != 1',
      "self.something == 1 || self.something == '25%'",
      "type(self.something) == string && self.something == '25%'",
      "self.something != ['anything']",
    ],
  },
  {
    name: 'int in intOrString',
    obj: { something: 1 },
    schema: objectType({ something: intOrString }),
    valid: [
      'self.something == 1',
      "self.something != 'some string'",
      'type(self.something) == int && self.something == 1',
    ],
  },
  {
    name: 'percent comparison using intOrString',
    obj: { min: '50%', current: 5, available: 10 },
    schema: objectType({ min: intOrString, current: integerType, available: integerType }),
    valid: [
      String.raw`type(self.min) == string && self.min.matches(r'(\d+(\.\d+)?%)')`,
      "type(self.min) == int ? self.current <= self.min : double(self.current) / double(self.available) >= double(self.min.replace('%', '')) / 100.0",
    ],
  },
  {
    name: 'transition rules',
    obj: { v: 'new' },
    old: { v: 'old' },
    schema: objectType({ v: stringType }),
    valid: ['oldSelf.v != self.v', "oldSelf.v == 'old' && self.v == 'new'"],
    errors: { 'oldSelf.v == self.v': 'failed rule: oldSelf.v == self.v' },
  },
  {
    name: 'authorizer is not supported for CRD Validation Rules',
    obj: {},
    old: {},
    schema: objectType({}),
    errors: {
      "authorizer.path('/healthz').check('get').isAllowed()": "undeclared reference to 'authorizer'",
    },
  },
];

describe('CustomResourceRuleValidator: TestValidationExpressions', () => {
  for (const tc of cases) {
    describe(tc.name, () => {
      for (const rule of tc.valid ?? []) {
        it(`valid: ${rule.slice(0, 100)}`, tc.todo !== undefined ? { todo: tc.todo } : {}, () => {
          assert.deepEqual(run(withRule(tc.schema, rule), tc.obj, tc.old), []);
        });
      }
      for (const [rule, want] of Object.entries(tc.errors ?? {})) {
        it(`error: ${rule.slice(0, 100)}`, () => {
          const errs = run(withRule(tc.schema, rule), tc.obj, tc.old, true);
          assert.ok(errs.length > 0, 'expected errors');
          for (const e of errs)
            assert.ok(e.includes('Invalid value') && e.includes(want), `${e} should contain ${want}`);
        });
      }
    });
  }
});

describe('transition rules and correlation', () => {
  it('skips transition rules without an old value, at no cost', () => {
    for (const [schema, obj] of [
      [stringType, 'exists'],
      [listType(stringType), []],
      [objectType({ f: stringType }), { f: 'exists' }],
    ] as const) {
      const v = new CustomResourceRuleValidator(withRule(schema, 'oldSelf == self'), {
        isResourceRoot: false,
      });
      const r = v.validateWithBudget(obj, undefined, { path: root });
      assert.deepEqual(r.errors, []);
      assert.equal(r.remainingBudget, RUNTIME_CEL_COST_BUDGET);
    }
  });

  it('correlates map-list items by key, not by index', () => {
    const schema = objectType({
      l: listMapType(
        ['k'],
        withRule(objectType({ k: stringType, v: integerType }), 'self.v >= oldSelf.v', {
          message: 'v may not decrease',
        }),
      ),
    });
    const old = {
      l: [
        { k: 'a', v: 1 },
        { k: 'b', v: 5 },
      ],
    };
    assert.deepEqual(
      run(
        schema,
        {
          l: [
            { k: 'b', v: 6 },
            { k: 'a', v: 1 },
            { k: 'c', v: 0 },
          ],
        },
        old,
      ),
      [],
    );
    assert.deepEqual(
      run(
        schema,
        {
          l: [
            { k: 'b', v: 4 },
            { k: 'a', v: 2 },
          ],
        },
        old,
      ),
      ['root.l[0]: Invalid value: "object": v may not decrease'],
    );
  });

  it('correlates multi-key map-lists', () => {
    const schema = listMapType(
      ['k1', 'k2'],
      withRule(objectType({ k1: stringType, k2: integerType, v: stringType }), 'self.v == oldSelf.v'),
    );
    const v = new CustomResourceRuleValidator(schema, { isResourceRoot: false });
    const errs = v
      .validate(
        [
          { k1: 'a', k2: 1, v: 'x' },
          { k1: 'a', k2: 2, v: 'y' },
        ],
        [{ k1: 'a', k2: 2, v: 'z' }],
        { path: root },
      )
      .map(String);
    assert.deepEqual(errs, ['root[1]: Invalid value: "object": failed rule: self.v == oldSelf.v']);
  });

  it('correlates granular maps by key; atomic lists never', () => {
    const rule = withRule(stringType, 'self == oldSelf', { message: 'immutable' });
    const schema = objectType({ m: mapType(rule), l: listType(rule) });
    assert.deepEqual(run(schema, { m: { a: 'x', b: 'y' }, l: ['q'] }, { m: { a: 'z' }, l: ['r'] }), [
      'root.m[a]: Invalid value: "string": immutable',
    ]);
  });

  it('does not correlate maps of an unknown map type', () => {
    const schema = objectType({
      m: { ...mapType(withRule(stringType, 'self == oldSelf')), 'x-kubernetes-map-type': 'other' },
    });
    assert.deepEqual(run(schema, { m: { a: 'x' } }, { m: { a: 'z' } }), []);
  });

  it('the resource root sees apiVersion, kind and metadata.name', () => {
    const schema = withRule(
      objectType({ spec: objectType({}) }),
      "self.metadata.name == 'x' && self.kind == 'K'",
    );
    assert.deepEqual(
      run(schema, { apiVersion: 'g/v1', kind: 'K', metadata: { name: 'x' }, spec: {} }, undefined, true),
      [],
    );
    const v = new CustomResourceRuleValidator(schema);
    assert.deepEqual(v.validate({ apiVersion: 'g/v1', kind: 'K', metadata: { name: 'y' } }).map(String), [
      `<nil>: Invalid value: "object": failed rule: self.metadata.name == 'x' && self.kind == 'K'`,
    ]);
  });

  it('embedded resources see their type and object meta', () => {
    const schema = objectType({
      e: withRule(
        { type: 'object', 'x-kubernetes-embedded-resource': true, properties: {} },
        "self.kind == 'Pod'",
      ),
    });
    assert.deepEqual(run(schema, { e: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } } }), []);
  });
});

describe('TestValidationExpressionsAtSchemaLevels', () => {
  const noOverload = "found no matching overload for '_==_' applied to '(int, string)'";
  const levels: [string, S, unknown, string][] = [
    [
      'under array items',
      objectType({ f: listType(withRule(integerType, "self == 'abc'")) }),
      { f: [1] },
      noOverload,
    ],
    [
      'under additionalProperties',
      objectType({ f: mapType(withRule(integerType, "self == 'abc'")) }),
      { f: { k: 1 } },
      noOverload,
    ],
    [
      'under an escaped field name',
      objectType({ 'f/2': withRule(objectType({ m: integerType }), "self.m == 'abc'") }),
      { 'f/2': { m: 1 } },
      noOverload,
    ],
    [
      'failing under an escaped field name',
      objectType({ 'f/2': withRule(objectType({ m: integerType }), 'self.m == 2') }),
      { 'f/2': { m: 1 } },
      'Invalid value: "object": failed rule: self.m == 2',
    ],
    [
      'under an unescapable field name',
      objectType({ 'a@b': withRule(objectType({ m: integerType }), "self.m == 'abc'") }),
      { 'a@b': { m: 1 } },
      noOverload,
    ],
    [
      'failing under an unescapable field name',
      objectType({ 'a@b': withRule(objectType({ m: integerType }), 'self.m == 2') }),
      { 'a@b': { m: 1 } },
      'Invalid value: "object": failed rule: self.m == 2',
    ],
  ];
  for (const [name, schema, obj, want] of levels) {
    it(name, () => {
      const errs = run(schema, obj, undefined, true);
      assert.equal(errs.length, 1, errs.join('\n'));
      assert.ok(errs[0]?.includes(want), errs[0]);
    });
  }

  it('matchExpressions rules', () => {
    const selector = (rule: string): S =>
      withRule(
        objectType({
          matchExpressions: listType(
            objectType({ key: stringType, operator: stringType, values: listType(stringType) }),
          ),
        }),
        rule,
      );
    const bad = { matchExpressions: [{ key: 'tier', operator: 'In', values: [] }] };
    const rule = `self.matchExpressions.all(rule, (rule.operator != "In" && rule.operator != "NotIn") || ((has(rule.values) && size(rule.values) > 0)))`;
    assert.deepEqual(run(selector(rule), bad, undefined, true), [
      `root: Invalid value: "object": failed rule: ${rule}`,
    ]);
    const keyRule = `self.matchExpressions.all(rule, size(rule.key) <= 63 && rule.key.matches("^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$"))`;
    assert.equal(
      run(selector(keyRule), { matchExpressions: [{ key: 'badkey!', operator: 'Exists', values: [] }] })
        .length,
      1,
    );
    assert.deepEqual(
      run(selector(keyRule), { matchExpressions: [{ key: 'tier', operator: 'Exists', values: [] }] }),
      [],
    );
  });

  it('runs rules in order and reports each failure', () => {
    const schema = {
      ...objectType({ a: integerType }),
      'x-kubernetes-validations': [
        { rule: 'self.a > 0', message: ' a must be positive ' },
        { rule: '' },
        { rule: 'self.a > 1' },
        { rule: 'self.a < 0 ||\n true' },
      ],
    };
    assert.deepEqual(run(schema, { a: 0 }), [
      'root: Invalid value: "object": a must be positive',
      'root: Invalid value: "object": failed rule: self.a > 1',
    ]);
  });

  it('values null are not validated', () => {
    const schema = objectType({ s: { ...withRule(stringType, "self == 'x'"), nullable: true } });
    assert.deepEqual(run(schema, { s: null }), []);
  });
});

describe('TestCELValidationLimit (AM-03)', () => {
  const schema = withRule(schemas(integerType), 'self.val1 > 0');
  it('a zero budget stops before the first rule', () => {
    const v = new CustomResourceRuleValidator(schema, { isResourceRoot: false });
    const r = v.validateWithBudget(objs(1), undefined, { path: root, costBudget: 0 });
    assert.deepEqual(r.errors.map(String), [
      'root: Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run',
    ]);
    assert.equal(r.remainingBudget, -1);
  });
  it('a per-call limit of 0 stops at the call cost', () => {
    const v = new CustomResourceRuleValidator(schema, { perCallLimit: 0 });
    const errs = v.validate(objs(1), undefined, { path: root }).map(String);
    assert.equal(errs.length, 1);
    assert.match(
      errs[0] ?? '',
      /no further validation rules will be run due to call cost exceeds limit for rule: self.val1 > 0$/,
    );
    assert.match(errs[0] ?? '', /'operation cancelled: actual cost limit exceeded'/);
  });
  it('a budget runs out across many list items', () => {
    const s = objectType({ l: listType(withRule(stringType, "self.startsWith('a')")) });
    const v = new CustomResourceRuleValidator(s, { isResourceRoot: false });
    const r = v.validateWithBudget({ l: Array.from({ length: 100 }, () => 'abc') }, undefined, {
      path: root,
      costBudget: 50,
    });
    assert.equal(r.remainingBudget, -1);
    assert.equal(r.errors.length, 1);
    assert.match(
      String(r.errors[0]),
      /^root\.l\[\d+\]: Invalid value: "string": validation failed due to running out of cost budget/,
    );
  });
  it('the rules of a whole object spend one budget', () => {
    const v = new CustomResourceRuleValidator(schema, { isResourceRoot: false });
    const r = v.validateWithBudget(objs(1), undefined, { path: root, costBudget: 100 });
    assert.deepEqual(r.errors, []);
    assert.ok(r.remainingBudget < 100 && r.remainingBudget > 90);
  });
});

describe('TestMessageExpression (AM-05)', () => {
  interface MsgCase {
    readonly name: string;
    readonly message?: string;
    readonly messageExpression: string;
    readonly costBudget: number;
    readonly perCallLimit?: number;
    readonly want: string;
    readonly remaining?: number;
    readonly todo?: string;
  }
  const msgCases: MsgCase[] = [
    {
      name: 'no cost error expected',
      messageExpression: '"static string"',
      costBudget: 300,
      want: 'static string',
      remaining: 300,
    },
    {
      name: 'messageExpression takes precedence over message',
      message: 'invisible',
      messageExpression: '"this is messageExpression"',
      costBudget: RUNTIME_CEL_COST_BUDGET,
      want: 'this is messageExpression',
    },
    {
      name: 'limit exceeded',
      messageExpression: '"string 1" + "string 2" + "string 3"',
      costBudget: 1,
      want: 'messageExpression evaluation failed due to running out of cost budget',
      remaining: -1,
    },
    {
      name: 'messageExpression budget (str concat)',
      messageExpression: '"str1 " + self.str',
      costBudget: 50,
      want: 'str1 a string',
      remaining: 46,
    },
    {
      name: 'runtime cost preserved if messageExpression fails during evaluation',
      message: 'message not messageExpression',
      messageExpression: '"str1 " + ["a", "b", "c", "d"][4]',
      costBudget: 50,
      want: 'message not messageExpression',
      remaining: 47,
    },
    {
      name: 'runtime cost preserved (no message set)',
      messageExpression: '"str1 " + ["a", "b", "c", "d"][4]',
      costBudget: 50,
      want: 'failed rule: false',
      remaining: 47,
    },
    {
      name: 'per-call limit exceeded during messageExpression execution',
      messageExpression: '"string 1" + "string 2" + "string 3"',
      costBudget: RUNTIME_CEL_COST_BUDGET,
      perCallLimit: 1,
      want: 'no further validation rules will be run due to call cost exceeds limit for messageExpression: "\\"string 1\\" + \\"string 2\\" + \\"string 3\\""',
      remaining: -1,
    },
    {
      name: 'no line breaks',
      message: 'message not messageExpression',
      messageExpression: '"str with \\na newline"',
      costBudget: RUNTIME_CEL_COST_BUDGET,
      want: 'message not messageExpression',
    },
    {
      name: 'no messages over 5120 bytes',
      message: 'message not messageExpression',
      messageExpression: `"${'a'.repeat(5121)}"`,
      costBudget: RUNTIME_CEL_COST_BUDGET,
      want: 'message not messageExpression',
    },
    {
      name: 'no empty string',
      message: 'message not messageExpression',
      messageExpression: 'string("")',
      costBudget: RUNTIME_CEL_COST_BUDGET,
      want: 'message not messageExpression',
    },
    {
      name: 'no blank string',
      message: 'message not messageExpression',
      messageExpression: 'string("     ")',
      costBudget: RUNTIME_CEL_COST_BUDGET,
      want: 'message not messageExpression',
    },
    {
      name: 'trimmed',
      messageExpression: '"  spaced  "',
      costBudget: RUNTIME_CEL_COST_BUDGET,
      want: 'root: Invalid value: "object": spaced',
    },
  ];
  for (const tc of msgCases) {
    it(tc.name, tc.todo !== undefined ? { todo: tc.todo } : {}, () => {
      const schema = withRule(objectType({ str: stringType }), 'false', {
        messageExpression: tc.messageExpression,
        ...(tc.message !== undefined ? { message: tc.message } : {}),
      });
      const v = new CustomResourceRuleValidator(schema, {
        isResourceRoot: false,
        ...(tc.perCallLimit !== undefined ? { perCallLimit: tc.perCallLimit } : {}),
      });
      const r = v.validateWithBudget({ str: 'a string' }, undefined, {
        path: root,
        costBudget: tc.costBudget,
      });
      assert.equal(r.errors.length, 1);
      assert.ok(String(r.errors[0]).includes(tc.want), String(r.errors[0]));
      if (tc.remaining !== undefined) assert.equal(r.remainingBudget, tc.remaining);
    });
  }
});

describe('never throws (AM-09)', () => {
  it('data that does not fit the schema fails the rule, not the request', () => {
    const schema = objectType({ d: withRule(durationFormat, "self > duration('1s')") });
    const errs = run(schema, { d: 'not a duration' });
    assert.equal(errs.length, 1);
    assert.match(
      errs[0] ?? '',
      /^root\.d: Invalid value: "string": .*evaluating rule: self > duration\('1s'\)$/,
    );
  });
  it('a field that does not fit fails only the rules that read it', () => {
    const schema = withRule(objectType({ d: durationFormat, n: integerType }), 'self.n > 0');
    assert.deepEqual(run(schema, { d: 'not a duration', n: 1 }), []);
    assert.deepEqual(
      run(withRule(objectType({ d: durationFormat, n: integerType }), "self.d > duration('1s')"), {
        d: 'x',
        n: 1,
      }),
      [`root: Invalid value: "object": no such key: d evaluating rule: self.d > duration('1s')`],
    );
  });
  it('a rule that does not compile is reported at validation time', () => {
    const errs = run(withRule(objectType({ a: integerType }), 'self.b == 1'), { a: 1 });
    assert.equal(errs.length, 1);
    assert.match(
      errs[0] ?? '',
      /^root: Invalid value: "object": rule compile error: compilation failed: ERROR: <input>:1:5: undefined field 'b'/,
    );
  });
  it('runtime overload errors on dyn values name the rule', () => {
    const errs = run(objectType({ x: withRule(intOrString, 'self + 1 > 0') }), { x: 'abc' });
    assert.deepEqual(errs, [
      `root.x: Invalid value: "": 'no such overload': call arguments did not match a supported operator, function or macro signature for rule: self + 1 > 0`,
    ]);
  });
});

describe('blockingError', () => {
  it('required, too long, too many and type errors block the rules', () => {
    assert.equal(blockingError([new FieldError('FieldValueInvalid', 'spec.a', 1, 'x')]), undefined);
    assert.equal(
      String(blockingError([new FieldError('FieldValueRequired', 'spec.a', '', '')])),
      '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    );
  });
});
