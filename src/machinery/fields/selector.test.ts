import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  FieldSelector,
  FieldSelectorParseError,
  checkFieldSelectorSupported,
  escapeFieldValue,
  parseFieldSelector,
  unescapeFieldValue,
} from './selector.js';

const parseError = (s: string): string => {
  try {
    parseFieldSelector(s);
  } catch (e) {
    assert.ok(e instanceof FieldSelectorParseError);
    return e.message;
  }
  assert.fail(`expected ${JSON.stringify(s)} to fail`);
};

describe('parseFieldSelector', () => {
  it('parses and prints like upstream (terms sorted, == shown as =)', () => {
    assert.equal(parseFieldSelector('').toString(), '');
    assert.equal(parseFieldSelector('metadata.name=a').toString(), 'metadata.name=a');
    assert.equal(parseFieldSelector('x=a,y!=b').toString(), 'x=a,y!=b');
    assert.equal(parseFieldSelector('y!=b,x==a').toString(), 'x=a,y!=b');
    assert.equal(parseFieldSelector('x=').toString(), 'x=');
    assert.equal(parseFieldSelector('x=a\\,b\\=c\\\\d').toString(), 'x=a\\,b\\=c\\\\d');
    assert.deepEqual(parseFieldSelector('spec.nodeName=n1,status.phase!=Running').requirements(), [
      { field: 'spec.nodeName', operator: '=', value: 'n1' },
      { field: 'status.phase', operator: '!=', value: 'Running' },
    ]);
    assert.deepEqual(parseFieldSelector('x=a\\,b').requirements(), [
      { field: 'x', operator: '=', value: 'a,b' },
    ]);
    assert.equal(parseFieldSelector('=,x=1').toString(), 'x=1');
    assert.equal(parseFieldSelector(',,').empty(), true);
  });
  it('fails with upstream messages', () => {
    assert.equal(parseError('x'), "invalid selector: 'x'; can't understand 'x'");
    assert.equal(parseError('a=1,b'), "invalid selector: 'a=1,b'; can't understand 'b'");
    assert.equal(parseError('x=a=b'), 'invalid field selector: unescaped character in value: 61');
    assert.equal(parseError('x=a\\b'), 'invalid field selector: invalid escape sequence: \\b');
    assert.equal(parseError('x=a\\'), 'invalid field selector: invalid escape sequence: \\');
  });
  it('escapes values', () => {
    assert.equal(escapeFieldValue('a,b=c\\'), 'a\\,b\\=c\\\\');
    assert.equal(unescapeFieldValue('a\\,b\\=c\\\\'), 'a,b=c\\');
  });
});

describe('matching and support checks', () => {
  it('matches with missing fields reading as empty', () => {
    const sel = parseFieldSelector('metadata.name=a,status.phase!=Failed');
    assert.equal(sel.matches({ 'metadata.name': 'a', 'status.phase': 'Running' }), true);
    assert.equal(sel.matches({ 'metadata.name': 'a', 'status.phase': 'Failed' }), false);
    assert.equal(sel.matches({ 'metadata.name': 'b' }), false);
    assert.equal(parseFieldSelector('x=').matches({}), true);
    assert.equal(FieldSelector.everything().matches({}), true);
    assert.equal(FieldSelector.nothing().matches({}), false);
    assert.equal(sel.requiresExactMatch('metadata.name'), 'a');
    assert.equal(sel.requiresExactMatch('status.phase'), undefined);
  });
  it('reports the first unsupported field', () => {
    const supported = new Set(['metadata.name', 'metadata.namespace']);
    assert.equal(checkFieldSelectorSupported(parseFieldSelector('metadata.name=a'), supported), undefined);
    assert.equal(
      checkFieldSelectorSupported(parseFieldSelector('metadata.name=a,foo=b'), supported),
      'field label not supported: foo',
    );
  });
});
