import assert from 'node:assert/strict';
import { test } from 'node:test';
import { forbiddenLabels, isKubeletLabel, labelNamespace, modifiedLabels } from './node-labels.js';

test('kubelet labels: the fixed list and the kubelet/node namespaces with their subdomains', () => {
  for (const key of [
    'kubernetes.io/hostname',
    'topology.kubernetes.io/zone',
    'failure-domain.beta.kubernetes.io/region',
    'beta.kubernetes.io/arch',
    'node.kubernetes.io/instance-type',
    'kubelet.kubernetes.io/anything',
    'foo.kubelet.kubernetes.io/x',
    'node.kubernetes.io/custom',
    'a.node.kubernetes.io/custom',
  ]) {
    assert.equal(isKubeletLabel(key), true, key);
  }
  for (const key of ['kubernetes.io/role', 'node-role.kubernetes.io/master', 'k8s.io/x', 'hostname']) {
    assert.equal(isKubeletLabel(key), false, key);
  }
  assert.equal(labelNamespace('a/b/c'), 'a');
  assert.equal(labelNamespace('plain'), '');
});

test('forbidden labels: node-restriction namespace, unknown kubernetes.io and k8s.io labels, sorted', () => {
  assert.deepEqual(
    forbiddenLabels([
      'node-role.kubernetes.io/master',
      'example.com/ok',
      'node-restriction.kubernetes.io/pool',
      'a.node-restriction.kubernetes.io/x',
      'x.k8s.io/y',
      'kubernetes.io/hostname',
      'plain',
    ]),
    [
      'a.node-restriction.kubernetes.io/x',
      'node-restriction.kubernetes.io/pool',
      'node-role.kubernetes.io/master',
      'x.k8s.io/y',
    ],
  );
});

test('modified labels: added, removed and changed keys', () => {
  assert.deepEqual([...modifiedLabels({ a: '1', b: '2', c: '3' }, { a: '1', b: '9', d: '4' })].sort(), [
    'b',
    'c',
    'd',
  ]);
});
