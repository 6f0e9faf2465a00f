// The Kubernetes v1.27 CEL libraries, with the expressions and expectations of upstream's
// apiextensions-apiserver v0.27.9 pkg/apiserver/schema/cel/validation_test.go (TestValidationExpressions:
// "stdlib list functions", "stdlib regex functions", "URL parsing", "unicode strings",
// "string lists") and apiserver v0.27.16 pkg/cel/library/cost_test.go (authz). Bindings stand in
// for the schema-converted `self` (ints as int, doubles as double, durations and dates as
// duration and timestamp values). AM-03: cost limit rejections; AM-09: errors are values.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { create } from '@bufbuild/protobuf';
import { DurationSchema, TimestampSchema } from '@bufbuild/protobuf/wkt';
import type { CelInput } from '@bufbuild/cel';
import { CelProgramError } from '../runtime/program.js';
import { evalCel } from '../runtime/test-helpers.js';
import type { CelAuthorizationAttributes, CelAuthorizer } from './authz.js';

const seconds = (s: number) => create(DurationSchema, { seconds: BigInt(s), nanos: 0 });
const date = (iso: string) =>
  create(TimestampSchema, { seconds: BigInt(Date.parse(`${iso}T00:00:00Z`) / 1000), nanos: 0 });
const obj = (f1: string, f2: string) => ({ f1, f2 });

const listsSelf: Record<string, CelInput> = {
  ints: [1n, 2n, 2n, 3n],
  unsortedInts: [2n, 1n],
  emptyInts: [],
  doubles: [1, 2, 2, 3],
  unsortedDoubles: [2, 1],
  emptyDoubles: [],
  intBackedDoubles: [1, 2, 2, 3],
  unsortedIntBackedDDoubles: [2, 1],
  emptyIntBackedDDoubles: [],
  durations: [seconds(1), seconds(60), seconds(60), seconds(3600)],
  unsortedDurations: [seconds(60), seconds(1)],
  emptyDurations: [],
  strings: ['a', 'b', 'b', 'c'],
  unsortedStrings: ['b', 'a'],
  emptyStrings: [],
  dates: [date('2000-01-01'), date('2000-02-01'), date('2000-02-01'), date('2010-01-01')],
  unsortedDates: [date('2000-02-01'), date('2000-01-01')],
  emptyDates: [],
  objs: [obj('a', 'a'), obj('a', 'b'), obj('a', 'b'), obj('a', 'c')],
};

function assertTrue(expr: string, self: CelInput): void {
  const r = evalCel(expr, { self });
  assert.ok('value' in r, `${expr}: ${'error' in r ? r.error.message : ''}`);
  assert.equal(r.value, true, expr);
}

function assertError(expr: string, self: CelInput, contains: string): void {
  const r = evalCel(expr, { self });
  assert.ok('error' in r, `${expr}: expected an error`);
  assert.ok(r.error.message.includes(contains), `${expr}: ${r.error.message}`);
}

