#!/usr/bin/env node
// nanokube cluster benchmark: `nanokube serve --nodes N` with the controllers, the
// scheduler and N simulated nodes in one process. Measures registering the nodes, creating P pods
// through the API until every one is Running, and a Deployment of R replicas rolled out and then
// rolled out again with a new image; reports times and the server's peak RSS.
//
//   npm run build && node bench/cluster.mjs                       1,000 nodes, 30,000 pods, 3,000 replicas
//   node bench/cluster.mjs --nodes 100 --pods 2000 --replicas 300  a smaller run
//
// Flags: --nodes N, --pods N, --replicas N, --concurrency N, --same-namespace, --keep, --out FILE,
// --profile DIR (the server writes a V8 CPU profile there, for Chrome DevTools or `npx speedscope`)
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  cleanupTempDirs,
  json,
  sampleRss,
  until,
  clientFor,
  cpuSeconds,
  formatJson,
  freshDir,
  live,
  log,
  root,
  round,
  sleep,
  startServer,
  stopServer,
} from './lib.mjs';

function parseArgs(argv) {
  const o = {
    nodes: 1000,
    pods: 30_000,
    replicas: 3000,
    sameNamespace: false,
    concurrency: 32,
    keep: false,
    profile: '',
    separate: false,
    out: join(root, 'bench', 'cluster-results.json'),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === '--nodes') o.nodes = Number(next());
    else if (a === '--pods') o.pods = Number(next());
    else if (a === '--replicas') o.replicas = Number(next());
    else if (a === '--concurrency') o.concurrency = Number(next());
    else if (a === '--keep') o.keep = true;
    else if (a === '--same-namespace') o.sameNamespace = true;
    else if (a === '--out') o.out = next();
    else if (a === '--profile') o.profile = next();
    else if (a === '--separate') o.separate = true;
    else throw new Error(`unknown flag ${a}`);
  }
  return o;
}

/**
 * Counts a namespace's Running pods from a watch (a list of every pod each poll would cost the
 * server more than the pods do); `all` resolves when `want` are Running at once. A watch the server
 * ends is resumed from the last resourceVersion seen, and one that expired (410) is rebuilt from a
 * list.
 */
