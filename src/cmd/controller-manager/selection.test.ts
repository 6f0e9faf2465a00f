import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseControllers } from './selection.js';

const implemented = { namespace: true, garbagecollector: true, 'root-ca-cert-publisher': true };

test('* runs every implemented controller; -name turns one off', () => {
  assert.deepEqual([...parseControllers('*', implemented).enabled].sort(), [
    'garbagecollector',
    'namespace',
    'root-ca-cert-publisher',
  ]);
  assert.deepEqual([...parseControllers('*,-garbagecollector', implemented).enabled].sort(), [
    'namespace',
    'root-ca-cert-publisher',
  ]);
  assert.deepEqual([...parseControllers('namespace', implemented).enabled], ['namespace']);
});

test('upstream names not built yet are accepted and reported; unknown names are refused', () => {
  const sel = parseControllers('*,-cronjob', implemented);
  assert.ok(sel.unavailable.includes('deployment'));
  assert.ok(!sel.unavailable.includes('cronjob'));
  assert.ok(!sel.unavailable.includes('bootstrapsigner'), 'off by default upstream');
  assert.deepEqual(parseControllers('bootstrapsigner', implemented).unavailable, ['bootstrapsigner']);
  assert.throws(
    () => parseControllers('*,nope', implemented),
    /^FlagError: "nope" is not in the list of known controllers$/,
  );
});
