/**
 * Micro-benchmark of the protobuf codec (run: npx tsx bench/protobuf-bench.ts): encodes and decodes
 * a PodList of 10,000 realistic pods and compares with JSON. Not a test; prints ms per pass.
 */
import { builtinProtobuf } from '../src/apis/protobuf.js';
import type { JsonObject } from '../src/util/json.js';

const pod: JsonObject = {
  metadata: {
    name: 'web-0',
    namespace: 'default',
    uid: 'fd4588fd-49da-41e5-84a8-442a539f25c8',
    resourceVersion: '258',
    creationTimestamp: '2026-11-30T14:08:56Z',
    labels: { app: 'web', 'pod-template-hash': '896bb5df7' },
  },
  spec: {
    containers: [
      {
        name: 'nginx',
        image: 'nginx:1.25',
        ports: [{ containerPort: 80, protocol: 'TCP' }],
        resources: { limits: { memory: '128Mi' }, requests: { cpu: '100m', memory: '64Mi' } },
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        imagePullPolicy: 'IfNotPresent',
      },
    ],
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 30,
    dnsPolicy: 'ClusterFirst',
    serviceAccountName: 'default',
    securityContext: {},
    schedulerName: 'default-scheduler',
    tolerations: [
      {
        key: 'node.kubernetes.io/not-ready',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
    ],
    priority: 0,
    enableServiceLinks: true,
  },
  status: { phase: 'Running', podIP: '10.244.0.5', qosClass: 'Burstable' },
};
const n = 10_000;
const items = Array.from({ length: n }, (_, i) => ({
  ...pod,
  metadata: { ...(pod['metadata'] as JsonObject), name: `web-${i}` },
}));
const list: JsonObject = { kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '1' }, items };

for (let round = 0; round < 5; round++) {
  let t = performance.now();
  const bytes = builtinProtobuf.encode(list);
  const encodeMs = performance.now() - t;
  t = performance.now();
  const text = JSON.stringify(list);
  const jsonMs = performance.now() - t;
  t = performance.now();
  builtinProtobuf.decode(bytes);
  const decodeMs = performance.now() - t;
  console.log(
    `${n} pods: protobuf encode ${encodeMs.toFixed(0)} ms (${(bytes.length / 1e6).toFixed(1)} MB), ` +
      `decode ${decodeMs.toFixed(0)} ms; JSON.stringify ${jsonMs.toFixed(0)} ms (${(text.length / 1e6).toFixed(1)} MB)`,
  );
}
