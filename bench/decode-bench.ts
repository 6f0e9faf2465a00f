/**
 * Micro-benchmark of decodeObject on a realistic Deployment (run: npx tsx bench/decode-bench.ts).
 * Not a test; prints µs per decode.
 */
import { builtinSchemas } from '../src/apis/schema/builtin.js';
import { decodeObject } from '../src/apis/decode/decode.js';

const body = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'web',
    namespace: 'default',
    labels: { app: 'web', tier: 'frontend' },
    annotations: { note: 'x' },
  },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: 'web' } },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
    template: {
      metadata: { labels: { app: 'web', tier: 'frontend' } },
      spec: {
        containers: [
          {
            name: 'nginx',
            image: 'nginx:1.25',
            ports: [{ containerPort: 80, name: 'http' }],
            env: [
              { name: 'A', value: '1' },
              { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            ],
            resources: {
              limits: { cpu: '500m', memory: '512Mi' },
              requests: { cpu: '250m', memory: '256Mi' },
            },
            readinessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 5 },
            volumeMounts: [{ name: 'data', mountPath: '/data' }],
          },
          {
            name: 'sidecar',
            image: 'busybox',
            command: ['sh', '-c', 'sleep 3600'],
            resources: { limits: { memory: '1024Mi' } },
          },
        ],
        volumes: [{ name: 'data', emptyDir: { sizeLimit: '1Gi' } }],
      },
    },
  },
};
const raw = JSON.stringify(body);
const registry = builtinSchemas();
const run = (): void => {
  decodeObject({
    registry,
    definition: 'io.k8s.api.apps.v1.Deployment',
    body: JSON.parse(raw),
    raw,
    fieldValidation: 'Strict',
  });
};
for (let i = 0; i < 2000; i++) run();
const n = 20000;
const t0 = process.hrtime.bigint();
for (let i = 0; i < n; i++) run();
const t1 = process.hrtime.bigint();
console.log(
  `${(Number(t1 - t0) / 1000 / n).toFixed(2)} µs per decode (incl. JSON.parse of ${raw.length} bytes)`,
);
const t2 = process.hrtime.bigint();
for (let i = 0; i < n; i++) JSON.parse(raw);
const t3 = process.hrtime.bigint();
console.log(`${(Number(t3 - t2) / 1000 / n).toFixed(2)} µs of which JSON.parse`);
