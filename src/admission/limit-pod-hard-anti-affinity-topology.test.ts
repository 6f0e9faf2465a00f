import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../machinery/object.js';
import { limitPodHardAntiAffinityTopologyPlugin } from './limit-pod-hard-anti-affinity-topology.js';
import { attrsOf, runPlugin, statusOf, testDeps } from './testing/fake-admission-deps.js';

const term = (topologyKey: string) => ({ labelSelector: { matchLabels: { app: 'a' } }, topologyKey });
const pod = (podAntiAffinity?: Record<string, unknown>): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'ns' },
    spec: { containers: [], ...(podAntiAffinity ? { affinity: { podAntiAffinity } } : {}) },
  }) as KubeObject;
const write = (object: KubeObject, subresource = '') =>
  attrsOf({ resource: 'pods', kind: 'Pod', namespace: 'ns', subresource, object });

const plugin = limitPodHardAntiAffinityTopologyPlugin(testDeps());

test('LimitPodHardAntiAffinityTopology validates pod creates and updates', () => {
  assert.equal(plugin.name, 'LimitPodHardAntiAffinityTopology');
  assert.deepEqual([...plugin.operations], ['CREATE', 'UPDATE']);
});

test('hostname hard terms and any preferred terms pass', async () => {
  await runPlugin(plugin, write(pod()));
  await runPlugin(
    plugin,
    write(
      pod({
        requiredDuringSchedulingIgnoredDuringExecution: [term('kubernetes.io/hostname')],
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 1, podAffinityTerm: term('topology.kubernetes.io/zone') },
        ],
      }),
    ),
  );
});

test('another hard topology key is refused with upstream’s text', async () => {
  const p = pod({
    requiredDuringSchedulingIgnoredDuringExecution: [
      term('kubernetes.io/hostname'),
      term('topology.kubernetes.io/zone'),
    ],
  });
  await assert.rejects(runPlugin(plugin, write(p)), (err) => {
    assert.deepEqual(statusOf(err), {
      code: 403,
      message:
        'pods "web" is forbidden: affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey topology.kubernetes.io/zone but only key kubernetes.io/hostname is allowed',
    });
    return true;
  });
  await runPlugin(plugin, write(p, 'status'));
});
