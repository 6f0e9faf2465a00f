import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CelCompileError } from '../issues.js';
import { parseCel } from './parse.js';

function parseError(source: string): string {
  try {
    parseCel(source);
  } catch (err) {
    assert.ok(err instanceof CelCompileError);
    return err.message;
  }
  assert.fail(`expected ${source} not to parse`);
}

describe('parseCel (AM-09: compile errors are CelCompileError, never thrown raw)', () => {
  it('returns expr and source info with line offsets and expanded macros', () => {
    const { expr, sourceInfo } = parseCel('self.all(x,\n x > 0)');
    assert.equal(expr.exprKind.case, 'comprehensionExpr');
    assert.deepEqual(sourceInfo.lineOffsets, [12, 20]);
  });
  it('reports syntax errors in cel-go display format', () => {
    assert.equal(
      parseError('1 + '),
      "ERROR: <input>:1:5: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | 1 + \n | ....^",
    );
    assert.match(parseError('`x`'), /^ERROR: <input>:1:1: Syntax error: token recognition error at: '`'/);
  });
  it('words syntax errors as ANTLR does (k8s validation_test.go, admission compile_test.go)', () => {
    assert.match(parseError('self.true == 1'), /Syntax error: mismatched input 'true' expecting IDENTIFIER/);
    assert.match(parseError("self.objs[0][0].k! == '1'"), /Syntax error: mismatched input '!' expecting/);
    assert.match(parseError("'asdf'.contains('x'"), /Syntax error: missing '\)' at '<EOF>'/);
    assert.match(parseError('1 + 2 3'), /1:7: Syntax error: extraneous input '3' expecting <EOF>/);
    assert.match(parseError('a.'), /Syntax error: missing IDENTIFIER at '<EOF>'/);
    assert.match(parseError('in'), /1:1: Syntax error: mismatched input 'in' expecting/);
  });
  it('lexer errors: every one, and the parse error after them', () => {
    const message = parseError('*@a | b');
    assert.match(message, /1:1: Syntax error: extraneous input '\*' expecting/);
    assert.match(message, /1:2: Syntax error: token recognition error at: '@'/);
    assert.match(message, /1:5: Syntax error: token recognition error at: '\| '/);
    assert.match(parseError('"\\q"'), /token recognition error at: '"\\q'/);
    assert.match(parseError('"\\xFh"'), /token recognition error at: '"\\xFh'/);
  });
  it('reserved identifiers', () => {
    assert.match(parseError('while'), /^ERROR: <input>:1:1: reserved identifier: while\n/);
    assert.match(parseError('has(m)'), /^ERROR: <input>:1:5: invalid argument to has\(\) macro/);
  });
  it('has() and macro arguments', () => {
    assert.match(parseError('has(a)'), /invalid argument to has\(\) macro/);
    assert.match(parseError('[1].all(1, true)'), /argument must be a simple name/);
    assert.match(parseError('[1].map(x.y, x)'), /argument is not an identifier/);
    assert.equal(parseCel('has(a.b)').expr.exprKind.case, 'selectExpr');
  });
  it('literal ranges', () => {
    assert.match(parseError('9223372036854775808'), /invalid int literal/);
    assert.equal(parseCel('-9223372036854775808').expr.exprKind.case, 'constExpr');
    assert.match(parseError('18446744073709551616u'), /invalid uint literal/);
    assert.match(parseError('1e400'), /invalid double literal/);
  });
  it('limits (cel-go parser defaults)', () => {
    const deep = '['.repeat(260) + ']'.repeat(260);
    assert.equal(parseError(deep), 'ERROR: <input>:-1:0: expression recursion limit exceeded: 250');
    assert.doesNotThrow(() => parseCel('['.repeat(20) + ']'.repeat(20)));
    assert.doesNotThrow(() => parseCel(Array.from({ length: 100 }, () => "'(((((('").join(' + ')));
    const big = 'a' + ' '.repeat(100_000);
    assert.match(parseError(big), /expression code point size exceeds limit: size: 100001, limit 100000/);
    assert.doesNotThrow(() => parseCel(Array.from({ length: 300 }, () => 'a').join(' && ')));
  });
});

describe('positions as cel-go records them', () => {
  function positionOf(source: string, fn: string): number | undefined {
    const { expr, sourceInfo } = parseCel(source);
    const stack = [expr];
    while (stack.length > 0) {
      const e = stack.pop()!;
      const k = e.exprKind;
      if (k.case === 'callExpr') {
        if (k.value.function === fn) return sourceInfo.positions[e.id.toString()];
        stack.push(...k.value.args, ...(k.value.target ? [k.value.target] : []));
      }
      if (k.case === 'comprehensionExpr' && fn === 'comprehension') {
        return sourceInfo.positions[e.id.toString()];
      }
    }
    return undefined;
  }
  it('operators at their token, calls at their parenthesis', () => {
    assert.equal(positionOf("self == 'a'", '_==_'), 5);
    assert.equal(positionOf('a  [0]', '_[_]'), 3);
    assert.equal(positionOf('a ? b : c', '_?_:_'), 2);
    assert.equal(positionOf('a.b(1)', 'b'), 3);
    assert.equal(positionOf('size(x)', 'size'), 4);
    assert.equal(positionOf('x.all(y, y)', 'comprehension'), 5);
    assert.equal(positionOf('a && b && c', '_&&_'), 7);
  });
});
