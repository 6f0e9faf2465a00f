import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FieldPath } from '../field/errors.js';
import {
  LabelSelector,
  SelectorParseError,
  labelSelectorFromMetav1,
  labelSelectorFromSet,
  parseLabelSelector,
  validateLabelSelector,
} from './selector.js';

const parseError = (s: string): string => {
  try {
    parseLabelSelector(s);
  } catch (e) {
    assert.ok(e instanceof SelectorParseError);
    return e.message;
  }
  assert.fail(`expected ${JSON.stringify(s)} to fail`);
};

const qnameMsg =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const labelValueMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('parseLabelSelector', () => {
  it('round-trips upstream good strings (spaces removed)', () => {
    for (const s of [
      'x=a,y=b,z=c',
      '',
      'x!=a,y=b',
      'x=',
      'x= ',
      'x=,z= ',
      'x= ,z= ',
      '!x',
      'x>1',
      'x>1,z<5',
    ]) {
      assert.equal(parseLabelSelector(s).toString(), s.replaceAll(' ', ''), s);
    }
  });
  it('sorts requirements and values', () => {
    assert.equal(parseLabelSelector('x=a,a=x').toString(), 'a=x,x=a');
    assert.equal(parseLabelSelector('z in (c, a,b),!y,app').toString(), 'app,!y,z in (a,b,c)');
    assert.equal(
      parseLabelSelector('x notin (abc,,def),bar,z in (),w').toString(),
      'bar,w,x notin (,abc,def),z in ()',
    );
    assert.equal(parseLabelSelector('x==a').toString(), 'x==a');
    assert.equal(parseLabelSelector('\rx').toString(), 'x');
    assert.equal(parseLabelSelector('foo  in\t (abc)').toString(), 'foo in (abc)');
    assert.equal(parseLabelSelector('x in (in,notin)').toString(), 'x in (in,notin)');
  });
  it('fails like upstream', () => {
    assert.equal(
      parseError('x=a||y=b'),
      `unable to parse requirement: values[0][x]: Invalid value: "a||y": ${labelValueMsg}`,
    );
    assert.equal(parseError('x==a==b'), "found '==', expected: ',' or 'end of string'");
    assert.equal(parseError('!x=a'), "found '=', expected: ',' or 'end of string'");
    assert.equal(
      parseError('x<a'),
      `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`,
    );
    assert.equal(parseError('x,,y'), "found ',', expected: identifier after ','");
    assert.equal(parseError(',x,y'), "found ',', expected: !, identifier, or 'end of string'");
    assert.equal(
      parseError('x nott in (y)'),
      "unable to parse requirement: found 'nott', expected: in, notin, =, ==, !=, gt, lt",
    );
    assert.equal(parseError('a in (xyz),'), "found '', expected: identifier after ','");
    assert.equal(parseError('a in (xyz)b notin ()'), "found 'b', expected: ',' or 'end of string'");
    assert.equal(parseError('x in a'), "unable to parse requirement: found 'a' expected: '('");
    assert.equal(parseError('x in (a b)'), "unable to parse requirement: found 'b', expected: ',' or ')'");
    assert.equal(parseError('x in (a'), "unable to parse requirement: found '', expected: ',' or ')'");
    assert.equal(
      parseError('x in (='),
      "unable to parse requirement: found '=', expected: ',', ')' or identifier",
    );
    assert.equal(parseError('x=('), "unable to parse requirement: found '(', expected: identifier");
    assert.equal(parseError('!'), "unable to parse requirement: found '', expected: identifier");
    assert.equal(parseError('='), "found '=', expected: !, identifier, or 'end of string'");
  });
  it('validates keys and values with upstream messages', () => {
    assert.equal(
      parseError('a b'),
      "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt",
    );
    assert.equal(parseError('-x=1'), `unable to parse requirement: <nil>: Invalid value: "-x": ${qnameMsg}`);
    assert.equal(
      parseError('x=-a'),
      `unable to parse requirement: values[0][x]: Invalid value: "-a": ${labelValueMsg}`,
    );
    assert.equal(
      parseError('x in (-a,b-)'),
      `unable to parse requirement: [values[0][x]: Invalid value: "-a": ${labelValueMsg}, values[1][x]: Invalid value: "b-": ${labelValueMsg}]`,
    );
    assert.equal(
      parseError(`x=${'a'.repeat(64)}`),
      `unable to parse requirement: values[0][x]: Invalid value: "${'a'.repeat(64)}": must be no more than 63 characters`,
    );
  });
});

