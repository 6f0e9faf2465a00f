import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultDaemonSet, defaultDeployment, defaultReplicaSet, defaultStatefulSet } from './defaults.js';
import { podTemplate, workload } from './testdata/fixtures.js';

test('Deployment defaults: replicas, rolling update 25%/25%, history, progress deadline, pod spec', () => {
  const d = workload('Deployment', 'apps/v1', {
    selector: { matchLabels: { a: 'b' } },
    template: podTemplate({ a: 'b' }),
  });
  defaultDeployment(d);
  const spec = d['spec'] as Record<string, unknown>;
  assert.equal(spec['replicas'], 1);
  assert.deepEqual(spec['strategy'], {
    type: 'RollingUpdate',
    rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
  });
  assert.equal(spec['revisionHistoryLimit'], 10);
  assert.equal(spec['progressDeadlineSeconds'], 600);
  const tmplSpec = (spec['template'] as { spec: Record<string, unknown> }).spec;
  assert.equal(tmplSpec['restartPolicy'], 'Always');
  assert.equal(tmplSpec['dnsPolicy'], 'ClusterFirst');
});

test('Deployment Recreate strategy gets no rollingUpdate; set values are kept', () => {
  const d = workload('Deployment', 'apps/v1', { replicas: 0, strategy: { type: 'Recreate' } });
  defaultDeployment(d);
  const spec = d['spec'] as Record<string, unknown>;
  assert.equal(spec['replicas'], 0);
  assert.deepEqual(spec['strategy'], { type: 'Recreate' });
});

test('ReplicaSet defaults replicas to 1', () => {
  const rs = workload('ReplicaSet', 'apps/v1', {});
  defaultReplicaSet(rs);
  assert.equal((rs['spec'] as Record<string, unknown>)['replicas'], 1);
});

test('StatefulSet defaults', () => {
  const sts = workload('StatefulSet', 'apps/v1', {
    volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }],
  });
  defaultStatefulSet(sts);
  const spec = sts['spec'] as Record<string, unknown>;
  assert.equal(spec['replicas'], 1);
  assert.equal(spec['podManagementPolicy'], 'OrderedReady');
  assert.deepEqual(spec['updateStrategy'], { type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
  assert.equal(spec['revisionHistoryLimit'], 10);
  assert.deepEqual(spec['persistentVolumeClaimRetentionPolicy'], {
    whenDeleted: 'Retain',
    whenScaled: 'Retain',
  });
  assert.deepEqual(spec['volumeClaimTemplates'], [
    {
      metadata: { name: 'data' },
      spec: { accessModes: ['ReadWriteOnce'], volumeMode: 'Filesystem' },
      status: { phase: 'Pending' },
    },
  ]);
});

test('StatefulSet OnDelete keeps no rollingUpdate', () => {
  const sts = workload('StatefulSet', 'apps/v1', { updateStrategy: { type: 'OnDelete' } });
  defaultStatefulSet(sts);
  assert.deepEqual((sts['spec'] as Record<string, unknown>)['updateStrategy'], { type: 'OnDelete' });
});

test('DaemonSet defaults: rolling update 1/0 and history 10', () => {
  const ds = workload('DaemonSet', 'apps/v1', {});
  defaultDaemonSet(ds);
  const spec = ds['spec'] as Record<string, unknown>;
  assert.deepEqual(spec['updateStrategy'], {
    type: 'RollingUpdate',
    rollingUpdate: { maxUnavailable: 1, maxSurge: 0 },
  });
  assert.equal(spec['revisionHistoryLimit'], 10);
});
