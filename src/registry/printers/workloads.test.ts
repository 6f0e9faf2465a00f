import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import { cronJobTable } from './cronjob.js';
import { daemonSetTable } from './daemonset.js';
import { deploymentTable } from './deployment.js';
import { jobTable } from './job.js';
import { replicaSetTable } from './replicaset.js';
import { statefulSetTable } from './statefulset.js';

const now = new Date('2024-05-01T12:00:00Z');
const ago = (sec: number): string => new Date(now.getTime() - sec * 1000).toISOString();

function workload(kind: string, spec: JsonObject, status: JsonObject = {}): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind,
    metadata: { name: 'w', namespace: 'default', creationTimestamp: ago(7200) },
    spec,
    status,
  };
}

const template = {
  metadata: { labels: { app: 'web' } },
  spec: {
    containers: [
      { name: 'web', image: 'nginx:1.25' },
      { name: 'sidecar', image: 'busybox' },
    ],
  },
};
const selector = {
  matchLabels: { app: 'web' },
  matchExpressions: [{ key: 'tier', operator: 'In', values: ['fe', 'be'] }],
};

const columnNames = (t: { columns: readonly { name: string; priority: number }[] }): string[] =>
  t.columns.map((c) => (c.priority === 1 ? `${c.name}*` : c.name));

