// Compiling CEL rules as apiextensions-apiserver's compilation.go (AM-03, AM-05, AM-09):
// upstream's TestCostEstimation cases (compilation_test.go v0.27.16) and its error messages.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compileCel, maxCardinality, PER_CALL_LIMIT, ruleVariables } from './compile.js';
import { schemaDeclType } from './schema/schema-decl-type.js';
import { withTypeAndObjectMeta, type JsonSchema } from './schema/structural.js';
import { toCelValue } from './schema/values.js';

type Gen = (max: number | undefined) => { schema: JsonSchema; rule: string };

function typed(t: string): JsonSchema {
  if (t === 'duration' || t === 'date' || t === 'date-time') return { type: 'string', format: t };
  if (t === 'int-or-string') return { 'x-kubernetes-int-or-string': true };
  return { type: t };
}
const opt = (key: string, v: number | undefined): JsonSchema => (v === undefined ? {} : { [key]: v });

const genArrayWithRule =
  (t: string, rule: string): Gen =>
  (max) => ({ schema: { type: 'array', items: typed(t), ...opt('maxItems', max) }, rule });
const genArrayOfArraysWithRule =
  (t: string, rule: string): Gen =>
  (max) => ({
    schema: { type: 'array', items: { type: 'array', items: { type: t } }, ...opt('maxItems', max) },
    rule,
  });
const objectForMap: JsonSchema = {
  type: 'object',
  properties: { required: { type: 'string' }, optional: { type: 'string' } },
  required: ['required'],
};
const arrayForMap: JsonSchema = { type: 'array', items: { type: 'number' } };
const mapForMap: JsonSchema = { type: 'object', additionalProperties: { type: 'number' } };
const genObjectArrayWithRule =
  (rule: string): Gen =>
  (max) => ({ schema: { type: 'array', items: objectForMap, ...opt('maxItems', max) }, rule });
const getMapArrayWithRule =
  (t: string, rule: string): Gen =>
  (max) => ({
    schema: {
      type: 'array',
      items: { type: 'object', additionalProperties: { type: t } },
      ...opt('maxItems', max),
    },
    rule,
  });
const genMapWithRule =
  (t: string, rule: string): Gen =>
  (max) => ({
    schema: { type: 'object', additionalProperties: typed(t), ...opt('maxProperties', max) },
    rule,
  });
const genStringWithRule =
  (rule: string): Gen =>
  (max) => ({ schema: { type: 'string', ...opt('maxLength', max) }, rule });
const genBytesWithRule =
  (rule: string): Gen =>
  (max) => ({ schema: { type: 'string', format: 'byte', ...opt('maxLength', max) }, rule });
const genNestedSpecWithRule =
  (rule: string): Gen =>
  (max) => ({
    schema: {
      type: 'object',
      additionalProperties: { type: 'string', ...opt('maxLength', max) },
      ...opt('maxProperties', max),
    },
    rule,
  });
const genAllMaxNestedSpecWithRootRule =
  (rule: string): Gen =>
  (max) => ({
    schema: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: { ...objectForMap, ...opt('maxProperties', max) },
        ...opt('maxProperties', max),
      },
      ...opt('maxItems', max),
    },
    rule,
  });
const genOneMaxNestedSpecWithRootRule =
  (rule: string): Gen =>
  (max) => ({
    schema: {
      type: 'array',
      items: { type: 'object', additionalProperties: objectForMap, ...opt('maxProperties', max) },
    },
    rule,
  });
const genMapWithCustomItemRule =
  (item: JsonSchema, rule: string): Gen =>
  (max) => ({ schema: { type: 'object', additionalProperties: item, ...opt('maxProperties', max) }, rule });
const str = (max: number | undefined): JsonSchema => ({ type: 'string', ...opt('maxLength', max) });

