import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ctx } from '../../../apis/apps/v1/testdata/fixtures.js';
import { StatusError } from '../../../machinery/errors.js';
import type { KubeObject } from '../../../machinery/object.js';
import { schedulingV1Resources, systemPriorityClasses } from './index.js';

const [priorityClasses] = schedulingV1Resources;

test('the bootstrap classes validate and carry upstream values and descriptions', () => {
  const classes = systemPriorityClasses();
  assert.deepEqual(
    classes.map((c) => [c.metadata.name, c['value'], c['preemptionPolicy']]),
    [
      ['system-node-critical', 2000001000, 'PreemptLowerPriority'],
      ['system-cluster-critical', 2000000000, 'PreemptLowerPriority'],
    ],
  );
  assert.equal(
    classes[1]!['description'],
    'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  );
  for (const c of classes) {
    assert.equal(c.apiVersion, 'scheduling.k8s.io/v1');
    assert.equal(c.kind, 'PriorityClass');
    assert.deepEqual(priorityClasses!.strategy.validate(ctx, c), []);
  }
  classes[0]!.metadata.name = 'changed';
  assert.equal(systemPriorityClasses()[0]!.metadata.name, 'system-node-critical', 'fresh objects each call');
});

test('PriorityClass strategy: cluster scoped, generation 1, unconditional updates', () => {
  const s = priorityClasses!.strategy;
  assert.equal(s.namespaced, false);
  assert.equal(s.allowCreateOnUpdate, false);
  assert.equal(s.allowUnconditionalUpdate, true);
  const pc: KubeObject = {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'p' },
    value: 1,
  };
  s.prepareForCreate(ctx, pc);
  assert.equal(pc.metadata.generation, 1);
  assert.equal(priorityClasses!.statusStrategy, undefined);
});

test('system classes cannot be deleted, others can', () => {
  const pending = priorityClasses!.deletionPending!;
  assert.equal(
    pending({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'mine' } }),
    false,
  );
  assert.throws(
    () =>
      pending({
        apiVersion: 'scheduling.k8s.io/v1',
        kind: 'PriorityClass',
        metadata: { name: 'system-node-critical' },
      }),
    (err: unknown) =>
      err instanceof StatusError &&
      err.code === 403 &&
      err.message ===
        'priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted',
  );
});