describe('deploymentTable', () => {
  it('prints ready/desired, counts and wide cells', () => {
    assert.deepEqual(columnNames(deploymentTable), [
      'Name',
      'Ready',
      'Up-to-date',
      'Available',
      'Age',
      'Containers*',
      'Images*',
      'Selector*',
    ]);
    const d = workload(
      'Deployment',
      { replicas: 3, selector, template },
      { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
    );
    assert.deepEqual(deploymentTable.cells(d, now), [
      'w',
      '2/3',
      3,
      2,
      '120m',
      'web,sidecar',
      'nginx:1.25,busybox',
      'app=web,tier in (be,fe)',
    ]);
  });
  it('prints a fresh deployment with zero status', () => {
    const d = workload('Deployment', { replicas: 1, selector: { matchLabels: { app: 'web' } }, template });
    assert.deepEqual(deploymentTable.cells(d, now).slice(1, 4), ['0/1', 0, 0]);
  });
});

describe('replicaSetTable', () => {
  it('prints desired/current/ready integers and the selector', () => {
    assert.deepEqual(columnNames(replicaSetTable), [
      'Name',
      'Desired',
      'Current',
      'Ready',
      'Age',
      'Containers*',
      'Images*',
      'Selector*',
    ]);
    const rs = workload('ReplicaSet', { replicas: 2, selector, template }, { replicas: 2, readyReplicas: 1 });
    assert.deepEqual(replicaSetTable.cells(rs, now), [
      'w',
      2,
      2,
      1,
      '120m',
      'web,sidecar',
      'nginx:1.25,busybox',
      'app=web,tier in (be,fe)',
    ]);
  });
});

describe('statefulSetTable', () => {
  it('prints ready/desired and containers', () => {
    assert.deepEqual(columnNames(statefulSetTable), ['Name', 'Ready', 'Age', 'Containers*', 'Images*']);
    const sts = workload(
      'StatefulSet',
      { replicas: 3, selector, template, serviceName: 'w' },
      { readyReplicas: 3 },
    );
    assert.deepEqual(statefulSetTable.cells(sts, now), [
      'w',
      '3/3',
      '120m',
      'web,sidecar',
      'nginx:1.25,busybox',
    ]);
  });
});

describe('daemonSetTable', () => {
  it('prints the scheduling counts and the node selector', () => {
    assert.deepEqual(columnNames(daemonSetTable), [
      'Name',
      'Desired',
      'Current',
      'Ready',
      'Up-to-date',
      'Available',
      'Node Selector',
      'Age',
      'Containers*',
      'Images*',
      'Selector*',
    ]);
    const withNodeSelector = {
      ...template,
      spec: { ...template.spec, nodeSelector: { 'kubernetes.io/os': 'linux', disk: 'ssd' } },
    };
    const ds = workload(
      'DaemonSet',
      { selector: { matchLabels: { app: 'web' } }, template: withNodeSelector },
      {
        desiredNumberScheduled: 3,
        currentNumberScheduled: 3,
        numberReady: 2,
        updatedNumberScheduled: 3,
        numberAvailable: 2,
      },
    );
    assert.deepEqual(daemonSetTable.cells(ds, now), [
      'w',
      3,
      3,
      2,
      3,
      2,
      'disk=ssd,kubernetes.io/os=linux',
      '120m',
      'web,sidecar',
      'nginx:1.25,busybox',
      'app=web',
    ]);
    const plain = workload('DaemonSet', { selector: { matchLabels: { app: 'web' } }, template });
    assert.equal(daemonSetTable.cells(plain, now)[6], '<none>');
  });
});

describe('jobTable', () => {
  const jobSelector = { matchLabels: { 'controller-uid': 'u1' } };
  it('prints completions, duration and selector', () => {
    assert.deepEqual(columnNames(jobTable), [
      'Name',
      'Completions',
      'Duration',
      'Age',
      'Containers*',
      'Images*',
      'Selector*',
    ]);
    const done = workload(
      'Job',
      { completions: 1, parallelism: 1, selector: jobSelector, template },
      { succeeded: 1, startTime: ago(7000), completionTime: ago(6950) },
    );
    assert.deepEqual(jobTable.cells(done, now), [
      'w',
      '1/1',
      '50s',
      '120m',
      'web,sidecar',
      'nginx:1.25,busybox',
      'controller-uid=u1',
    ]);
  });
  it('handles running, unstarted and work-queue jobs', () => {
    const runningJob = workload('Job', { completions: 5, template }, { succeeded: 2, startTime: ago(200) });
    assert.deepEqual(jobTable.cells(runningJob, now).slice(1, 3), ['2/5', '3m20s']);
    const notStarted = workload('Job', { template });
    assert.deepEqual(jobTable.cells(notStarted, now).slice(1, 3), ['0/1', '']);
    const queue = workload('Job', { parallelism: 4, template }, { succeeded: 1, startTime: ago(30) });
    assert.equal(jobTable.cells(queue, now)[1], '1/1 of 4');
  });
});

describe('cronJobTable', () => {
  const jobTemplate = { spec: { template } };
  it('prints schedule, suspend, active and last schedule (no Timezone column in v1.27)', () => {
    assert.deepEqual(columnNames(cronJobTable), [
      'Name',
      'Schedule',
      'Suspend',
      'Active',
      'Last Schedule',
      'Age',
      'Containers*',
      'Images*',
      'Selector*',
    ]);
    assert.equal(cronJobTable.columns[2]?.type, 'boolean');
    const cj = workload(
      'CronJob',
      { schedule: '*/5 * * * *', suspend: false, timeZone: 'Etc/UTC', jobTemplate },
      { active: [{ kind: 'Job', name: 'w-1' }], lastScheduleTime: ago(90) },
    );
    assert.deepEqual(cronJobTable.cells(cj, now), [
      'w',
      '*/5 * * * *',
      'False',
      1,
      '90s',
      '120m',
      'web,sidecar',
      'nginx:1.25,busybox',
      '<none>',
    ]);
  });
  it('prints unset suspend and never-scheduled jobs', () => {
    const cj = workload('CronJob', { schedule: '@hourly', jobTemplate });
    assert.deepEqual(cronJobTable.cells(cj, now).slice(1, 5), ['@hourly', '<unset>', 0, '<none>']);
    const suspended = workload('CronJob', { schedule: '@daily', suspend: true, jobTemplate });
    assert.equal(cronJobTable.cells(suspended, now)[2], 'True');
  });
});
