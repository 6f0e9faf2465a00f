// CRD-time x-kubernetes-validations checks, ported from apiextensions-apiserver v0.27
// pkg/apis/apiextensions/validation/validation_test.go (transition rules on uncorrelatable parts,
// per-rule and per-CRD cost limits (AM-03), messageExpression errors (AM-05), rules at every
// schema level) and compilation_test.go TestCelCompilation / TestCostEstimation.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FieldError, FieldPath } from '../../machinery/field/errors.js';
import { newStructural } from '../../apis/apiextensions/schema/structural.js';
import { schemaDeclType } from '../schema/schema-decl-type.js';
import type { JsonSchema } from '../schema/structural.js';
import { compileRules, compileSchemaRules, costErrorMessage } from './index.js';
import { schemaRules } from './rules.js';

type S = Record<string, unknown>;
const base = FieldPath.root('spec', 'validation', 'openAPIV3Schema');
const P = 'spec.validation.openAPIV3Schema';
const rules = (...rs: (string | S)[]): S => ({
  'x-kubernetes-validations': rs.map((r) => (typeof r === 'string' ? { rule: r } : r)),
});
const object = (properties: Record<string, S>, more: S = {}): S => ({ type: 'object', properties, ...more });

/** [type, field] of each error, as upstream's validationMatch. */
function check(schema: S, options: { schemaErrors?: FieldError[] } = {}): [string, string][] {
  return compileSchemaRules(schema as JsonSchema, base, options).map((e) => [e.type, e.field]);
}

describe('compileSchemaRules: transition rules (oldSelf) placement', () => {
  const item = (listType: string | undefined): S => ({
    type: 'array',
    ...(listType !== undefined ? { 'x-kubernetes-list-type': listType } : {}),
    ...(listType === 'map' ? { 'x-kubernetes-list-map-keys': ['k'] } : {}),
    items:
      listType === 'map'
        ? object({ k: { type: 'string', maxLength: 10 } }, { required: ['k'], ...rules('self == oldSelf') })
        : listType === 'set'
          ? { type: 'string', maxLength: 10, ...rules('self == oldSelf') }
          : { type: 'string', maxLength: 10, ...rules('self == oldSelf') },
  });
  for (const [name, listType, want] of [
    ['forbid on element of list of type atomic', 'atomic', true],
    ['forbid on element of list defaulting to type atomic', undefined, true],
    ['forbid on element of list of type set', 'set', true],
    ['allow on element of list of type map', 'map', false],
  ] as const) {
    it(name, () => {
      const errs = compileSchemaRules(object({ value: item(listType) }), base);
      if (!want) return assert.deepEqual(errs.map(String), []);
      assert.deepEqual(errs.map(String), [
        `${P}.properties[value].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${P}.properties[value]`,
      ]);
    });
  }
  it('allow on the list itself (atomic, set, map)', () => {
    for (const t of ['atomic', 'set']) {
      const s = object({
        value: {
          type: 'array',
          maxItems: 10,
          'x-kubernetes-list-type': t,
          items: { type: 'string', maxLength: 10 },
          ...rules('self == oldSelf'),
        },
      });
      assert.deepEqual(check(s), []);
    }
  });
  it('maps: granular/atomic/default allowed, unrecognized forbidden', () => {
    const map = (mapType: string | undefined): S =>
      object({
        value: {
          type: 'object',
          ...(mapType !== undefined ? { 'x-kubernetes-map-type': mapType } : {}),
          properties: { sub: { type: 'string', maxLength: 10, ...rules('self == oldSelf') } },
        },
      });
    assert.deepEqual(check(map('granular')), []);
    assert.deepEqual(check(map('atomic')), []);
    assert.deepEqual(check(map(undefined)), []);
    assert.deepEqual(check(map('future')), [
      ['FieldValueInvalid', `${P}.properties[value].properties[sub].x-kubernetes-validations[0].rule`],
    ]);
  });
  it('keeps the highest uncorrelatable path', () => {
    const s = object({
      a: {
        type: 'array',
        items: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          items: object({ k: { type: 'string', maxLength: 5 } }, rules('self == oldSelf')),
        },
      },
    });
    const errs = compileSchemaRules(s as JsonSchema, base).map(String);
    assert.equal(errs.length, 1);
    assert.ok(errs[0]?.endsWith(`within ${P}.properties[a]`), errs[0]);
  });
});