// [name, generator, setMaxElements, calcCost, calcCostExceedsLimit, setCost, setCostExceedsLimit]
const cases: [string, Gen, number, number, number, number, number][] = [
  ['number array with all', genArrayWithRule('number', 'self.all(x, true)'), 10, 4718591, 0, 32, 0],
  ['string array with all', genArrayWithRule('string', 'self.all(x, true)'), 20, 3145727, 0, 62, 0],
  ['boolean array with all', genArrayWithRule('boolean', 'self.all(x, true)'), 5, 1887437, 0, 17, 0],
  [
    'array of number arrays with all',
    genArrayOfArraysWithRule('number', 'self.all(x, true)'),
    100,
    3145727,
    0,
    302,
    0,
  ],
  ['array of objects with all', genObjectArrayWithRule('self.all(x, true)'), 50, 555128, 0, 152, 0],
  ['map of numbers with all', genMapWithRule('number', 'self.all(x, true)'), 10, 1348169, 0, 32, 0],
  ['map of numbers with has', genMapWithRule('number', 'has(self.x)'), 100, 0, 0, 0, 0],
  ['map of strings with all', genMapWithRule('string', 'self.all(x, true)'), 3, 1179647, 0, 11, 0],
  ['map of strings with has', genMapWithRule('string', 'has(self.x)'), 550, 0, 0, 0, 0],
  ['map of booleans with all', genMapWithRule('boolean', 'self.all(x, true)'), 100, 943718, 0, 302, 0],
  ['map of booleans with has', genMapWithRule('boolean', 'has(self.x)'), 1024, 0, 0, 0, 0],
  ['string with contains', genStringWithRule("self.contains('test')"), 10, 314574, 0, 5, 0],
  ['string with startsWith', genStringWithRule("self.startsWith('test')"), 15, 2, 0, 2, 0],
  ['string with endsWith', genStringWithRule("self.endsWith('test')"), 30, 2, 0, 2, 0],
  ['concat string', genStringWithRule('size(self + "hello") > size("hello")'), 4, 314578, 0, 7, 0],
  ['index of array with numbers', genArrayWithRule('number', 'self[1] == 0.0'), 5000, 2, 0, 2, 0],
  ['index of array with strings', genArrayWithRule('string', 'self[1] == self[1]'), 8, 314577, 0, 314577, 0],
  [
    'O(n^2) loop with numbers',
    genArrayWithRule('number', 'self.all(x, self.all(y, true))'),
    10,
    0,
    100000000,
    352,
    0,
  ],
  [
    'O(n^3) loop with numbers',
    genArrayWithRule('number', 'self.all(x, self.all(y, self.all(z, true)))'),
    10,
    0,
    100000000,
    3552,
    0,
  ],
  ['regex matches simple', genStringWithRule('self.matches("x")'), 50, 314574, 0, 22, 0],
  [
    'regex matches empty string',
    genStringWithRule('"".matches("(((((((((())))))))))[0-9]")'),
    10,
    7,
    0,
    7,
    0,
  ],
  ['regex matches empty regex', genStringWithRule('self.matches("")'), 100, 1, 0, 1, 0],
  [
    'map of strings with value length',
    genNestedSpecWithRule('self.all(x, x.contains(self[x]))'),
    10,
    2752507,
    0,
    72,
    0,
  ],
  ['set array maxLength to zero', genArrayWithRule('number', 'self[3] == 0.0'), 0, 2, 0, 2, 0],
  ['set map maxLength to zero', genMapWithRule('number', 'self["x"] == 0.0'), 0, 2, 0, 2, 0],
  ['set string maxLength to zero', genStringWithRule('self == "x"'), 0, 2, 0, 1, 0],
  ['set bytes maxLength to zero', genBytesWithRule('self == b"x"'), 0, 2, 0, 1, 0],
  [
    'set maxLength greater than estimated maxLength',
    genArrayWithRule('number', 'self.all(x, x == 0.0)'),
    6291456,
    6291454,
    0,
    25165826,
    0,
  ],
  [
    'nested types with root rule with all supporting maxLength',
    genAllMaxNestedSpecWithRootRule('self.all(x, x["y"].required == "z")'),
    10,
    7340027,
    0,
    72,
    0,
  ],
  [
    'nested types with root rule with one supporting maxLength',
    genOneMaxNestedSpecWithRootRule('self.all(x, x["y"].required == "z")'),
    10,
    7340027,
    0,
    7340027,
    0,
  ],
  [
    'int-or-string array with all',
    genArrayWithRule('int-or-string', 'self.all(x, true)'),
    10,
    4718591,
    0,
    32,
    0,
  ],
  ['index of array with int-or-strings', genArrayWithRule('int-or-string', 'self[0] == 5'), 10, 3, 0, 3, 0],
  ['index of array with booleans', genArrayWithRule('boolean', 'self[0] == false'), 25, 2, 0, 2, 0],
  ['index of array of objects', genObjectArrayWithRule('self[0] == null'), 422, 2, 0, 2, 0],
  [
    'index of array of array of numnbers',
    genArrayOfArraysWithRule('number', 'self[0][0] == -1.0'),
    51,
    3,
    0,
    3,
    0,
  ],
  [
    'array of number maps with all',
    getMapArrayWithRule('number', 'self.all(x, x.y == 25.2)'),
    12,
    6291452,
    0,
    74,
    0,
  ],
  ['index of array of number maps', getMapArrayWithRule('number', 'self[0].x > 2.0'), 3000, 4, 0, 4, 0],
  ['duration array with all', genArrayWithRule('duration', 'self.all(x, true)'), 5, 2359295, 0, 17, 0],
  ['index of duration array', genArrayWithRule('duration', 'self[0].getHours() == 2'), 525, 4, 0, 4, 0],
  ['date array with all', genArrayWithRule('date', 'self.all(x, true)'), 15, 725936, 0, 47, 0],
  ['index of date array', genArrayWithRule('date', 'self[2].getDayOfMonth() == 13'), 42, 4, 0, 4, 0],
  ['date-time array with all', genArrayWithRule('date-time', 'self.all(x, true)'), 25, 428963, 0, 77, 0],
  ['index of date-time array', genArrayWithRule('date-time', 'self[2].getMinutes() == 45'), 99, 4, 0, 4, 0],
  [
    'map of int-or-strings with all',
    genMapWithRule('int-or-string', 'self.all(x, true)'),
    15,
    1348169,
    0,
    47,
    0,
  ],
  ['map of int-or-strings with has', genMapWithRule('int-or-string', 'has(self.x)'), 5000, 0, 0, 0, 0],
  [
    'map of objects with all',
    genMapWithCustomItemRule(objectForMap, 'self.all(x, true)'),
    20,
    428963,
    0,
    62,
    0,
  ],
  ['map of objects with has', genMapWithCustomItemRule(objectForMap, 'has(self.x)'), 9001, 0, 0, 0, 0],
  [
    'map of number maps with all',
    genMapWithCustomItemRule(mapForMap, 'self.all(x, true)'),
    10,
    1179647,
    0,
    32,
    0,
  ],
  ['map of number maps with has', genMapWithCustomItemRule(mapForMap, 'has(self.x)'), 101, 0, 0, 0, 0],
  [
    'map of number arrays with all',
    genMapWithCustomItemRule(arrayForMap, 'self.all(x, true)'),
    25,
    1179647,
    0,
    77,
    0,
  ],
  ['map of number arrays with has', genMapWithCustomItemRule(arrayForMap, 'has(self.x)'), 40000, 0, 0, 0, 0],
  ['map of durations with all', genMapWithRule('duration', 'self.all(x, true)'), 5, 1048577, 0, 17, 0],
  ['map of durations with has', genMapWithRule('duration', 'has(self.x)'), 256, 0, 0, 0, 0],
  ['map of dates with all', genMapWithRule('date', 'self.all(x, true)'), 10, 524288, 0, 32, 0],
  ['map of dates with has', genMapWithRule('date', 'has(self.x)'), 65536, 0, 0, 0, 0],
  ['map of date-times with all', genMapWithRule('date-time', 'self.all(x, true)'), 25, 349526, 0, 77, 0],
  ['map of date-times with has', genMapWithRule('date-time', 'has(self.x)'), 490, 0, 0, 0, 0],
  ['extended library regex find', genStringWithRule("self.find('[0-9]+') == ''"), 10, 629147, 0, 11, 0],
  ['check cost of size call', genMapWithRule('integer', 'oldSelf.size() == self.size()'), 10, 5, 0, 5, 0],
  [
    'check cost of timestamp comparison',
    genMapWithRule('date-time', 'self["a"] == self["b"]'),
    7,
    8,
    0,
    8,
    0,
  ],
  ['check cost of duration comparison', genMapWithRule('duration', 'self["c"] == self["d"]'), 42, 8, 0, 8, 0],
  [
    'extended library join',
    (max) => ({
      schema: { type: 'array', items: str(max), ...opt('maxItems', max) },
      rule: "self.join(' ') == 'aa bb'",
    }),
    10,
    329853068905,
    0,
    43,
    0,
  ],
  [
    'extended library isSorted',
    (max) => ({
      schema: { type: 'array', items: str(max), ...opt('maxItems', max) },
      rule: 'self.isSorted() == true',
    }),
    10,
    329854432052,
    0,
    52,
    0,
  ],
  [
    'extended library replace',
    (max) => ({
      schema: { type: 'object', properties: { str: str(max), before: str(2), after: str(4) } },
      rule: "self.str.replace(self.before, self.after) == 'does not matter'",
    }),
    4,
    629154,
    0,
    12,
    0,
  ],
  [
    'extended library split',
    (max) => ({
      schema: { type: 'object', properties: { str: str(max), separator: str(max) } },
      rule: 'self.str.split(self.separator) == []',
    }),
    10,
    629160,
    0,
    22,
    0,
  ],
  [
    'extended library lowerAscii',
    (max) => ({ schema: str(max), rule: "self.lowerAscii() == 'lower!'" }),
    10,
    314575,
    0,
    6,
    0,
  ],
];