describe('lists library (validation_test.go "stdlib list functions")', () => {
  const valid = [
    'self.ints.sum() == 8',
    'self.ints.min() == 1',
    'self.ints.max() == 3',
    'self.emptyInts.sum() == 0',
    'self.ints.isSorted()',
    'self.emptyInts.isSorted()',
    'self.unsortedInts.isSorted() == false',
    'self.ints.indexOf(2) == 1',
    'self.ints.lastIndexOf(2) == 2',
    'self.ints.indexOf(10) == -1',
    'self.ints.lastIndexOf(10) == -1',
    'self.doubles.sum() == 8.0',
    'self.doubles.min() == 1.0',
    'self.doubles.max() == 3.0',
    'self.doubles.isSorted()',
    'self.emptyDoubles.isSorted()',
    'self.unsortedDoubles.isSorted() == false',
    'self.doubles.indexOf(2.0) == 1',
    'self.doubles.lastIndexOf(2.0) == 2',
    'self.doubles.indexOf(10.0) == -1',
    'self.doubles.lastIndexOf(10.0) == -1',
    'self.intBackedDoubles.sum() == 8.0',
    'self.intBackedDoubles.min() == 1.0',
    'self.intBackedDoubles.max() == 3.0',
    'self.intBackedDoubles.isSorted()',
    'self.unsortedIntBackedDDoubles.isSorted() == false',
    'self.intBackedDoubles.indexOf(2.0) == 1',
    'self.intBackedDoubles.lastIndexOf(2.0) == 2',
    'self.intBackedDoubles.indexOf(10.0) == -1',
    'self.intBackedDoubles.lastIndexOf(10.0) == -1',
    "self.durations.sum() == duration('1h2m1s')",
    "self.durations.min() == duration('1s')",
    "self.durations.max() == duration('1h')",
    'self.durations.isSorted()',
    'self.emptyDurations.isSorted()',
    'self.unsortedDurations.isSorted() == false',
    "self.durations.indexOf(duration('1m')) == 1",
    "self.durations.lastIndexOf(duration('1m')) == 2",
    "self.durations.indexOf(duration('2m')) == -1",
    "self.durations.lastIndexOf(duration('2m')) == -1",
    "self.strings.min() == 'a'",
    "self.strings.max() == 'c'",
    'self.strings.isSorted()',
    'self.emptyStrings.isSorted()',
    'self.unsortedStrings.isSorted() == false',
    "self.strings.indexOf('b') == 1",
    "self.strings.lastIndexOf('b') == 2",
    "self.strings.indexOf('x') == -1",
    "self.strings.lastIndexOf('x') == -1",
    "self.dates.min() == timestamp('2000-01-01T00:00:00.000Z')",
    "self.dates.max() == timestamp('2010-01-01T00:00:00.000Z')",
    'self.dates.isSorted()',
    'self.emptyDates.isSorted()',
    'self.unsortedDates.isSorted() == false',
    "self.dates.indexOf(timestamp('2000-02-01T00:00:00.000Z')) == 1",
    "self.dates.lastIndexOf(timestamp('2000-02-01T00:00:00.000Z')) == 2",
    "self.dates.indexOf(timestamp('2005-02-01T00:00:00.000Z')) == -1",
    "self.dates.lastIndexOf(timestamp('2005-02-01T00:00:00.000Z')) == -1",
    '[[1], [2]].indexOf([1]) == 0',
    "[{'a': 1}, {'b': 2}].lastIndexOf({'b': 2}) == 1",
    'self.objs.indexOf(self.objs[1]) == 1',
    'self.objs.lastIndexOf(self.objs[1]) == 2',
    '([0] + self.emptyInts).min() == 0',
    'dyn([]).sum() == 0',
    'dyn([1, 2]).sum() == 3',
    'dyn([1.0, 2.0]).sum() == 3.0',
    '[].sum() == 0',
  ];
  for (const expr of valid) it(expr, () => assertTrue(expr, listsSelf));
  const errors: [string, string][] = [
    ['self.emptyInts.min() == 1', 'min called on empty list'],
    ['self.emptyInts.max() == 3', 'max called on empty list'],
    ['self.emptyDoubles.min() == 1.0', 'min called on empty list'],
    ['self.emptyDoubles.max() == 3.0', 'max called on empty list'],
    ["self.emptyStrings.min() == 'a'", 'min called on empty list'],
    ["self.emptyStrings.max() == 'c'", 'max called on empty list'],
    // upstream rejects these when type-checking; at runtime they are "no such overload"
    ["['a', 'b'].sum() == 'c'", 'no such overload'],
    ['[[1], [2]].min() == [1]', 'no such overload'],
    ["[{'a': 1}, {'b': 2}].max() == {'b': 2}", 'no such overload'],
  ];
  for (const [expr, want] of errors) it(`${expr} → ${want}`, () => assertError(expr, listsSelf, want));
});

describe('regex library (validation_test.go "stdlib regex functions")', () => {
  const self = { str: 'this is a 123 string 456' };
  const valid = [
    "self.str.find('[0-9]+') == '123'",
    "self.str.find('[0-9]+') != '456'",
    "self.str.find('xyz') == ''",
    "self.str.findAll('[0-9]+') == ['123', '456']",
    "self.str.findAll('[0-9]+', 0) == []",
    "self.str.findAll('[0-9]+', 1) == ['123']",
    "self.str.findAll('[0-9]+', 2) == ['123', '456']",
    "self.str.findAll('[0-9]+', 3) == ['123', '456']",
    "self.str.findAll('[0-9]+', -1) == ['123', '456']",
    "self.str.findAll('xyz') == []",
    "self.str.findAll('xyz', 1) == []",
    // Go's FindAllString: no empty match right after a match
    "'abxc'.findAll('x*') == ['', '', 'x', '']",
  ];
  for (const expr of valid) it(expr, () => assertTrue(expr, self));
  for (const expr of [
    "self.str.find(')') == ''",
    "self.str.findAll(')') == []",
    "self.str.findAll(')', 1) == []",
    "self.str.matches(')')",
  ]) {
    it(`${expr}: a constant bad pattern fails the program`, () => {
      assert.throws(
        () => evalCel(expr, { self }),
        (err: unknown) =>
          err instanceof CelProgramError && err.message === 'error parsing regexp: unexpected ): `)`',
      );
    });
  }
  it('a bad pattern from data is an evaluation error', () => {
    const r = evalCel('self.str.find(self.re)', { self: { str: 'x', re: '(' } });
    assert.ok('error' in r);
    assert.equal(r.error.message, 'Illegal regex: error parsing regexp: missing closing ): `(`');
  });
});

