/**
 * Micro-benchmark of managedFields on the pod path (run: npx tsx bench/managed-fields-bench.ts):
 * a pod's create (no live object), then the kubelet's status update of the created pod, through
 * the field managers of pods and pods/status. Not a test; prints µs per update.
 */
import { builtinSchemas } from '../src/apis/schema/builtin.js';
import { defaultPod } from '../src/apis/core/v1/defaults/pod.js';
import { FieldSet } from '../src/machinery/fieldpath/set.js';
import { fieldElement } from '../src/machinery/fieldpath/path-element.js';
import { FieldManager } from '../src/machinery/managedfields/field-manager.js';
import type { KubeObject } from '../src/machinery/object.js';
import { TypeModel } from '../src/machinery/typed/atom.js';

const schemas = builtinSchemas();
const model = new TypeModel(schemas);
const reset = (...paths: string[]): FieldSet =>
  FieldSet.of(...paths.map((p) => p.split('.').map(fieldElement)));
const common = { model, definition: 'io.k8s.api.core.v1.Pod', apiVersion: 'v1', kind: 'Pod' } as const;
const pods = new FieldManager({ ...common, subresource: '', resetFields: reset('status') });
const status = new FieldManager({
  ...common,
  subresource: 'status',
  resetFields: reset('spec', 'metadata.deletionTimestamp', 'metadata.ownerReferences'),
});

const sent = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p-1', namespace: 'bench', labels: { app: 'bench' } },
  spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9' }] },
};
// The pod as the create handler has it: decoded and defaulted.
const created = structuredClone(sent) as unknown as KubeObject;
defaultPod(created);
created.metadata.uid = '0f3c1b2a-1111-2222-3333-444455556666';
created.metadata.creationTimestamp = '2026-12-03T20:00:00Z';
const stored = pods.update(undefined, created, 'bench');
stored.metadata.resourceVersion = '10';
const scheduled = { ...stored, spec: { ...(stored['spec'] as object), nodeName: 'node-1' } } as KubeObject;

const t = '2026-12-03T20:00:01Z';
const running = (): KubeObject => ({
  ...structuredClone(scheduled),
  status: {
    phase: 'Running',
    conditions: ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({
      type,
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime: t,
    })),
    hostIP: '10.0.0.1',
    podIP: '10.244.0.5',
    podIPs: [{ ip: '10.244.0.5' }],
    startTime: t,
    containerStatuses: [
      {
        name: 'c',
        state: { running: { startedAt: t } },
        lastState: {},
        ready: true,
        restartCount: 0,
        image: 'registry.k8s.io/pause:3.9',
        imageID: 'registry.k8s.io/pause@sha256:0',
        containerID: 'containerd://abc',
        started: true,
      },
    ],
    qosClass: 'BestEffort',
  },
});

function time(label: string, n: number, f: () => unknown): void {
  for (let i = 0; i < 500; i++) f();
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) f();
  const us = Number(process.hrtime.bigint() - start) / 1000 / n;
  console.log(`${label}: ${us.toFixed(1)} µs`);
}

const live = structuredClone(scheduled);
const next = running();
time('create (pods)', 20_000, () => pods.update(undefined, created, 'bench'));
time('status update (pods/status)', 20_000, () => status.update(live, next, 'kubelet'));