function maxCostOf(gen: Gen, max: number | undefined): bigint {
  const { schema, rule } = gen(max);
  const declType = schemaDeclType(schema, false) ?? assert.fail('no decl type');
  const { variables } = ruleVariables(declType, 'selfType1');
  const result = compileCel(rule, { variables, expectedResult: 'bool', perCallLimit: PER_CALL_LIMIT });
  if (!result.ok) assert.fail(result.error.detail);
  return result.maxCost;
}

describe('compileCel: upstream TestCostEstimation (AM-03)', () => {
  for (const [name, gen, setMax, calcCost, calcExceeds, setCost, setExceeds] of cases) {
    it(name, () => {
      const calc = maxCostOf(gen, undefined);
      if (calcCost > 0) assert.equal(calc, BigInt(calcCost), 'calc maxLength');
      if (calcExceeds > 0)
        assert.ok(calc >= BigInt(calcExceeds), `calc ${calc} should exceed ${calcExceeds}`);
      const set = maxCostOf(gen, setMax);
      if (setCost > 0) assert.equal(set, BigInt(setCost), 'set maxLength');
      if (setExceeds > 0) assert.ok(set >= BigInt(setExceeds), `set ${set} should exceed ${setExceeds}`);
    });
  }
});

describe('compileCel: upstream TestCelCompilation messages (AM-05, AM-09)', () => {
  const compile = (schema: JsonSchema, source: string, expectedResult: 'bool' | 'string' = 'bool') =>
    compileCel(source, {
      variables: ruleVariables(schemaDeclType(schema, false) ?? assert.fail(), 'selfType2').variables,
      expectedResult,
    });
  const escaping: JsonSchema = {
    type: 'object',
    properties: {
      namespace: { type: 'array', items: { type: 'array', items: { type: 'string' } } },
      if: { type: 'integer' },
      self: { type: 'integer' },
    },
  };
  const failures: [string, JsonSchema, string, 'bool' | 'string', string][] = [
    ['invalid checking for number', { type: 'number' }, 'size(self) == 10', 'bool', 'compilation failed'],
    [
      'undefined field namespace',
      escaping,
      'size(self.namespace[0]) == 10',
      'bool',
      "undefined field 'namespace'",
    ],
    ['undefined field if', escaping, 'self.if == 10', 'bool', "undefined field 'if'"],
    ['no matching overload', escaping, 'self == 10', 'bool', 'found no matching overload'],
    ['rule must be bool', { type: 'object' }, '42', 'bool', 'cel expression must evaluate to a bool'],
    [
      'messageExpression must be string',
      { type: 'integer' },
      '42',
      'string',
      'messageExpression must evaluate to a string',
    ],
    [
      'messageExpression syntax error',
      { type: 'number' },
      '"abc',
      'string',
      'messageExpression compilation failed',
    ],
  ];
  for (const [name, schema, source, kind, contains] of failures) {
    it(name, () => {
      const result = compile(schema, source, kind);
      assert.equal(result.ok, false);
      if (!result.ok) {
        assert.equal(result.error.type, 'Invalid');
        assert.ok(result.error.detail.includes(contains), result.error.detail);
      }
    });
  }

  it('a constant regex that does not compile fails program instantiation', () => {
    const result = compile({ type: 'string' }, "self.matches('[')");
    assert.equal(result.ok ? '' : result.error.detail.split(':')[0], 'program instantiation failed');
  });

  it('escaped names compile', () => {
    for (const rule of ['size(self.__namespace__[0]) == 10', 'self.__if__ == 10', 'self.self == 10']) {
      assert.equal(compile(escaping, rule).ok, true, rule);
    }
  });

  it('shows cel-go display text after "compilation failed: "', () => {
    const result = compile({ type: 'integer' }, "[1, 'a'].size() == 2");
    assert.equal(
      result.ok ? '' : result.error.detail,
      "compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'\n | [1, 'a'].size() == 2\n | ....^",
    );
  });

  // cel-go places a binary operator's call at the operator; @bufbuild/cel's parser one column
  // earlier (runtime/parse.ts would have to move it).
  it('reports operator errors at the operator, as cel-go', () => {
    const result = compile({ type: 'integer' }, "self == 'a'");
    assert.equal(
      result.ok ? '' : result.error.detail,
      "compilation failed: ERROR: <input>:1:6: found no matching overload for '_==_' applied to '(int, string)'\n | self == 'a'\n | .....^",
    );
  });

  it('identifies transition rules', () => {
    const a = compile({ type: 'integer' }, 'self > 0');
    const b = compile({ type: 'integer' }, 'self >= oldSelf');
    assert.deepEqual([a.ok && a.transitionRule, b.ok && b.transitionRule], [false, true]);
  });

  it('accepts a messageExpression returning string and runs the program', () => {
    const result = compile({ type: 'string' }, '"scoped field should start with \'s\'"', 'string');
    assert.equal(result.ok, true);
    const rule = compile({ type: 'string' }, "self.startsWith('s')");
    assert.ok(rule.ok);
    if (rule.ok) {
      const out = rule.program.eval({ self: 'sun' });
      assert.equal('value' in out ? out.value : out.error, true);
    }
  });

  it('maxCardinality divides the request size by the minimum size plus one', () => {
    assert.equal(maxCardinality(2n), (3n * 1024n * 1024n) / 3n);
  });
});

