import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { keyedList } from '../schema/keyed-lists.js';
import { parseCel } from './parse.js';
import { CelProgramError, newProgram } from './program.js';
import { evalCel, plain } from './test-helpers.js';

describe('newProgram / eval (AM-09: never throws)', () => {
  it('returns values and cel-go error texts', () => {
    const ok = evalCel('x + 1', { x: 41n });
    assert.ok('value' in ok && ok.value === 42n);
    const cases: [string, string][] = [
      ['1 / 0', 'division by zero'],
      ['1 % 0', 'modulus by zero'],
      ['9223372036854775807 + 1', 'integer overflow'],
      ['1u - 2u', 'unsigned integer overflow'],
      ["{'a': 1}['b']", 'no such key: b'],
      ['[1][3]', 'index out of bounds: 3'],
      ["dyn(1) + 'a'", 'no such overload'],
      ['missing', 'no such attribute'],
    ];
    for (const [expr, message] of cases) {
      const r = evalCel(expr);
      assert.ok('error' in r, expr);
      assert.equal(r.error.message, message, expr);
    }
  });
  it('only declared variables are bound', () => {
    const program = newProgram(parseCel('secret'), { variables: ['self'] });
    const r = program.eval({ secret: 1n });
    assert.ok('error' in r && r.error.message === 'no such attribute');
  });
  it('a constant regex that does not compile fails the program', () => {
    assert.throws(() => newProgram(parseCel("'a'.matches('(')")), CelProgramError);
    assert.doesNotThrow(() => newProgram(parseCel("'a'.matches('(')"), { optimize: false }));
  });
  it('sets and map lists compare and concatenate by key on the left (schema/keyed-lists.ts)', () => {
    const set = keyedList('set', ['a', 'b'], ['a', 'b'], []);
    assert.equal(plain(valueOf("self == ['b', 'a']", set)), true);
    assert.equal(plain(valueOf("self != ['b', 'a']", set)), false);
    assert.deepEqual(plain(valueOf("self + ['b', 'c']", set)), ['a', 'b', 'c']);
    assert.equal(plain(valueOf("['b', 'a'] == self", set)), false);
  });
});

function valueOf(expr: string, self: unknown) {
  const r = evalCel(expr, { self: self as never });
  assert.ok('value' in r, `${expr}: ${'error' in r ? r.error.message : ''}`);
  return r.value;
}
