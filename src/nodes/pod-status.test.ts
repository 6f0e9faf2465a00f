import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonObject } from '../util/json.js';
import { planNodes } from './simulated-nodes.js';
import {
  imageID,
  normalizeImage,
  pendingStatus,
  readinessDelayMs,
  runningStatus,
  runsToCompletion,
  scheduledCondition,
  terminatedStatus,
} from './pod-status.js';

const rt = {
  hostIP: '172.18.0.2',
  podIPs: ['10.244.0.2', 'fd00::2'],
  startTime: Date.parse('2024-01-01T00:00:00Z'),
};
const now = Date.parse('2024-01-01T00:00:05Z');

function pod(spec: JsonObject = {}): JsonObject {
  return {
    metadata: { name: 'p', namespace: 'default', uid: 'u1' },
    spec: {
      containers: [
        { name: 'a', image: 'nginx' },
        { name: 'b', image: 'quay.io/x/y:1' },
      ],
      ...spec,
    },
    status: {
      phase: 'Pending',
      qosClass: 'BestEffort',
      conditions: [
        {
          type: 'PodScheduled',
          status: 'True',
          lastProbeTime: null,
          lastTransitionTime: '2024-01-01T00:00:00Z',
        },
      ],
    },
  };
}

function types(status: JsonObject): string[] {
  return (status['conditions'] as JsonObject[]).map((c) => `${c['type'] as string}=${c['status'] as string}`);
}

describe('kubelet pod statuses', () => {
  it('normalizes images as containerd reports them', () => {
    assert.equal(normalizeImage('nginx'), 'docker.io/library/nginx:latest');
    assert.equal(normalizeImage('bitnami/redis:7'), 'docker.io/bitnami/redis:7');
    assert.equal(normalizeImage('localhost:5000/app'), 'localhost:5000/app:latest');
    assert.equal(normalizeImage('registry.k8s.io/pause@sha256:abc'), 'registry.k8s.io/pause@sha256:abc');
    assert.match(imageID('nginx:1.25'), /^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
  });

  it('Pending: ContainerCreating, no pod IP, QoS class not written, PodScheduled kept', () => {
    const s = pendingStatus(pod(), rt, now);
    assert.equal(s['phase'], 'Pending');
    assert.equal(s['podIP'], undefined);
    assert.equal(s['qosClass'], undefined);
    assert.equal(s['hostIP'], '172.18.0.2');
    assert.equal(s['startTime'], '2024-01-01T00:00:00Z');
    assert.deepEqual(types(s), [
      'Initialized=True',
      'Ready=False',
      'ContainersReady=False',
      'PodScheduled=True',
    ]);
    const ready = (s['conditions'] as JsonObject[])[1]!;
    assert.equal(ready['reason'], 'ContainersNotReady');
    assert.equal(ready['message'], 'containers with unready status: [a b]');
    const cs = (s['containerStatuses'] as JsonObject[])[0]!;
    assert.deepEqual(cs['state'], { waiting: { reason: 'ContainerCreating' } });
    const withInit = pendingStatus(pod({ initContainers: [{ name: 'i', image: 'busybox' }] }), rt, now);
    const init = (withInit['conditions'] as JsonObject[])[0]!;
    assert.equal(init['reason'], 'ContainersNotInitialized');
    assert.equal(init['message'], 'containers with incomplete status: [i]');
  });

  it('Running: pod IPs, ready containers, transition times kept while the status holds', () => {
    const s = runningStatus(pod(), rt, true, now);
    assert.equal(s['podIP'], '10.244.0.2');
    assert.deepEqual(s['podIPs'], [{ ip: '10.244.0.2' }, { ip: 'fd00::2' }]);
    assert.deepEqual(types(s), [
      'Initialized=True',
      'Ready=True',
      'ContainersReady=True',
      'PodScheduled=True',
    ]);
    const again = runningStatus({ ...pod(), status: s }, rt, true, now + 60_000);
    assert.deepEqual(again['conditions'], s['conditions']);
    const cs = (s['containerStatuses'] as JsonObject[])[1]!;
    assert.equal(cs['image'], 'quay.io/x/y:1');
    assert.equal(cs['started'], true);
    const unready = runningStatus(pod(), rt, false, now);
    assert.deepEqual(types(unready), [
      'Initialized=True',
      'Ready=False',
      'ContainersReady=False',
      'PodScheduled=True',
    ]);
  });

  it('Succeeded: containers terminated Completed with exit code 0', () => {
    const s = terminatedStatus(pod(), rt, 0, now);
    assert.equal(s['phase'], 'Succeeded');
    const t = ((s['containerStatuses'] as JsonObject[])[0]!['state'] as JsonObject)[
      'terminated'
    ] as JsonObject;
    assert.equal(t['reason'], 'Completed');
    assert.equal(t['exitCode'], 0);
    assert.equal(t['finishedAt'], '2024-01-01T00:00:05Z');
    assert.equal((s['conditions'] as JsonObject[])[1]!['reason'], 'PodCompleted');
    assert.equal(terminatedStatus(pod(), rt, 1, now)['phase'], 'Failed');
  });

  it('run-to-completion and readiness delays come from the spec', () => {
    assert.equal(runsToCompletion(pod()), false);
    assert.equal(runsToCompletion(pod({ restartPolicy: 'OnFailure' })), true);
    assert.equal(
      readinessDelayMs(
        pod({
          containers: [
            {
              name: 'a',
              image: 'x',
              readinessProbe: { exec: { command: ['true'] }, initialDelaySeconds: 3 },
            },
          ],
        }),
      ),
      3000,
    );
  });

  it("PodScheduled is the scheduler's condition, its keys in Go's order whatever order the server gave", () => {
    const server = {
      type: 'PodScheduled',
      status: 'True',
      lastTransitionTime: '2024-01-01T00:00:01Z',
      lastProbeTime: null,
    };
    const c = scheduledCondition([server], now);
    assert.deepEqual(Object.keys(c), ['type', 'status', 'lastProbeTime', 'lastTransitionTime']);
    assert.deepEqual(c, server);
    const own = {
      type: 'PodScheduled',
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime: '2024-01-01T00:00:01Z',
    };
    assert.equal(JSON.stringify(scheduledCondition([own], now)), JSON.stringify(c));
    // None yet: True from now.
    assert.deepEqual(scheduledCondition([], now), {
      type: 'PodScheduled',
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime: '2024-01-01T00:00:05Z',
    });
  });
});

describe('node planning', () => {
  it('hands out podCIDRs and InternalIPs per node, dual-stack (NW-08)', () => {
    const plan = planNodes(['n0', 'n1'], {
      podCIDRs: ['10.244.0.0/16', 'fd00:10:244::/56'],
      nodeIPs: ['172.18.0.254', 'fc00::2'],
    });
    assert.deepEqual(plan[1], {
      name: 'n1',
      addresses: ['172.18.0.255', 'fc00::3'],
      podCIDRs: ['10.244.1.0/24', 'fd00:10:244:1::/64'],
    });
    assert.throws(
      () =>
        planNodes(
          Array.from({ length: 257 }, (_, i) => `n${i}`),
          {},
        ),
      /podCIDR 10.244.0.0\/16 holds 256 \/24 node subnets, fewer than 257 nodes/,
    );
    assert.throws(
      () => planNodes(['n'], { podCIDRs: ['10.0.0.0/8', '10.1.0.0/16'] }),
      /at most one CIDR per IP family/,
    );
  });
});
