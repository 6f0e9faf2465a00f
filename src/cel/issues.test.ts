import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CelCompileError, formatIssues, issueLocation } from './issues.js';

describe('formatIssues (cel-go common/errors.go ToDisplayString)', () => {
  it('renders location, snippet and caret', () => {
    assert.equal(
      formatIssues('a + ', [{ message: "Syntax error: mismatched input '<EOF>'", offset: 4 }]),
      "ERROR: <input>:1:5: Syntax error: mismatched input '<EOF>'\n | a + \n | ....^",
    );
  });
  it('sorts by line and column and uses wide dots for multi-byte runes', () => {
    const src = 'a\n"é" + x';
    const out = formatIssues(src, [
      { message: 'second', offset: 8 },
      { message: 'first', offset: 0 },
    ]);
    assert.equal(
      out,
      'ERROR: <input>:1:1: first\n | a\n | ^\nERROR: <input>:2:7: second\n | "é" + x\n | .．....^',
    );
  });
  it('columns count code points, not UTF-16 units', () => {
    assert.deepEqual(issueLocation('"😀" + y', 7), { line: 1, column: 6 });
  });
  it('CelCompileError carries the issues and the display message', () => {
    const err = new CelCompileError('x', [{ message: 'undeclared reference', offset: 0 }]);
    assert.equal(err.message, 'ERROR: <input>:1:1: undeclared reference\n | x\n | ^');
    assert.equal(err.issues.length, 1);
  });
});

describe('NoLocation', () => {
  it('a negative offset renders as -1:0 without a snippet', () => {
    assert.equal(
      formatIssues('x', [{ message: 'expression recursion limit exceeded: 250', offset: -1 }]),
      'ERROR: <input>:-1:0: expression recursion limit exceeded: 250',
    );
  });
});