describe('urls library (validation_test.go "URL parsing")', () => {
  const self = { url: 'https://user:pass@kubernetes.io:80/docs/home?k1=a&k2=b&k2=c#anchor' };
  const valid = [
    "url('/path').getScheme() == ''",
    "url('https://example.com/').getScheme() == 'https'",
    "url('https://example.com:80/').getHost() == 'example.com:80'",
    "url('https://example.com/').getHost() == 'example.com'",
    "url('https://[::1]:80/').getHost() == '[::1]:80'",
    "url('https://[::1]/').getHost() == '[::1]'",
    "url('/path').getHost() == ''",
    "url('https://example.com:80/').getHostname() == 'example.com'",
    "url('https://127.0.0.1/').getHostname() == '127.0.0.1'",
    "url('https://[::1]/').getHostname() == '::1'",
    "url('/path').getHostname() == ''",
    "url('https://example.com:80/').getPort() == '80'",
    "url('https://example.com/').getPort() == ''",
    "url('/path').getPort() == ''",
    "url('https://example.com/path').getEscapedPath() == '/path'",
    "url('https://example.com/with space/').getEscapedPath() == '/with%20space/'",
    "url('https://example.com').getEscapedPath() == ''",
    "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == { 'k1': ['a'], 'k2': ['b', 'c']}",
    "url('https://example.com/path?key with spaces=value with spaces').getQuery() == { 'key with spaces': ['value with spaces']}",
    "url('https://example.com/path?').getQuery() == {}",
    "url('https://example.com/path').getQuery() == {}",
    "url(self.url).getScheme() == 'https'",
    "url(self.url).getHost() == 'kubernetes.io:80'",
    "url(self.url).getHostname() == 'kubernetes.io'",
    "url(self.url).getPort() == '80'",
    "url(self.url).getEscapedPath() == '/docs/home'",
    "url(self.url).getQuery() == {'k1': ['a'], 'k2': ['b', 'c']}",
    "isURL('https://user:pass@example.com:80/path?query=val#fragment')",
    "isURL('/path') == true",
    "isURL('https://a:b:c/') == false",
    "isURL('../relative-path') == false",
    "type(url('/path')) == type(url('https://x/'))",
  ];
  for (const expr of valid) it(expr, () => assertTrue(expr, self));
  it("url() of a relative path is an error with Go's text", () =>
    assertError(
      "url('../relative-path')",
      self,
      'URL parse error during conversion from string: parse "../relative-path": invalid URI for request',
    ));
  it('an invalid port', () => assertError("url('https://a:b:c/')", self, 'invalid port ":c" after host'));
});

describe('strings extension, cel-go v0.12.7 (validation_test.go "unicode strings", "string lists")', () => {
  const self = { val1: 'Rook takes 👑', list: ['a', 'b', 'c'] };
  const valid = [
    "self.val1.startsWith('Rook')",
    "!self.val1.startsWith('knight')",
    "self.val1.contains('takes')",
    "!self.val1.contains('gives')",
    "self.val1.endsWith('👑')",
    "!self.val1.endsWith('pawn')",
    "self.val1.matches('^[^0-9]*$')",
    "!self.val1.matches('^[0-9]*$')",
    'type(self.val1) == string',
    'size(self.val1) == 12',
    "self.val1.charAt(3) == 'k'",
    "self.val1.indexOf('o') == 1",
    "self.val1.indexOf('o', 2) == 2",
    "self.val1.replace(' ', 'x') == 'Rookxtakesx👑'",
    "self.val1.replace(' ', 'x', 1) == 'Rookxtakes 👑'",
    "self.val1.split(' ') == ['Rook', 'takes', '👑']",
    "self.val1.split(' ', 2) == ['Rook', 'takes 👑']",
    "self.val1.substring(5) == 'takes 👑'",
    "self.val1.substring(0, 4) == 'Rook'",
    "self.val1.substring(4, 10).trim() == 'takes'",
    "self.val1.upperAscii() == 'ROOK TAKES 👑'",
    "self.val1.lowerAscii() == 'rook takes 👑'",
    "self.list.join('-') == 'a-b-c'",
    "['a', 'b', 'c'].join('-') == 'a-b-c'",
    "self.list.join() == 'abc'",
    "['a', 'b', 'c'].join() == 'abc'",
    // the brief's known @bufbuild/cel divergence: Go strings.SplitN
    "'a,b,c'.split(',', 2) == ['a', 'b,c']",
    "'a,b,c'.split(',', 0) == []",
    "'a,b,c'.split(',', -1) == ['a', 'b', 'c']",
    "self.val1.charAt(12) == ''",
    "self.val1.lastIndexOf('o') == 2",
    "self.val1.lastIndexOf('') == 12",
    "'abc'.replace('', '_') == '_a_b_c_'",
    "'\\u0085 x \\u00a0'.trim() == 'x'",
  ];
  for (const expr of valid) it(expr, () => assertTrue(expr, self));
  const errors: [string, string][] = [
    ['self.val1.charAt(13)', 'index out of range: 13'],
    ['self.val1.substring(13)', 'index out of range: 13'],
    ['self.val1.substring(5, 4)', 'invalid substring range. start: 5, end: 4'],
    ["''.lastIndexOf('x')", 'index out of range: -1'],
    ["'abc'.indexOf('b', 3)", 'index out of range: 3'],
  ];
  for (const [expr, want] of errors) it(`${expr} → ${want}`, () => assertError(expr, self, want));
});

