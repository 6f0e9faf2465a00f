/** Unit: collection keys are refused as go-yaml v2 refuses them. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDocument } from 'yaml';
import { invalidMapKey } from './yaml-keys.js';

function check(text: string): string | undefined {
  return invalidMapKey(parseDocument(text, { version: '1.1', uniqueKeys: false }));
}

describe('invalidMapKey', () => {
  it("names a sequence or mapping key with Go's %#v", () => {
    assert.equal(check('a: 1\n? [a, 1]\n: c\n'), 'yaml: invalid map key: []interface {}{"a", 1}');
    assert.equal(
      check('x:\n  ? {b: 2, a: ~}\n  : c\n'),
      'yaml: invalid map key: map[interface {}]interface {}{"a":interface {}(nil), "b":2}',
    );
    assert.equal(check('s: &s [x]\n*s : 1\n'), 'yaml: invalid map key: []interface {}{"x"}');
  });

  it('accepts scalar keys, merge keys and aliases of scalars', () => {
    assert.equal(check('a: 1\n1: 2\ntrue: 3\nb: &k key\n*k : 4\nm: &m {a: 1}\nn:\n  <<: *m\n'), undefined);
  });
});
