// Tests for the CEL type checker (cel-go v0.12.7 rules in Kubernetes v1.27's configuration).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from '@bufbuild/cel';
import { tests as checkingSuite } from '@bufbuild/cel-spec/testdata/checking.js';
import type { SerializedIncrementalTestSuite } from '@bufbuild/cel-spec/testdata/tests.js';
import { formatIssues } from '../issues.js';
import { checkExpr } from './checker.js';
import { fn, globalOverload, memberOverload } from './decls.js';
import { CheckerEnv, type TypeProvider } from './env.js';
import { standardFunctions } from './standard.js';
import {
  BOOL,
  BYTES,
  DOUBLE,
  INT,
  NULL,
  STRING,
  UINT,
  type CheckedType,
  formatType,
  listOf,
  mapOf,
  objectOf,
} from './types.js';

function check(env: CheckerEnv, source: string): { type: string; errors: string } {
  const parsed = parse(source);
  const result = checkExpr(parsed.expr, parsed.sourceInfo, env);
  return { type: formatType(result.type), errors: formatIssues(source, result.issues) };
}

/** Error lines without their positions (positions come from the parser, tested there). */
function messages(display: string): string {
  return display
    .split('\n')
    .filter((l) => l.startsWith('ERROR: '))
    .map((l) => l.replace(/^ERROR: <input>:\d+:\d+: /, ''))
    .join('\n');
}

const PRIMITIVES: Record<string, CheckedType> = { INT64: INT, UINT64: UINT, DOUBLE, BOOL, STRING, BYTES };

/** A cel-spec Type in proto JSON form, when it is one Kubernetes can declare (no messages). */
function jsonType(t: unknown): CheckedType | undefined {
  if (typeof t !== 'object' || t === null) return undefined;
  const o = t as Record<string, unknown>;
  if ('primitive' in o) return PRIMITIVES[String(o['primitive'])];
  if ('dyn' in o) return { kind: 'dyn' };
  if ('null' in o) return NULL;
  if ('wellKnown' in o) {
    const name = String(o['wellKnown']).toLowerCase();
    return name === 'any' || name === 'timestamp' || name === 'duration'
      ? { kind: 'wellKnown', name }
      : undefined;
  }
  if ('listType' in o) {
    const elem = jsonType((o['listType'] as Record<string, unknown> | undefined)?.['elemType']);
    return elem === undefined ? undefined : listOf(elem);
  }
  if ('mapType' in o) {
    const m = o['mapType'] as Record<string, unknown> | undefined;
    const key = jsonType(m?.['keyType']);
    const value = jsonType(m?.['valueType']);
    return key === undefined || value === undefined ? undefined : mapOf(key, value);
  }
  return undefined;
}

/** The test's identifier declarations, or undefined when one is not representable. */
function typeEnvVariables(env: unknown): Map<string, CheckedType> | undefined {
  if (!Array.isArray(env)) return undefined;
  const out = new Map<string, CheckedType>();
  for (const decl of env) {
    const d = decl as { name?: unknown; ident?: { type?: unknown } };
    const t = jsonType(d.ident?.type);
    if (typeof d.name !== 'string' || t === undefined) return undefined;
    out.set(d.name, t);
  }
  return out;
}

describe('checker: cel-spec checking data (cel-go test environment)', () => {
  // cel-go's checker_test.go declares these; the data refers to them.
  const env = new CheckerEnv({
    homogeneousAggregateLiterals: false,
    variables: new Map<string, CheckedType>([
      ['is', STRING],
      ['ii', INT],
      ['iu', UINT],
      ['iz', BOOL],
      ['id', DOUBLE],
      ['ix', NULL],
      ['ib', BYTES],
    ]),
    functions: [
      fn('fg_s', globalOverload('fg_s_0', [], STRING)),
      fn('fi_s_s', memberOverload('fi_s_s_0', [STRING], STRING)),
    ],
  });
  // The data was produced by a newer cel-go; these differ in v0.12.7 by design.
  const newerCelGo = new Set([
    // newer releases substitute type parameters in overload errors and format list types.
    '[].map(x, [].map(y, x in y && y in x))',
    '[].length',
    // protobuf message types: Kubernetes declares none.
    '.google.expr.proto3.test.TestAllTypes',
  ]);
  const cases: { expr: string; want: string; variables?: Map<string, CheckedType> }[] = [];
  const walk = (suite: SerializedIncrementalTestSuite): void => {
    for (const sub of suite.suites ?? []) walk(sub);
    for (const t of suite.tests ?? []) {
      if ('container' in t.original || newerCelGo.has(t.original.expr)) continue;
      let variables: Map<string, CheckedType> | undefined;
      if ('typeEnv' in t.original) {
        variables = typeEnvVariables(t.original['typeEnv']);
        if (variables === undefined || t.original.expr.includes('google.')) continue;
      }
      const want = t.error !== undefined ? messages(t.error) : t.type;
      if (want !== undefined)
        cases.push({ expr: t.original.expr, want, ...(variables ? { variables } : {}) });
    }
  };
  walk(checkingSuite);

  it('has cases', () => assert.ok(cases.length > 50));
  for (const { expr, want, variables } of cases) {
    it(expr, () => {
      let got: string;
      try {
        const r = check(
          variables === undefined ? env : new CheckerEnv({ homogeneousAggregateLiterals: false, variables }),
          expr,
        );
        got = r.errors === '' ? r.type : messages(r.errors);
      } catch {
        return; // parse failures belong to the parser
      }
      assert.equal(got, want);
    });
  }
});