describe('authz library (cost_test.go TestAuthzLibrary; authz.go)', () => {
  const seen: CelAuthorizationAttributes[] = [];
  const authorizer: CelAuthorizer = {
    authorize(attributes) {
      seen.push(attributes);
      if (attributes.resource === 'secrets') return { decision: 'deny', reason: 'no secrets' };
      if (attributes.verb === 'explode') throw new Error('webhook down');
      return { decision: 'allow', reason: 'ok' };
    },
  };
  const run = (expr: string) => evalCel(expr, {}, { authorizer, variables: ['authorizer'] });
  it('path check', () => {
    const r = run("authorizer.path('/healthz').check('get').allowed()");
    assert.ok('value' in r && r.value === true);
    assert.deepEqual(
      { path: seen.at(-1)?.path, verb: seen.at(-1)?.verb, rr: seen.at(-1)?.resourceRequest },
      { path: '/healthz', verb: 'get', rr: false },
    );
  });
  it('resource check with every attribute', () => {
    const r = run(
      "authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend').check('create').reason()",
    );
    assert.ok('value' in r && r.value === 'ok');
    const a = seen.at(-1);
    assert.deepEqual(
      [a?.apiGroup, a?.apiVersion, a?.resource, a?.subresource, a?.namespace, a?.name, a?.verb],
      ['apps', '*', 'deployments', 'status', 'test', 'backend', 'create'],
    );
  });
  it('a denied check', () => {
    const r = run("authorizer.group('').resource('secrets').check('get').allowed()");
    assert.ok('value' in r && r.value === false);
  });
  it('serviceAccount() checks as the service account', () => {
    run("authorizer.serviceAccount('ns', 'sa').group('').resource('pods').check('get').allowed()");
    assert.deepEqual(seen.at(-1)?.user, {
      name: 'system:serviceaccount:ns:sa',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'],
    });
  });
  const errors: [string, string][] = [
    ["authorizer.path('  ')", 'path must not be empty'],
    ["authorizer.group('').resource('')", 'resource must not be empty'],
    ["authorizer.serviceAccount('ns', 'Bad_Name')", 'Invalid service account name'],
    ["authorizer.serviceAccount('Bad.NS', 'sa')", 'Invalid service account namespace'],
    ["authorizer.path('/x').check('explode')", 'error in authorization check: webhook down'],
  ];
  for (const [expr, want] of errors) {
    it(`${expr} → ${want}`, () => {
      const r = run(expr);
      assert.ok('error' in r && r.error.message.includes(want), JSON.stringify(r));
    });
  }
});

describe('AM-03 cost limit rejections', () => {
  const big = { items: Array.from({ length: 1000 }, (_, i) => `item-${i}`) };
  it('a comprehension over a large list passes a small limit', () => {
    const r = evalCel("self.items.all(x, x.startsWith('item-'))", { self: big }, { costLimit: 100 });
    assert.ok('error' in r);
    assert.equal(r.error.message, 'operation cancelled: actual cost limit exceeded');
  });
  it('the same expression fits the Kubernetes per-call limit (1,000,000)', () => {
    const r = evalCel(
      "self.items.all(x, x.startsWith('item-'))",
      { self: big },
      {
        costLimit: 1_000_000,
      },
    );
    assert.ok('value' in r && r.value === true);
    assert.ok(r.cost > 100);
  });
  it('eval options override the program limit', () => {
    const r = evalCel('self.items.isSorted()', { self: big }, { costLimit: 1 });
    assert.ok('error' in r && r.error.kind === 'costLimitExceeded');
  });
  it('regex cost grows with input and pattern', () => {
    const r = evalCel(
      "self.s.find('[a-z]+[0-9]+')",
      { self: { s: 'x'.repeat(10_000) } },
      {
        costLimit: 1000,
      },
    );
    assert.ok('error' in r && r.error.kind === 'costLimitExceeded');
  });
});
