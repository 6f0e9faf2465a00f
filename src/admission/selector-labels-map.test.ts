import assert from 'node:assert/strict';
import { test } from 'node:test';
import { convertSelectorToLabelsMap, labelsConflict } from './selector-labels-map.js';

test('parses k=v lists, trimming spaces', () => {
  assert.deepEqual(convertSelectorToLabelsMap(''), { ok: true, labels: {} });
  assert.deepEqual(convertSelectorToLabelsMap(' a = b ,c=d,a=e'), { ok: true, labels: { a: 'e', c: 'd' } });
  assert.deepEqual(convertSelectorToLabelsMap('a='), { ok: true, labels: { a: '' } });
});

test('reports upstream’s errors', () => {
  assert.deepEqual(convertSelectorToLabelsMap('a=b=c'), { ok: false, error: 'invalid selector: [a b c]' });
  assert.deepEqual(convertSelectorToLabelsMap('a=b,'), { ok: false, error: 'invalid selector: []' });
  assert.deepEqual(convertSelectorToLabelsMap('a!=b'), {
    ok: false,
    error:
      "<nil>: Invalid value: \"a!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
  });
  const value = convertSelectorToLabelsMap('a=b c');
  assert.deepEqual(value, {
    ok: false,
    error:
      "[a]: Invalid value: \"b c\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
  });
});

test('labelsConflict: a shared key with different values', () => {
  assert.ok(labelsConflict({ a: '1', b: '2' }, { b: '3' }));
  assert.ok(!labelsConflict({ a: '1' }, { a: '1', b: '3' }));
  assert.ok(!labelsConflict({}, { a: '1' }));
});