describe('matching', () => {
  const m = (sel: string, labels: Record<string, string> | undefined): boolean =>
    parseLabelSelector(sel).matches(labels);
  it('equality and sets', () => {
    assert.equal(m('', { x: 'y' }), true);
    assert.equal(m('x=y', { x: 'y' }), true);
    assert.equal(m('x=z', { x: 'y' }), false);
    assert.equal(m('x=y,z=w', { x: 'y', z: 'w' }), true);
    assert.equal(m('x!=y', {}), true);
    assert.equal(m('x!=y', { x: 'y' }), false);
    assert.equal(m('x=', {}), false);
    assert.equal(m('x=', { x: '' }), true);
    assert.equal(m('x in (a,b)', { x: 'b' }), true);
    assert.equal(m('x in (a,b)', {}), false);
    assert.equal(m('x notin (a,b)', {}), true);
    assert.equal(m('x notin (a,b)', { x: 'a' }), false);
    assert.equal(m('x', { x: '' }), true);
    assert.equal(m('x', undefined), false);
    assert.equal(m('!x', undefined), true);
    assert.equal(m('!x', { x: '1' }), false);
  });
  it('numeric comparisons', () => {
    assert.equal(m('x>1', { x: '2' }), true);
    assert.equal(m('x>1', { x: '1' }), false);
    assert.equal(m('x<1', { x: '-5' }), true);
    assert.equal(m('x>1', { x: 'a' }), false);
    assert.equal(m('x>1', {}), false);
  });
  it('exact-match lookup and emptiness', () => {
    assert.equal(parseLabelSelector('a=b,c in (d)').requiresExactMatch('c'), 'd');
    assert.equal(parseLabelSelector('a!=b').requiresExactMatch('a'), undefined);
    assert.equal(parseLabelSelector('').empty(), true);
    assert.equal(LabelSelector.nothing().empty(), false);
    assert.equal(LabelSelector.nothing().matches({}), false);
    assert.equal(labelSelectorFromSet({ b: '2', a: '1' }).toString(), 'a=1,b=2');
  });
});

describe('metav1.LabelSelector', () => {
  it('converts like LabelSelectorAsSelector', () => {
    assert.equal(labelSelectorFromMetav1(undefined).matches({}), false);
    assert.equal(labelSelectorFromMetav1({}).matches({}), true);
    const sel = labelSelectorFromMetav1({
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'tier', operator: 'In', values: ['b', 'a'] },
        { key: 'env', operator: 'NotIn', values: ['prod'] },
        { key: 'track', operator: 'Exists' },
        { key: 'legacy', operator: 'DoesNotExist' },
      ],
    });
    assert.equal(sel.toString(), 'app=web,env notin (prod),!legacy,tier in (a,b),track');
    assert.equal(sel.matches({ app: 'web', tier: 'a', track: '' }), true);
    assert.equal(sel.matches({ app: 'web', tier: 'a', track: '', legacy: 'x' }), false);
    assert.throws(
      () => labelSelectorFromMetav1({ matchExpressions: [{ key: 'a', operator: 'Foo' }] }),
      new SelectorParseError('"Foo" is not a valid label selector operator'),
    );
    assert.throws(
      () => labelSelectorFromMetav1({ matchExpressions: [{ key: 'a', operator: 'In' }] }),
      new SelectorParseError(
        "values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty",
      ),
    );
  });
  it('validates like metav1 validation.ValidateLabelSelector', () => {
    const path = FieldPath.root('spec', 'selector');
    const out = validateLabelSelector(
      {
        matchLabels: { app: '-x' },
        matchExpressions: [
          { key: 'a', operator: 'In' },
          { key: 'b', operator: 'Exists', values: ['x'] },
          { key: 'c/d/e', operator: 'Bad' },
          { key: 'ok', operator: 'NotIn', values: ['-bad'] },
        ],
      },
      path,
    ).map(String);
    assert.deepEqual(out, [
      `spec.selector.matchLabels: Invalid value: "-x": ${labelValueMsg}`,
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      "spec.selector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      'spec.selector.matchExpressions[2].operator: Invalid value: "Bad": not a valid selector operator',
      `spec.selector.matchExpressions[2].key: Invalid value: "c/d/e": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
      `spec.selector.matchExpressions[3].values[0]: Invalid value: "-bad": ${labelValueMsg}`,
    ]);
    assert.deepEqual(validateLabelSelector(undefined, path), []);
  });
});