function trackRunning(client, namespace, fromRevision, want) {
  const running = new Set();
  let lastRv = String(fromRevision);
  let stopped = false;
  let current;
  let resolveAll;
  let rejectAll;
  const all = new Promise((res, rej) => {
    resolveAll = res;
    rejectAll = rej;
  });
  const check = () => {
    if (running.size === want) resolveAll();
  };
  const relist = async () => {
    running.clear();
    let cont = '';
    do {
      const page = await json(
        client,
        'GET',
        `/api/v1/namespaces/${namespace}/pods?limit=5000${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`,
      );
      for (const p of page.items) if (p.status?.phase === 'Running') running.add(p.metadata.name);
      lastRv = page.metadata.resourceVersion;
      cont = page.metadata.continue ?? '';
    } while (cont !== '');
    check();
  };
  const loop = async () => {
    while (!stopped) {
      let expired = false;
      current = client.stream(
        `/api/v1/namespaces/${namespace}/pods?watch=1&allowWatchBookmarks=true&resourceVersion=${lastRv}`,
        (line) => {
          const ev = JSON.parse(line);
          if (ev.type === 'ERROR') {
            expired = true;
            return;
          }
          lastRv = ev.object?.metadata?.resourceVersion ?? lastRv;
          const name = ev.object?.metadata?.name;
          if (ev.type === 'BOOKMARK' || name === undefined) return;
          if (ev.type !== 'DELETED' && ev.object.status?.phase === 'Running') running.add(name);
          else running.delete(name);
          check();
        },
      );
      await current.ended.catch(() => undefined);
      if (stopped) return;
      if (expired) await relist();
      else await sleep(100);
    }
  };
  loop().catch(rejectAll);
  return { all, stop: () => ((stopped = true), current?.stop()) };
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const server = await startServer(freshDir(), {
    serveArgs: o.separate ? ['--nodes', '0', '--controllers='] : ['--nodes', String(o.nodes)],
    nodeArgs: o.profile ? ['--cpu-prof', '--cpu-prof-dir', o.profile] : [],
    timeoutMs: 60_000,
  });
  const peak = sampleRss(server.pid);
  // --separate: the controller manager and the nodes with the scheduler as processes of their own.
  const components = o.separate
    ? [
        ['controller-manager', '--kubeconfig', server.kubeconfigPath],
        ['nodes', '--kubeconfig', server.kubeconfigPath, '--nodes', String(o.nodes)],
      ].map((args) => {
        const child = spawn(process.execPath, [join(root, 'dist', 'nanokube.js'), ...args], {
          stdio: ['ignore', 'ignore', 'inherit'],
        });
        live.add(child);
        return child;
      })
    : [];
  const componentPeaks = components.map((c) => sampleRss(c.pid));
  const client = clientFor(server, o.concurrency);
  const results = {
    env: {
      date: new Date().toISOString(),
      node: process.version,
      cpu: `${cpus().length} x ${cpus()[0]?.model ?? '?'}`,
      loadavgAtStart: loadavg().map((x) => round(x, 2)),
    },
    options: o,
  };
  try {
    // 1. Nodes registered and Ready.
    let t0 = performance.now();
    await until(
      `${o.nodes} Ready nodes`,
      async () => {
        const nodes = await json(client, 'GET', '/api/v1/nodes');
        return (
          nodes.items.filter((n) =>
            n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
          ).length === o.nodes
        );
      },
      { everyMs: 250 },
    );
    results.nodes = { count: o.nodes, readySeconds: round((performance.now() - t0) / 1000, 2) };
    log(`${o.nodes} nodes Ready in ${results.nodes.readySeconds} s`);

    // 2. Pods created through the API, then all Running.
    await json(client, 'POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'bench' },
    });
    const pod = (i) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `p-${i}`, labels: { app: 'bench' } },
      spec: {
        containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '1m', memory: '1Mi' } } }],
      },
    });
    // The store's revision counts every write: its growth per pod shows what the controllers,
    // the scheduler and the nodes write for each one.
    const revision = async () =>
      Number((await json(client, 'GET', '/api/v1/namespaces?limit=1')).metadata.resourceVersion);
    const revisionBefore = await revision();
    const cpuBefore = [server, ...components].map((p) => cpuSeconds(p.pid));
    const benchCpuBefore = process.cpuUsage();
    // Running pods are counted from a watch (a list of every pod each poll would cost the server
    // more than the pods do): resolves when all of them are Running at once.
    const tracker = trackRunning(client, 'bench', revisionBefore, o.pods);
    t0 = performance.now();
    let next = 0;
    let failed = 0;
    const latencies = [];
    await Promise.all(
      Array.from({ length: o.concurrency }, async () => {
        while (next < o.pods) {
          const i = next++;
          for (let attempt = 0; ; attempt++) {
            const r = await client.send('POST', '/api/v1/namespaces/bench/pods', pod(i), 120_000);
            if (r.status === 201) {
              latencies.push(r.ms);
              break;
            }
            if (attempt >= 5) {
              failed++;
              break;
            }
            await sleep(100);
          }
        }
      }),
    );
    const createdS = (performance.now() - t0) / 1000;
    latencies.sort((a, b) => a - b);
    const pct = (q) =>
      round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN, 1);
    const createLatencyMs = { p50: pct(0.5), p99: pct(0.99) };
    log(
      `${o.pods} pods created in ${round(createdS, 1)} s (${failed} failed; latency p50 ${createLatencyMs.p50} ms, p99 ${createLatencyMs.p99} ms)`,
    );
    await tracker.all;
    const runningS = (performance.now() - t0) / 1000;
    tracker.stop();
    const writesPerPod = round(((await revision()) - revisionBefore) / o.pods, 2);
    // CPU per pod does not depend on what else the machine runs, unlike the times.
    const cpuMsPerPod = [server, ...components].map((p, i) =>
      round((1000 * (cpuSeconds(p.pid) - (cpuBefore[i] ?? 0))) / o.pods, 2),
    );
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const benchCpuMsPerPod = round((benchCpu.user + benchCpu.system) / 1000 / o.pods, 2);
    results.pods = {
      count: o.pods,
      failed,
      createSeconds: round(createdS, 1),
      createsPerSecond: round(o.pods / createdS, 0),
      createLatencyMs,
      allRunningSeconds: round(runningS, 1),
      runningPerSecond: round(o.pods / runningS, 0),
      writesPerPod,
      cpuMsPerPod,
      benchCpuMsPerPod,
    };
    log(
      `all ${o.pods} pods Running after ${round(runningS, 1)} s (${writesPerPod} writes, ${cpuMsPerPod.join(' + ')} ms CPU per pod; this client ${benchCpuMsPerPod} ms)`,
    );

    // 3. A large Deployment in a namespace of its own (or, with --same-namespace, beside the
    // pods): rolled out, then a new image rolled out.
    const deployNs = o.sameNamespace ? 'bench' : 'big';
    if (!o.sameNamespace) {
      await json(client, 'POST', '/api/v1/namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: 'big' },
      });
    }
    const deploy = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'big' },
      spec: {
        replicas: o.replicas,
        selector: { matchLabels: { app: 'big' } },
        template: {
          metadata: { labels: { app: 'big' } },
          spec: {
            containers: [
              { name: 'c', image: 'nginx:1.25', resources: { requests: { cpu: '1m', memory: '1Mi' } } },
            ],
          },
        },
      },
    };
    const rolledOut = async () => {
      const d = await json(client, 'GET', `/apis/apps/v1/namespaces/${deployNs}/deployments/big`);
      const s = d.status ?? {};
      return (
        (s.observedGeneration ?? 0) >= d.metadata.generation &&
        (s.updatedReplicas ?? 0) === o.replicas &&
        (s.availableReplicas ?? 0) === o.replicas &&
        (s.replicas ?? 0) === o.replicas
      );
    };
    t0 = performance.now();
    await json(client, 'POST', `/apis/apps/v1/namespaces/${deployNs}/deployments`, deploy);
    await until('the Deployment rolled out', rolledOut, { everyMs: 1000 });
    const firstS = (performance.now() - t0) / 1000;
    log(`Deployment of ${o.replicas} rolled out in ${round(firstS, 1)} s`);
    t0 = performance.now();
    const r = await client.send('GET', `/apis/apps/v1/namespaces/${deployNs}/deployments/big`);
    const d = JSON.parse(r.text);
    d.spec.template.spec.containers[0].image = 'nginx:1.26';
    await json(client, 'PUT', `/apis/apps/v1/namespaces/${deployNs}/deployments/big`, d);
    await until('the new image rolled out', rolledOut, { everyMs: 1000 });
    const secondS = (performance.now() - t0) / 1000;
    log(`new image rolled out in ${round(secondS, 1)} s`);
    results.deployment = {
      replicas: o.replicas,
      rolloutSeconds: round(firstS, 1),
      imageRolloutSeconds: round(secondS, 1),
    };
  } finally {
    results.peakRssMiB = round(peak(), 1);
    if (components.length > 0) {
      results.componentPeakRssMiB = componentPeaks.map((p) => round(p(), 1));
      for (const c of components) c.kill('SIGTERM');
    }
    results.env.loadavgAtEnd = loadavg().map((x) => round(x, 2));
    client.close();
    await stopServer(server.child, 60_000);
    if (!o.keep) cleanupTempDirs();
  }
  writeFileSync(o.out, await formatJson(o.out, results));
  const rows = [
    [`${o.nodes} simulated nodes registered and Ready`, `${results.nodes.readySeconds} s`],
    [
      `${o.pods} pods created through the API (${o.concurrency} clients)`,
      `${results.pods.createSeconds} s (${results.pods.createsPerSecond}/s)`,
    ],
    [
      `... all Running (scheduled, bound, started)`,
      `${results.pods.allRunningSeconds} s (${results.pods.runningPerSecond} pods/s)`,
    ],
    [`Deployment of ${o.replicas} replicas rolled out`, `${results.deployment.rolloutSeconds} s`],
    [`... a new image rolled out`, `${results.deployment.imageRolloutSeconds} s`],
    ['Peak RSS of the server', `${results.peakRssMiB} MiB`],
  ];
  process.stdout.write(
    `\n| Measure | nanokube |\n| --- | --- |\n${rows.map((r) => `| ${r[0]} | ${r[1]} |`).join('\n')}\n\n(${results.env.node}, ${results.env.cpu}; written to ${o.out})\n`,
  );
}

main().catch((err) => {
  for (const child of live) child.kill('SIGKILL');
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
