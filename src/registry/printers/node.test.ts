import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import { nodeTable } from './node.js';

const now = new Date('2024-05-01T12:00:00Z');

function node(labels: Record<string, string>, spec: JsonObject, status: JsonObject): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'n1', labels, creationTimestamp: '2024-04-23T12:00:00Z' },
    spec,
    status,
  };
}

const info = {
  kubeletVersion: 'v1.27.3',
  osImage: 'Ubuntu 22.04.2 LTS',
  kernelVersion: '5.15.0-76-generic',
  containerRuntimeVersion: 'containerd://1.7.2',
};

describe('nodeTable', () => {
  it('has the v1.27 columns', () => {
    assert.deepEqual(
      nodeTable.columns.map((c) => `${c.name}:${c.priority}`),
      [
        'Name:0',
        'Status:0',
        'Roles:0',
        'Age:0',
        'Version:0',
        'Internal-IP:1',
        'External-IP:1',
        'OS-Image:1',
        'Kernel-Version:1',
        'Container-Runtime:1',
      ],
    );
  });

  it('prints a ready control-plane node', () => {
    const n = node(
      { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/hostname': 'n1' },
      {},
      {
        conditions: [
          { type: 'MemoryPressure', status: 'False' },
          { type: 'Ready', status: 'True' },
        ],
        addresses: [
          { type: 'Hostname', address: 'n1' },
          { type: 'InternalIP', address: '192.168.1.10' },
        ],
        nodeInfo: info,
      },
    );
    assert.deepEqual(nodeTable.cells(n, now), [
      'n1',
      'Ready',
      'control-plane',
      '8d',
      'v1.27.3',
      '192.168.1.10',
      '<none>',
      'Ubuntu 22.04.2 LTS',
      '5.15.0-76-generic',
      'containerd://1.7.2',
    ]);
  });

  it('prints cordoned, not-ready and unknown nodes', () => {
    const cordoned = node({}, { unschedulable: true }, { conditions: [{ type: 'Ready', status: 'True' }] });
    assert.equal(nodeTable.cells(cordoned, now)[1], 'Ready,SchedulingDisabled');
    const notReady = node({}, {}, { conditions: [{ type: 'Ready', status: 'Unknown' }] });
    assert.equal(nodeTable.cells(notReady, now)[1], 'NotReady');
    const unknown = node({}, { unschedulable: true }, {});
    assert.deepEqual(nodeTable.cells(unknown, now).slice(1, 5), [
      'Unknown,SchedulingDisabled',
      '<none>',
      '8d',
      '',
    ]);
    assert.deepEqual(nodeTable.cells(unknown, now).slice(5), [
      '<none>',
      '<none>',
      '<unknown>',
      '<unknown>',
      '<unknown>',
    ]);
  });

  it('collects and sorts roles from both label styles', () => {
    const n = node(
      {
        'node-role.kubernetes.io/worker': '',
        'node-role.kubernetes.io/': 'ignored',
        'kubernetes.io/role': 'ingress',
        'node-role.kubernetes.io/control-plane': 'true',
      },
      {},
      {},
    );
    assert.equal(nodeTable.cells(n, now)[2], 'control-plane,ingress,worker');
  });
});
