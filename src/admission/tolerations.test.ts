import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isSuperset, mergeTolerations, verifyAgainstWhitelist } from './tolerations.js';

const all = { operator: 'Exists' };
const fooExists = { key: 'foo', operator: 'Exists' };
const fooBar = { key: 'foo', operator: 'Equal', value: 'bar' };
const fooBarNoSched = { key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' };
const fooNoExec = { key: 'foo', operator: 'Exists', effect: 'NoExecute' };
const fooNoExec10 = { key: 'foo', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 };
const fooNoExec0 = { key: 'foo', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 0 };
const fooEmptyOp = { key: 'foo', value: 'bar' };

test('isSuperset follows pkg/util/tolerations', () => {
  assert.ok(isSuperset(all, fooBarNoSched));
  assert.ok(isSuperset(all, fooNoExec10));
  assert.ok(isSuperset(fooExists, fooBar));
  assert.ok(isSuperset(fooBar, fooBarNoSched));
  assert.ok(!isSuperset(fooBarNoSched, fooBar));
  assert.ok(isSuperset(fooNoExec, fooNoExec10));
  assert.ok(isSuperset(fooNoExec10, fooNoExec0));
  assert.ok(!isSuperset(fooNoExec10, fooNoExec));
  // An empty operator means Equal for the superset, but the subset must say Equal.
  assert.ok(isSuperset(fooEmptyOp, fooBar));
  assert.ok(!isSuperset(fooBar, fooEmptyOp));
  assert.ok(isSuperset(fooEmptyOp, { ...fooEmptyOp }));
  assert.ok(!isSuperset({ key: 'foo', operator: 'Weird' }, fooBar));
});

test('mergeTolerations keeps supersets, the first of equals, in order', () => {
  // fooExists (any effect) covers the NoExecute one too.
  assert.deepEqual(mergeTolerations([fooBar, fooNoExec10], [fooExists, fooNoExec10]), [fooExists]);
  assert.deepEqual(mergeTolerations([fooBarNoSched, fooNoExec], [fooBarNoSched]), [fooBarNoSched, fooNoExec]);
  assert.deepEqual(mergeTolerations([fooNoExec0], [fooNoExec10, { key: 'x', operator: 'Exists' }]), [
    fooNoExec10,
    { key: 'x', operator: 'Exists' },
  ]);
  assert.deepEqual(mergeTolerations([], []), []);
});

test('verifyAgainstWhitelist: each toleration needs a covering whitelist entry', () => {
  assert.ok(verifyAgainstWhitelist([fooBar], []));
  assert.ok(verifyAgainstWhitelist([], [fooBar]));
  assert.ok(verifyAgainstWhitelist([fooBar, fooBarNoSched], [fooExists]));
  assert.ok(!verifyAgainstWhitelist([fooBar, { key: 'x', operator: 'Exists' }], [fooExists]));
});