describe('checker: Kubernetes v1.27 environment', () => {
  const spec = objectOf('selfType0.spec');
  const types: TypeProvider = {
    findType: (name) => (name === 'selfType0' || name === 'selfType0.spec' ? objectOf(name) : undefined),
    findFieldType: (typeName, field) => {
      const fields: Record<string, Record<string, CheckedType>> = {
        selfType0: { spec: spec, name: STRING },
        'selfType0.spec': { replicas: INT, tags: listOf(STRING), labels: mapOf(STRING, STRING) },
      };
      return fields[typeName]?.[field];
    },
  };
  const env = new CheckerEnv({
    variables: new Map([
      ['self', objectOf('selfType0')],
      ['oldSelf', objectOf('selfType0')],
    ]),
    types,
  });
  const ok: [string, string][] = [
    ['self.spec.replicas >= 0', 'bool'],
    ['self.spec.tags.all(t, t.size() < 10)', 'bool'],
    ['self.spec.labels.exists(k, k.startsWith("a"))', 'bool'],
    ["has(self.spec.labels) && 'x' in self.spec.labels", 'bool'],
    ['self.spec.tags.map(t, t + "!")', 'list(string)'],
    ['self.spec.tags.filter(t, t != "")', 'list(string)'],
    ['self.spec.tags.exists_one(t, t == "a")', 'bool'],
    ['self.spec.replicas == oldSelf.spec.replicas', 'bool'],
    ['self.name.split("-").join(".")', 'string'],
    ['self.spec.tags.isSorted() && self.spec.tags.indexOf("a") > -1', 'bool'],
    ['[1, 2].sum() + [3].max()', 'int'],
    ['self.name.find("[0-9]+")', 'string'],
    ['self.name.findAll("[0-9]+", 2)', 'list(string)'],
    ["isURL(self.name) && url(self.name).getScheme() == 'https'", 'bool'],
    ["url('https://x').getQuery()", 'map(string, list(string))'],
    ['self.name.lowerAscii().upperAscii().trim().substring(1, 2).charAt(0)', 'string'],
    ["self.name.replace('a', 'b', 1).lastIndexOf('b', 2)", 'int'],
    ['dyn(self.spec.replicas) < 1.0', 'bool'],
    ["duration('1s') < duration('2s')", 'bool'],
    ["timestamp('2020-01-01T00:00:00Z').getDayOfWeek()", 'int'],
    ['int("1") + int(1u)', 'int'],
    ['self.spec.labels["a"]', 'string'],
    ['[]', 'list(dyn)'],
    ['{}', 'map(dyn, dyn)'],
    ['[[1], []]', 'list(list(int))'],
    ['type(self.name) == string', 'bool'],
    ['null', 'null'],
  ];
  for (const [expr, want] of ok) {
    it(`${expr} : ${want}`, () => assert.deepEqual(check(env, expr), { type: want, errors: '' }));
  }

  const bad: [string, string][] = [
    ['1 < 1.0', "found no matching overload for '_<_' applied to '(int, double)'"],
    ['1u == 1', "found no matching overload for '_==_' applied to '(uint, int)'"],
    ["[1, 'a']", "expected type 'int' but found 'string'"],
    ["{'a': 1, 'b': true}", "expected type 'int' but found 'bool'"],
    ['self.spec.x', "undefined field 'x'"],
    ['has(self.nope)', "undefined field 'nope'"],
    ['x', "undeclared reference to 'x' (in container '')"],
    ['self.name.nope()', "undeclared reference to 'nope' (in container '')"],
    [
      'self.spec.replicas.all(x, true)',
      "expression of type 'int' cannot be range of a comprehension (must be list, map, or dynamic)",
    ],
    ['self.spec.replicas + "a"', "found no matching overload for '_+_' applied to '(int, string)'"],
    ['self.name.size() > 1u', "found no matching overload for '_>_' applied to '(int, uint)'"],
    ['self.spec.tags.sum()', "found no matching overload for 'sum' applied to 'list(string).()'"],
    ['self.name.foo', "type 'primitive:STRING' does not support field selection"],
    ['self.spec.tags.all(t, t)', "found no matching overload for '_&&_' applied to '(bool, string)'"],
    // cel-go leaves the failed member call untyped (a nil type, printed <nil>).
    [
      "self.name.nope() == 'a'",
      "undeclared reference to 'nope' (in container '')\nfound no matching overload for '_==_' applied to '(<nil>, string)'",
    ],
  ];
  for (const [expr, want] of bad) {
    it(`${expr} → ${want}`, () => assert.equal(messages(check(env, expr).errors), want));
  }

  it('reports at the offending node with cel-go display text', () => {
    assert.equal(
      check(env, "[1, 'a']").errors,
      "ERROR: <input>:1:5: expected type 'int' but found 'string'\n | [1, 'a']\n | ....^",
    );
  });

  it('follows cel-go v0.12.7: after a comprehension, cross-type comparisons type-check', () => {
    assert.equal(check(env, '[1].all(x, true) && 1 < 1.0').errors, '');
    assert.notEqual(check(env, '1 < 1.0 && [1].all(x, true)').errors, '');
  });

  it('allows cross-type comparisons when asked (cel.CrossTypeNumericComparisons)', () => {
    const crossEnv = new CheckerEnv({
      crossTypeNumericComparisons: true,
      functions: standardFunctions.slice(0, 0),
    });
    assert.deepEqual(check(crossEnv, '1 < 1.0'), { type: 'bool', errors: '' });
  });

  it('records references (variables by name, calls by overload ids)', () => {
    const parsed = parse('oldSelf.name + "x"');
    const result = checkExpr(parsed.expr, parsed.sourceInfo, env);
    const refs = [...result.references.values()];
    assert.ok(refs.some((r) => r.name === 'oldSelf'));
    assert.ok(refs.some((r) => r.overloadIds?.includes('add_string')));
  });
});
