import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../../util/json.js';
import {
  daemonPodTemplate,
  nodeShouldRunDaemonPod,
  pinToNode,
  targetNodeName,
  tolerates,
} from './daemon-pod.js';

const ds = (podSpec: JsonObject = {}): JsonObject => ({
  metadata: { name: 'd' },
  spec: { template: { metadata: { labels: { app: 'd' } }, spec: { containers: [], ...podSpec } } },
});
const node = (name: string, l: Record<string, string> = {}, taints: JsonObject[] = []): JsonObject => ({
  metadata: { name, labels: l },
  spec: { taints },
});

test('the template gets revision labels and the daemon tolerations (network-unavailable with hostNetwork)', () => {
  const t = daemonPodTemplate(
    ds({
      tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }],
    }),
    3,
    'h',
  );
  assert.deepEqual((t['metadata'] as JsonObject)['labels'], {
    app: 'd',
    'pod-template-generation': '3',
    'controller-revision-hash': 'h',
  });
  const keys = ((t['spec'] as JsonObject)['tolerations'] as JsonObject[]).map((x) => x['key']);
  assert.deepEqual(keys, [
    'node.kubernetes.io/unschedulable',
    'node.kubernetes.io/not-ready',
    'node.kubernetes.io/unreachable',
    'node.kubernetes.io/disk-pressure',
    'node.kubernetes.io/memory-pressure',
    'node.kubernetes.io/pid-pressure',
  ]);
  const h = daemonPodTemplate(ds({ hostNetwork: true }), 1, 'h');
  assert.equal(((h['spec'] as JsonObject)['tolerations'] as JsonObject[]).length, 7);
});

test('pinToNode replaces required terms, keeps preferred; targetNodeName reads it back', () => {
  const a = pinToNode(
    {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [] }] },
        preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1 }],
      },
    },
    'n1',
  );
  assert.deepEqual(a, {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }],
      },
      preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1 }],
    },
  });
  assert.equal(targetNodeName({ spec: { affinity: a } }), 'n1');
  assert.equal(targetNodeName({ spec: { nodeName: 'n2', affinity: a } }), 'n2');
});

test('nodeShouldRunDaemonPod: selector, affinity, NoSchedule versus NoExecute taints', () => {
  const t = daemonPodTemplate(ds({ nodeSelector: { role: 'edge' } }), 1, 'h');
  assert.equal(nodeShouldRunDaemonPod(node('a', { role: 'edge' }), t).shouldRun, true);
  assert.deepEqual(nodeShouldRunDaemonPod(node('a'), t), { shouldRun: false, shouldContinueRunning: false });
  const plain = daemonPodTemplate(ds(), 1, 'h');
  assert.deepEqual(nodeShouldRunDaemonPod(node('a', {}, [{ key: 'x', effect: 'NoSchedule' }]), plain), {
    shouldRun: false,
    shouldContinueRunning: true,
  });
  assert.deepEqual(nodeShouldRunDaemonPod(node('a', {}, [{ key: 'x', effect: 'NoExecute' }]), plain), {
    shouldRun: false,
    shouldContinueRunning: false,
  });
  assert.equal(
    nodeShouldRunDaemonPod(
      node('a', {}, [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }]),
      plain,
    ).shouldRun,
    true,
  );
  const aff = daemonPodTemplate(
    ds({
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['z1'] }] }],
          },
        },
      },
    }),
    1,
    'h',
  );
  assert.equal(nodeShouldRunDaemonPod(node('a', { zone: 'z1' }), aff).shouldRun, false);
  assert.equal(nodeShouldRunDaemonPod(node('a', { zone: 'z2' }), aff).shouldRun, true);
});

test('tolerates: empty key with Exists tolerates everything of the effect', () => {
  assert.equal(tolerates([{ operator: 'Exists' }], { key: 'k', value: 'v', effect: 'NoSchedule' }), true);
  assert.equal(tolerates([{ key: 'k', value: 'w' }], { key: 'k', value: 'v', effect: 'NoSchedule' }), false);
  assert.equal(
    tolerates([{ key: 'k', value: 'v', effect: 'NoExecute' }], {
      key: 'k',
      value: 'v',
      effect: 'NoSchedule',
    }),
    false,
  );
});
