import assert from 'node:assert/strict';
import { test } from 'node:test';
import { goSprintfWithoutArgs } from './go-sprintf.js';

test("Go's Sprintf without operands: missing verbs, %%, no verb, bad width, precision and index", () => {
  const cases: [string, string][] = [
    ['plain text', 'plain text'],
    ['50%off', '50%!o(MISSING)ff'],
    ['/healthz%s', '/healthz%!s(MISSING)'],
    ['100%', '100%!(NOVERB)'],
    ['%d%%', '%!d(MISSING)%'],
    ['%-5.2f', '%!f(MISSING)'],
    ['% x', '%!x(MISSING)'],
    ['%*d', '%!(BADWIDTH)%!d(MISSING)'],
    ['%.*d', '%!(BADPREC)%!d(MISSING)'],
    ['%[1]s', '%!s(BADINDEX)'],
    ['%[x]s', '%!s(BADINDEX)'],
    ['%.', '%!.(MISSING)'],
    ['%é', '%!é(MISSING)'],
    ['%!', '%!!(MISSING)'],
  ];
  for (const [format, want] of cases) assert.equal(goSprintfWithoutArgs(format), want, format);
});
