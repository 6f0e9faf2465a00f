import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ctx, messages } from '../../../apis/apps/v1/testdata/fixtures.js';
import type { KubeObject } from '../../../machinery/object.js';
import { leases } from './leases.js';

function lease(spec: KubeObject['spec']): KubeObject {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'l', namespace: 'default' },
    spec: spec ?? {},
  };
}

test('Lease durations and transitions', () => {
  assert.deepEqual(
    messages(leases.strategy.validate(ctx, lease({ holderIdentity: 'a', leaseDurationSeconds: 15 }))),
    [],
  );
  assert.deepEqual(
    messages(leases.strategy.validate(ctx, lease({ leaseDurationSeconds: 0, leaseTransitions: -1 }))),
    [
      'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
      'spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0',
    ],
  );
  assert.equal(leases.strategy.allowCreateOnUpdate, true);
  assert.equal(leases.strategy.allowUnconditionalUpdate, false);
});
