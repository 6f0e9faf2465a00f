import assert from 'node:assert/strict';
import { test } from 'node:test';
import { splitServiceAccountUsername } from './claims.js';

test('a service-account user name needs a valid namespace and name (upstream SplitUsername)', () => {
  assert.deepEqual(splitServiceAccountUsername('system:serviceaccount:ns:robot'), {
    namespace: 'ns',
    name: 'robot',
  });
  assert.deepEqual(splitServiceAccountUsername('system:serviceaccount:ns:a.b-c'), {
    namespace: 'ns',
    name: 'a.b-c',
  });
  for (const name of [
    'robot',
    'system:serviceaccount:ns',
    'system:serviceaccount:ns:robot:x',
    'system:serviceaccount::robot',
    'system:serviceaccount:ns:',
    'system:serviceaccount:Bad_NS:robot',
    'system:serviceaccount:a.b:robot',
    'system:serviceaccount:ns:Robot_X',
  ]) {
    assert.equal(splitServiceAccountUsername(name), undefined, name);
  }
});