describe('compileCel with toCelValue: a custom resource end to end', () => {
  const schema: JsonSchema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          replicas: { type: 'integer', maximum: 10 },
          'min-replicas': { type: 'integer' },
          image: { type: 'string', maxLength: 64 },
          ports: { type: 'array', maxItems: 8, items: { 'x-kubernetes-int-or-string': true } },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          timeout: { type: 'string', format: 'duration' },
        },
      },
    },
  };
  const declType = schemaDeclType(schema, true) ?? assert.fail();
  const { variables } = ruleVariables(declType, 'selfType3');
  const obj = {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w1' },
    spec: {
      replicas: 3,
      'min-replicas': 1,
      image: 'nginx:1',
      ports: [80, 'http'],
      labels: { app: 'w' },
      timeout: '90s',
    },
  };
  const self = toCelValue(obj, withTypeAndObjectMeta(schema));
  const oldSelf = toCelValue({ ...obj, spec: { ...obj.spec, replicas: 5 } }, withTypeAndObjectMeta(schema));
  const run = (rule: string, expectedResult: 'bool' | 'string' = 'bool'): unknown => {
    const result = compileCel(rule, { variables, expectedResult });
    if (!result.ok) assert.fail(result.error.detail);
    const out = result.program.eval({ self, oldSelf });
    return 'value' in out ? out.value : out.error.message;
  };
  const cases: [string, unknown][] = [
    ['self.spec.replicas >= self.spec.min__dash__replicas', true],
    ['self.metadata.name == "w1" && self.kind == "Widget"', true],
    ["self.spec.ports.exists(p, p == 'http')", true],
    ["self.spec.labels['app'] == 'w'", true],
    ["self.spec.timeout > duration('1m')", true],
    ['self.spec.replicas <= oldSelf.spec.replicas', true],
    ['self.spec.image.startsWith("nginx") && self.spec.image.split(":").size() == 2', true],
  ];
  for (const [rule, want] of cases) it(rule, () => assert.equal(run(rule), want));
  it('messageExpression', () =>
    assert.equal(
      run("'replicas ' + string(self.spec.replicas) + ' too high'", 'string'),
      'replicas 3 too high',
    ));
});