describe('compileSchemaRules: cost limits (AM-03)', () => {
  const doubleNested = (keySchema: S, outer: S = {}, inner: S = {}): S =>
    object({
      value: {
        type: 'array',
        ...outer,
        items: {
          type: 'object',
          ...inner,
          additionalProperties: { type: 'object', required: ['key'], properties: { key: keySchema } },
        },
        ...rules('self.all(x, x.all(y, x[y].key == x[y].key))'),
      },
    });
  const rule = `${P}.properties[value].x-kubernetes-validations[0].rule`;
  it('forbid double-nested rule with no limit set', () => {
    assert.deepEqual(check(doubleNested({ type: 'string' })), [
      ['FieldValueForbidden', rule],
      ['FieldValueForbidden', rule],
      ['FieldValueForbidden', P],
    ]);
  });
  it('forbid double-nested rule with one limit set', () => {
    assert.deepEqual(check(doubleNested({ type: 'string', maxLength: 10 })), [
      ['FieldValueForbidden', rule],
      ['FieldValueForbidden', rule],
      ['FieldValueForbidden', P],
    ]);
  });
  it('allow double-nested rule with three limits set', () => {
    assert.deepEqual(
      check(doubleNested({ type: 'string', maxLength: 10 }, { maxItems: 10 }, { maxProperties: 10 })),
      [],
    );
  });
  it('allow double-nested rule with one limit set on outermost array', () => {
    assert.deepEqual(check(doubleNested({ type: 'number' }, { maxItems: 4 })), []);
  });
  it('cardinality of 1 under the root object', () => {
    assert.deepEqual(check(object({ value: { type: 'integer', ...rules('self < 1024') } })), []);
  });
  it('forbid validation rules where cost total exceeds total limit', () => {
    const s = object({
      list: {
        type: 'array',
        maxItems: 100000,
        items: { type: 'string', maxLength: 5000, ...rules("self.contains('keyword')") },
      },
      map: {
        type: 'object',
        maxProperties: 1000,
        additionalProperties: { type: 'string', maxLength: 5000, ...rules("self.contains('keyword')") },
      },
      field: { type: 'integer', ...rules('self > 50 && self < 100') },
    });
    const errs = compileSchemaRules(s as JsonSchema, base).map(String);
    assert.deepEqual(errs, [
      `${P}.properties[list].items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 20.0x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
      `${P}.properties[list].items.x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `${P}.properties[map].additionalProperties.x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `${P}: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 2.0x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
    ]);
  });
  it('cost factors print as upstream (%f below 1.5x, %.1f up to 100x)', () => {
    assert.match(
      costErrorMessage('estimated rule cost', 12_000_000n, 10_000_000n),
      /factor of 1\.200000x \(/,
    );
    assert.match(costErrorMessage('estimated rule cost', 25_000_000n, 10_000_000n), /factor of 2\.5x \(/);
    assert.match(
      costErrorMessage('estimated rule cost', 10n ** 12n, 10_000_000n),
      /factor of more than 100x \(/,
    );
  });
});

describe('compileSchemaRules: messageExpression (AM-05)', () => {
  const f = (rule: S): S => object({ f: { type: 'string', maxLength: 5, ...rules(rule) } });
  const at = `${P}.properties[f].x-kubernetes-validations[0]`;
  it('valid messageExpression, with or without message', () => {
    assert.deepEqual(check(f({ rule: "self == 'a'", messageExpression: "'x is ' + self" })), []);
    assert.deepEqual(
      check(f({ rule: "self == 'a'", message: 'm', messageExpression: "'x is ' + self" })),
      [],
    );
  });
  it('syntax error', () => {
    const errs = compileSchemaRules(
      f({ rule: "self == 'a'", messageExpression: '"abc' }) as JsonSchema,
      base,
    ).map(String);
    assert.equal(errs.length, 1);
    assert.ok(
      errs[0]?.startsWith(
        `${at}.messageExpression: Invalid value: apiextensions.ValidationRule{Rule:"self == 'a'", Message:"", MessageExpression:"\\"abc"}: messageExpression compilation failed: ERROR: <input>:1:1:`,
      ),
      errs[0],
    );
  });
  it('must evaluate to a string', () => {
    assert.deepEqual(
      compileSchemaRules(f({ rule: "self == 'a'", messageExpression: '42' }) as JsonSchema, base).map(String),
      [
        `${at}.messageExpression: Invalid value: apiextensions.ValidationRule{Rule:"self == 'a'", Message:"", MessageExpression:"42"}: messageExpression must evaluate to a string`,
      ],
    );
  });
  it('exceeding the per-expression and per-CRD estimated cost limits', () => {
    const m = `${P}.properties[f].x-kubernetes-validations[0].messageExpression`;
    const s = object({
      f: {
        type: 'array',
        items: { type: 'string' },
        ...rules({ rule: 'true', messageExpression: "self.all(x, self.all(y, x == y)) ? 'a' : 'b'" }),
      },
    });
    assert.deepEqual(check(s), [
      ['FieldValueForbidden', m],
      ['FieldValueForbidden', m],
      ['FieldValueForbidden', P],
    ]);
  });
  it('lowerAscii on a bounded string stays within the limit', () => {
    const s = object({
      f: {
        type: 'string',
        maxLength: 5000,
        ...rules({ rule: "self.lowerAscii() == 'x'", messageExpression: 'self.lowerAscii()' }),
      },
    });
    assert.deepEqual(check(s), []);
  });
});

describe('compileSchemaRules: rules at every level', () => {
  const nomatch = "found no matching overload for '_==_' applied to '(int, string)'";
  const cases: [string, S, string][] = [
    [
      'under array items',
      object({ f: { type: 'array', items: { type: 'integer', ...rules("self == 'abc'") } } }),
      `${P}.properties[f].items.x-kubernetes-validations[0].rule`,
    ],
    [
      'under array items, parent has rule',
      object({
        f: { type: 'array', items: { type: 'integer', ...rules("self == 'abc'") }, ...rules('1 == 1') },
      }),
      `${P}.properties[f].items.x-kubernetes-validations[0].rule`,
    ],
    [
      'under additionalProperties',
      object({ f: { type: 'object', additionalProperties: { type: 'integer', ...rules("self == 'abc'") } } }),
      `${P}.properties[f].additionalProperties.x-kubernetes-validations[0].rule`,
    ],
    [
      'under unescaped property name',
      object({ f: object({ m: { type: 'integer' } }, rules("self.m == 'abc'")) }),
      `${P}.properties[f].x-kubernetes-validations[0].rule`,
    ],
    [
      'under escaped property name',
      object({ 'f/2': object({ m: { type: 'integer' } }, rules("self.m == 'abc'")) }),
      `${P}.properties[f/2].x-kubernetes-validations[0].rule`,
    ],
    [
      'under unescapable property name, parent has rule',
      object({ 'f@2': object({ m: { type: 'integer' } }, rules("self.m == 'abc'")) }, rules('1 == 1')),
      `${P}.properties[f@2].x-kubernetes-validations[0].rule`,
    ],
  ];
  for (const [name, schema, field] of cases) {
    it(name, () => {
      const errs = compileSchemaRules(schema, base);
      assert.equal(errs.length, 1, errs.map(String).join('\n'));
      assert.equal(errs[0]?.field, field);
      assert.ok(errs[0]?.detail.includes(nomatch), errs[0]?.detail);
    });
  }
  it('metadata name is accessible at the root', () => {
    assert.deepEqual(check(object({}, rules("self.metadata.name == 'singleton'"))), []);
  });
  it('schema errors at or below a node skip its rules, not others', () => {
    const s = object({
      a: object({ b: { type: 'integer', ...rules("self == 'abc'") } }, rules('self.x == 1')),
      c: object({ d: { type: 'integer' } }, rules('self.x > 50')),
    });
    const schemaErrors = [
      new FieldError('FieldValueForbidden', `${P}.properties[a].additionalProperties`, '', 'x'),
    ];
    assert.deepEqual(check(s, { schemaErrors }), [
      ['FieldValueInvalid', `${P}.properties[a].properties[b].x-kubernetes-validations[0].rule`],
      ['FieldValueInvalid', `${P}.properties[c].x-kubernetes-validations[0].rule`],
    ]);
  });
  it('accepts the structural form (the apis seam)', () => {
    const json = object({ a: { type: 'integer', ...rules("self == 'abc'") } });
    assert.deepEqual(
      compileSchemaRules(newStructural(json as never), base).map(String),
      compileSchemaRules(json as JsonSchema, base).map(String),
    );
  });
  it('a compilation error prints the rule as Go %#v', () => {
    const errs = compileSchemaRules(
      object({ a: { type: 'integer', ...rules({ rule: 'self.x', message: 'm' }) } }) as JsonSchema,
      base,
    ).map(String);
    assert.deepEqual(errs, [
      `${P}.properties[a].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.x", Message:"m", MessageExpression:""}: compilation failed: ERROR: <input>:1:5: type 'primitive:INT64' does not support field selection\n | self.x\n | ....^`,
    ]);
  });
});

describe('TestCelCompilation', () => {
  type Want = 'ok' | `invalid:${string}` | `message:${string}` | 'transition' | 'empty';
  const cases: [string, S, Want[]][] = [
    [
      'valid object',
      object(
        { minReplicas: { type: 'integer' }, maxReplicas: { type: 'integer' } },
        rules('self.minReplicas < self.maxReplicas'),
      ),
      ['ok'],
    ],
    ['valid for string', { type: 'string', ...rules("self.startsWith('s')") }, ['ok']],
    ['valid for byte', { type: 'string', format: 'byte', ...rules("string(self).endsWith('s')") }, ['ok']],
    ['valid for boolean', { type: 'boolean', ...rules('self == true') }, ['ok']],
    ['valid for integer', { type: 'integer', ...rules('self > 0') }, ['ok']],
    ['valid for number', { type: 'number', ...rules('self > 1.0') }, ['ok']],
    [
      'valid nested object of object',
      object({ nestedObj: object({ val: { type: 'integer' } }) }, rules('self.nestedObj.val == 10')),
      ['ok'],
    ],
    [
      'valid nested object of array',
      object(
        { nestedObj: { type: 'array', items: { type: 'array', items: { type: 'string' } } } },
        rules('size(self.nestedObj[0]) == 10'),
      ),
      ['ok'],
    ],
    [
      'valid nested array of array',
      {
        type: 'array',
        items: { type: 'array', items: { type: 'array', items: { type: 'string' } } },
        ...rules('size(self[0][0]) == 10'),
      },
      ['ok'],
    ],
    [
      'valid map',
      {
        type: 'object',
        additionalProperties: { type: 'boolean', nullable: false },
        ...rules('size(self) > 0'),
      },
      ['ok'],
    ],
    [
      'invalid checking for number',
      { type: 'number', ...rules('size(self) == 10') },
      ['invalid:compilation failed'],
    ],
    [
      'valid for escaping',
      object(
        {
          namespace: { type: 'array', items: { type: 'string' } },
          if: { type: 'integer' },
          self: { type: 'integer' },
        },
        rules('size(self.__namespace__[0]) == 10', 'self.__if__ == 10', 'self.self == 10'),
      ),
      ['ok', 'ok', 'ok'],
    ],
    [
      'invalid for escaping',
      object(
        {
          namespace: { type: 'array', items: { type: 'string' } },
          if: { type: 'integer' },
          self: { type: 'integer' },
        },
        rules('size(self.namespace[0]) == 10', 'self.if == 10', 'self == 10'),
      ),
      [
        "invalid:undefined field 'namespace'",
        "invalid:undefined field 'if'",
        'invalid:found no matching overload',
      ],
    ],
    [
      'transition rule identified',
      { type: 'integer', ...rules('self > 0', 'self >= oldSelf') },
      ['ok', 'transition'],
    ],
    ['whitespace-only rule', { type: 'object', properties: {}, ...rules(' \t') }, ['empty']],
    [
      'expression must evaluate to bool',
      { type: 'integer', ...rules('42') },
      ['invalid:must evaluate to a bool'],
    ],
    [
      'messageExpression inclusion',
      {
        type: 'string',
        ...rules({ rule: "self.startsWith('s')", messageExpression: `"scoped field should start with 's'"` }),
      },
      ['ok'],
    ],
    [
      'messageExpression must evaluate to a string',
      { type: 'integer', ...rules({ rule: 'self == 5', messageExpression: '42' }) },
      ['message:must evaluate to a string'],
    ],
    [
      'messageExpression syntax error',
      { type: 'number', ...rules({ rule: 'self < 32.0', messageExpression: '"abc' }) },
      ['message:messageExpression compilation failed'],
    ],
  ];
  for (const [name, schema, wants] of cases) {
    it(name, () => {
      const s = schema as JsonSchema;
      const results = compileRules(schemaRules(s), schemaDeclType(s, false)!);
      assert.equal(results.length, wants.length);
      wants.forEach((want, i) => {
        const r = results[i]!;
        if (want === 'empty') return assert.ok(r.program === undefined && r.error === undefined);
        if (want.startsWith('invalid:')) {
          assert.equal(r.error?.type, 'Invalid');
          return assert.ok(r.error.detail.includes(want.slice(8)), r.error.detail);
        }
        if (want.startsWith('message:')) {
          assert.equal(r.error, undefined);
          return assert.ok(
            r.messageExpressionError?.detail.includes(want.slice(8)),
            r.messageExpressionError?.detail,
          );
        }
        assert.equal(r.error, undefined, r.error?.detail);
        assert.ok(r.program !== undefined);
        assert.equal(r.transitionRule, want === 'transition');
      });
    });
  }
});

describe('TestCostEstimation (AM-03)', () => {
  const array = (items: S, rule: string, maxItems?: number): S => ({
    type: 'array',
    items,
    ...(maxItems !== undefined ? { maxItems } : {}),
    ...rules(rule),
  });
  const map = (values: S, rule: string, maxProperties?: number): S => ({
    type: 'object',
    additionalProperties: values,
    ...(maxProperties !== undefined ? { maxProperties } : {}),
    ...rules(rule),
  });
  const string = (rule: string, maxLength?: number): S => ({
    type: 'string',
    ...(maxLength !== undefined ? { maxLength } : {}),
    ...rules(rule),
  });
  const cases: [string, (max?: number) => S, bigint, number, bigint][] = [
    ['number array with all', (m) => array({ type: 'number' }, 'self.all(x, true)', m), 4718591n, 10, 32n],
    ['string array with all', (m) => array({ type: 'string' }, 'self.all(x, true)', m), 3145727n, 20, 62n],
    ['boolean array with all', (m) => array({ type: 'boolean' }, 'self.all(x, true)', m), 1887437n, 5, 17n],
    ['map of numbers with all', (m) => map({ type: 'number' }, 'self.all(x, true)', m), 1348169n, 10, 32n],
    ['map of numbers with has', (m) => map({ type: 'number' }, 'has(self.x)', m), 0n, 100, 0n],
    ['map of strings with all', (m) => map({ type: 'string' }, 'self.all(x, true)', m), 1179647n, 3, 11n],
    ['string with contains', (m) => string("self.contains('test')", m), 314574n, 10, 5n],
    ['string with startsWith', (m) => string("self.startsWith('test')", m), 2n, 15, 2n],
    ['concat string', (m) => string('size(self + "hello") > size("hello")', m), 314578n, 4, 7n],
    ['index of array with numbers', (m) => array({ type: 'number' }, 'self[1] == 0.0', m), 2n, 5000, 2n],
    [
      'O(n^2) loop with numbers (set)',
      (m) => array({ type: 'number' }, 'self.all(x, self.all(y, true))', m),
      -1n,
      10,
      352n,
    ],
    ['regex matches simple', (m) => string('self.matches("x")', m), 314574n, 50, 22n],
  ];
  for (const [name, gen, calc, max, set] of cases) {
    it(name, () => {
      for (const [s, want] of [
        [gen(), calc],
        [gen(max), set],
      ] as const) {
        if (want < 0n) continue;
        const js = s as JsonSchema;
        const [r] = compileRules(schemaRules(js), schemaDeclType(js, false)!);
        assert.equal(r?.error, undefined, r?.error?.detail);
        assert.equal(r?.maxCost, want);
      }
    });
  }
});
