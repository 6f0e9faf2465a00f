import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import { podTable } from './pod.js';

const now = new Date('2024-05-01T12:00:00Z');
const ago = (sec: number): string => new Date(now.getTime() - sec * 1000).toISOString();

function pod(extra: { metadata?: JsonObject; spec?: JsonObject; status?: JsonObject }): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default', creationTimestamp: ago(600), ...extra.metadata },
    spec: { containers: [{ name: 'app', image: 'nginx' }], ...extra.spec },
    status: { phase: 'Pending', ...extra.status },
  };
}

const running = { running: { startedAt: ago(500) } };

describe('podTable', () => {
  it('has the v1.27 columns', () => {
    assert.deepEqual(
      podTable.columns.map((c) => [c.name, c.type, c.format, c.priority]),
      [
        ['Name', 'string', 'name', 0],
        ['Ready', 'string', '', 0],
        ['Status', 'string', '', 0],
        ['Restarts', 'string', '', 0],
        ['Age', 'string', '', 0],
        ['IP', 'string', '', 1],
        ['Node', 'string', '', 1],
        ['Nominated Node', 'string', '', 1],
        ['Readiness Gates', 'string', '', 1],
      ],
    );
  });

  it('prints a pending pod with placeholders', () => {
    assert.deepEqual(podTable.cells(pod({}), now), [
      'p',
      '0/1',
      'Pending',
      '0',
      '10m',
      '<none>',
      '<none>',
      '<none>',
      '<none>',
    ]);
  });

  it('prints a running ready pod with wide cells', () => {
    const p = pod({
      spec: { nodeName: 'n1', readinessGates: [{ conditionType: 'x/gate' }, { conditionType: 'y/gate' }] },
      status: {
        phase: 'Running',
        podIP: '10.0.0.5',
        podIPs: [{ ip: '10.0.0.5' }, { ip: 'fd00::5' }],
        nominatedNodeName: 'n2',
        conditions: [
          { type: 'Ready', status: 'True' },
          { type: 'x/gate', status: 'True' },
          { type: 'y/gate', status: 'False' },
        ],
        containerStatuses: [{ name: 'app', ready: true, restartCount: 0, state: running }],
      },
    });
    assert.deepEqual(podTable.cells(p, now), [
      'p',
      '1/1',
      'Running',
      '0',
      '10m',
      '10.0.0.5',
      'n1',
      'n2',
      '1/2',
    ]);
  });

  it('shows CrashLoopBackOff with restarts and the last restart age', () => {
    const p = pod({
      status: {
        phase: 'Running',
        containerStatuses: [
          {
            name: 'app',
            ready: false,
            restartCount: 4,
            state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off' } },
            lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: ago(65) } },
          },
        ],
      },
    });
    const cells = podTable.cells(p, now);
    assert.equal(cells[1], '0/1');
    assert.equal(cells[2], 'CrashLoopBackOff');
    assert.equal(cells[3], '4 (65s ago)');
  });

  it('shows Init:x/y while an init container runs', () => {
    const p = pod({
      spec: { initContainers: [{ name: 'i1' }, { name: 'i2' }, { name: 'i3' }] },
      status: {
        phase: 'Pending',
        initContainerStatuses: [
          { name: 'i1', restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } },
          { name: 'i2', restartCount: 1, state: running },
          { name: 'i3', restartCount: 0, state: { waiting: { reason: 'PodInitializing' } } },
        ],
        containerStatuses: [
          { name: 'app', ready: false, restartCount: 0, state: { waiting: { reason: 'PodInitializing' } } },
        ],
      },
    });
    const cells = podTable.cells(p, now);
    assert.equal(cells[2], 'Init:1/3');
    assert.equal(cells[3], '1');
  });

  it('shows Init:<reason> for failing init containers', () => {
    const waiting = pod({
      spec: { initContainers: [{ name: 'i1' }] },
      status: {
        initContainerStatuses: [
          { name: 'i1', restartCount: 2, state: { waiting: { reason: 'CrashLoopBackOff' } } },
        ],
      },
    });
    assert.equal(podTable.cells(waiting, now)[2], 'Init:CrashLoopBackOff');
    const failed = pod({
      spec: { initContainers: [{ name: 'i1' }] },
      status: { initContainerStatuses: [{ name: 'i1', state: { terminated: { exitCode: 3 } } }] },
    });
    assert.equal(podTable.cells(failed, now)[2], 'Init:ExitCode:3');
    const signalled = pod({
      spec: { initContainers: [{ name: 'i1' }] },
      status: {
        initContainerStatuses: [{ name: 'i1', state: { terminated: { exitCode: 137, signal: 9 } } }],
      },
    });
    assert.equal(podTable.cells(signalled, now)[2], 'Init:Signal:9');
  });

  it('shows Completed, ExitCode and Error for terminated containers', () => {
    const completed = pod({
      status: {
        phase: 'Succeeded',
        containerStatuses: [{ name: 'app', state: { terminated: { exitCode: 0, reason: 'Completed' } } }],
      },
    });
    assert.deepEqual(podTable.cells(completed, now).slice(1, 4), ['0/1', 'Completed', '0']);
    const noReason = pod({
      status: {
        phase: 'Failed',
        containerStatuses: [{ name: 'app', state: { terminated: { exitCode: 2 } } }],
      },
    });
    assert.equal(podTable.cells(noReason, now)[2], 'ExitCode:2');
  });

  it('turns Completed back into Running/NotReady while another container runs', () => {
    const statuses = [
      { name: 'a', ready: true, state: running },
      { name: 'b', ready: false, state: { terminated: { exitCode: 0, reason: 'Completed' } } },
    ];
    const twoContainers = { containers: [{ name: 'a' }, { name: 'b' }] };
    const ready = pod({
      spec: twoContainers,
      status: {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'True' }],
        containerStatuses: statuses,
      },
    });
    assert.deepEqual(podTable.cells(ready, now).slice(1, 3), ['1/2', 'Running']);
    const notReady = pod({ spec: twoContainers, status: { phase: 'Running', containerStatuses: statuses } });
    assert.equal(podTable.cells(notReady, now)[2], 'NotReady');
  });

  it('shows Terminating when a deletionTimestamp is set, Unknown on a lost node', () => {
    const p = pod({
      metadata: { deletionTimestamp: ago(5) },
      status: { phase: 'Running', containerStatuses: [{ name: 'app', ready: true, state: running }] },
    });
    assert.deepEqual(podTable.cells(p, now).slice(1, 3), ['1/1', 'Terminating']);
    const lost = pod({
      metadata: { deletionTimestamp: ago(5) },
      status: { phase: 'Running', reason: 'NodeLost' },
    });
    assert.equal(podTable.cells(lost, now)[2], 'Unknown');
  });

  it('uses status.reason (Evicted) and SchedulingGated', () => {
    const evicted = pod({ status: { phase: 'Failed', reason: 'Evicted' } });
    assert.equal(podTable.cells(evicted, now)[2], 'Evicted');
    const gated = pod({
      status: { conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] },
    });
    assert.equal(podTable.cells(gated, now)[2], 'SchedulingGated');
  });

  it('falls back to podIPs[0] when podIP is absent', () => {
    const p = pod({ status: { podIPs: [{ ip: 'fd00::9' }] } });
    assert.equal(podTable.cells(p, now)[5], 'fd00::9');
  });
});
