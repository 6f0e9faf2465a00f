#!/usr/bin/env node
// nanokube as a test library: startCluster() in one process. Measures, against dist/:
//  - time to start an isolated in-memory cluster after the first (goal: under 50 ms), with the
//    default controllers and node, and bare (no controllers, no nodes);
//  - memory per idle cluster (goal: under 10 MiB): heap and RSS growth over 20 clusters, after GC;
//  - restore of a 1,000-object snapshot (goal: under 20 ms);
//  - 20 clusters in one process each running a small test at once (namespace, 20 ConfigMaps, a
//    Deployment of 2 replicas until its pods exist, snapshot and restore), wall time.
// envtest's anchor is about 7 s to start one environment (kube-apiserver and etcd binaries).
//
//   npm run build && node --expose-gc bench/library.mjs [--quick] [--out FILE]
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { formatJson, log, median, root, round } from './lib.mjs';

const quick = process.argv.includes('--quick');
const outIdx = process.argv.indexOf('--out');
const out =
  outIdx > 0
    ? process.argv[outIdx + 1]
    : join(root, 'bench', quick ? 'library-results-quick.json' : 'library-results.json');
const { startCluster } = await import(join(root, 'dist', 'index.js'));
const gc = globalThis.gc;
if (typeof gc !== 'function') throw new Error('run with node --expose-gc');

const mib = (bytes) => round(bytes / 1024 / 1024, 2);
function settleMemory() {
  for (let i = 0; i < 3; i++) gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss, external: m.external + m.arrayBuffers };
}

/**
 * Start times, each after the previous cluster stopped and the process idled: `ready` when
 * startCluster() resolves (the API answers), `synced` when the controllers have also given the
 * default namespace its ServiceAccount and the simulated node is Ready (clusters with them).
 */
async function timeStarts(options, n) {
  const ready = [];
  const synced = [];
  for (let i = 0; i < n; i++) {
    await new Promise((r) => setTimeout(r, 300));
    gc();
    const t = performance.now();
    const c = await startCluster(options);
    ready.push(performance.now() - t);
    if (options.controllers !== false) {
      for (;;) {
        const sa = await c.client.core.v1.serviceAccounts.list({ namespace: 'default' });
        const nodes = await c.client.core.v1.nodes.list();
        const nodeReady = nodes.items.some((x) =>
          x.status?.conditions?.some((cond) => cond.type === 'Ready' && cond.status === 'True'),
        );
        if (sa.items.length > 0 && nodeReady) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      synced.push(performance.now() - t);
    }
    await c.stop();
  }
  return { ready, synced };
}

const results = { date: new Date().toISOString(), node: process.version, quick };

// First cluster: module loading, the process's PKI and the first server's warm-up.
let t = performance.now();
const first = await startCluster({ controllers: false, nodes: 0 });
results.firstStartMs = round(performance.now() - t);
await first.stop();
log(`first cluster: ${results.firstStartMs} ms`);

const n = quick ? 5 : 20;
const bare = await timeStarts({ controllers: false, nodes: 0 }, n);
const full = await timeStarts({}, n);
const stat = (xs) => ({ median: round(median(xs)), min: round(Math.min(...xs)) });
results.startAfterFirstMs = {
  bare: stat(bare.ready),
  default: stat(full.ready),
  defaultSynced: stat(full.synced),
};
const s = results.startAfterFirstMs;
log(
  `start after the first (median of ${n}): bare ${s.bare.median} ms, default ${s.default.median} ms ` +
    `(controllers synced and node Ready: ${s.defaultSynced.median} ms)`,
);

// Memory per idle cluster.
const count = quick ? 5 : 20;
for (const [name, options] of [
  ['bare', { controllers: false, nodes: 0 }],
  ['default', {}],
]) {
  await new Promise((r) => setTimeout(r, 500));
  const before = settleMemory();
  const clusters = [];
  for (let i = 0; i < count; i++) clusters.push(await startCluster(options));
  // Idle: controllers synced, nodes registered.
  await new Promise((r) => setTimeout(r, 3000));
  const after = settleMemory();
  results[`idleMemoryPerCluster_${name}`] = {
    heapMiB: mib((after.heap - before.heap) / count),
    rssMiB: mib((after.rss - before.rss) / count),
    externalMiB: mib((after.external - before.external) / count),
    clusters: count,
  };
  log(
    `idle memory per ${name} cluster: heap ${results[`idleMemoryPerCluster_${name}`].heapMiB} MiB, rss ${results[`idleMemoryPerCluster_${name}`].rssMiB} MiB`,
  );
  await Promise.all(clusters.map((c) => c.stop()));
}

// Restore of a 1,000-object snapshot.
{
  const c = await startCluster({ controllers: false, nodes: 0 });
  const objects = 1000;
  for (let i = 0; i < objects; i += 50) {
    await Promise.all(
      Array.from({ length: 50 }, (_, j) =>
        c.client.core.v1.configMaps.create(
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: `cm-${i + j}` },
            data: { k: 'v'.repeat(100) },
          },
          { namespace: 'default' },
        ),
      ),
    );
  }
  const snap = await c.snapshot();
  const bytes = snap.bytes();
  const times = [];
  const fromBytes = [];
  for (let i = 0; i < (quick ? 5 : 20); i++) {
    // Something to undo each time: one change.
    await c.client.core.v1.configMaps.delete(`cm-${i}`, { namespace: 'default' });
    let t0 = performance.now();
    await c.restore(snap);
    times.push(performance.now() - t0);
    t0 = performance.now();
    await c.restore(bytes);
    fromBytes.push(performance.now() - t0);
  }
  const listed = await c.client.core.v1.configMaps.list({ namespace: 'default' });
  if (listed.items.length < objects) throw new Error(`restore lost objects: ${listed.items.length}`);
  results.restore = {
    objects,
    keys: snap.keys,
    bytes: bytes.length,
    medianMs: round(median(times)),
    fromBytesMedianMs: round(median(fromBytes)),
  };
  log(
    `restore of ${objects} objects (${snap.keys} keys, ${bytes.length} bytes): ${results.restore.medianMs} ms, from bytes ${results.restore.fromBytesMedianMs} ms`,
  );
  await c.stop();
}

// 20 clusters in one process, each running a small test at once.
{
  const parallel = quick ? 5 : 20;
  const waitFor = async (what, f, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (await f()) return;
      if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const oneTest = async (i) => {
    const c = await startCluster();
    const ns = `t${i}`;
    await c.client.core.v1.namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    await Promise.all(
      Array.from({ length: 20 }, (_, j) =>
        c.client.core.v1.configMaps.create(
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${j}` } },
          { namespace: ns },
        ),
      ),
    );
    const snap = await c.snapshot();
    await c.client.apps.v1.deployments.create(
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'c', image: 'nginx' }] },
          },
        },
      },
      { namespace: ns },
    );
    await waitFor(
      'pods',
      async () => (await c.client.core.v1.pods.list({ namespace: ns })).items.length === 2,
    );
    await c.restore(snap);
    await c.stop();
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: parallel }, (_, i) => oneTest(i)));
  results.parallelClusters = { clusters: parallel, wallMs: round(performance.now() - t0) };
  log(`${parallel} clusters running a test each at once: ${results.parallelClusters.wallMs} ms`);
}

writeFileSync(out, await formatJson(out, results));
log(`wrote ${out}`);
