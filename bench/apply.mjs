#!/usr/bin/env node
// nanokube server-side apply benchmark: applies of a 200-container Deployment and of a
// 5,000-entry ConfigMap through `PATCH application/apply-patch+yaml` over HTTP/2, one at a time
// (each waits for the previous answer, as a controller or kubectl does), each changing one field
// so every apply merges, compares, prunes and writes. Reports applies/s, latency p50/p99, the
// server's CPU per apply, and the size of the managedFields written.
//
//   npm run build && node bench/apply.mjs
//
// Flags: --seconds S per scenario (default 10), --containers N (200), --entries N (5000),
//        --out FILE (default bench/apply-results.json), --profile DIR (V8 CPU profile of the server)
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  cleanupTempDirs,
  cpuSeconds,
  formatJson,
  freshDir,
  h2ClientFor,
  live,
  log,
  percentile,
  root,
  round,
  startServer,
  stopServer,
} from './lib.mjs';

function parseArgs(argv) {
  const o = {
    seconds: 10,
    containers: 200,
    entries: 5000,
    profile: '',
    out: join(root, 'bench', 'apply-results.json'),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === '--seconds') o.seconds = Number(next());
    else if (a === '--containers') o.containers = Number(next());
    else if (a === '--entries') o.entries = Number(next());
    else if (a === '--out') o.out = next();
    else if (a === '--profile') o.profile = next();
    else throw new Error(`unknown flag ${a}`);
  }
  return o;
}

const ns = 'bench-apply';

function deployment(containers, round) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'wide', namespace: ns, labels: { app: 'wide' } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'wide' } },
      template: {
        metadata: { labels: { app: 'wide' } },
        spec: {
          containers: Array.from({ length: containers }, (_, i) => ({
            name: `c${i}`,
            // One container changes per apply.
            image: `registry.example/app-${i}:${i === round % containers ? `r${round}` : 'v1'}`,
            args: ['--port', String(8000 + i)],
            env: [
              { name: 'INDEX', value: String(i) },
              { name: 'MODE', value: 'bench' },
            ],
            ports: [{ containerPort: 8000 + i, name: `p${i}` }],
            resources: { requests: { cpu: '10m', memory: '16Mi' }, limits: { memory: '32Mi' } },
          })),
        },
      },
    },
  };
}

function configMap(entries, round) {
  const data = {};
  for (let i = 0; i < entries; i++)
    data[`key-${String(i).padStart(5, '0')}`] = i === round % entries ? `r${round}` : `value-${i}`;
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big', namespace: ns }, data };
}

async function scenario(h2, session, pid, name, path, make, seconds) {
  const send = async (body) => {
    const r = await h2.send(
      session,
      'PATCH',
      `${path}?fieldManager=bench&force=true`,
      JSON.stringify(body),
      'application/apply-patch+yaml',
    );
    if (r.status !== 200 && r.status !== 201) throw new Error(`${name}: ${r.status} ${r.text.slice(0, 300)}`);
    return r;
  };
  const first = await send(make(0));
  const created = JSON.parse(first.text);
  const bodyBytes = Buffer.byteLength(JSON.stringify(make(0)));
  const managedBytes = Buffer.byteLength(JSON.stringify(created.metadata.managedFields ?? []));
  const lat = [];
  const cpu0 = cpuSeconds(pid);
  const t0 = performance.now();
  let n = 1;
  while (performance.now() - t0 < seconds * 1000) {
    const s = performance.now();
    await send(make(n++));
    lat.push(performance.now() - s);
  }
  const wall = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds(pid) - cpu0;
  lat.sort((a, b) => a - b);
  const result = {
    scenario: name,
    applies: lat.length,
    appliesPerSecond: round(lat.length / wall, 1),
    latencyMs: { p50: round(percentile(lat, 50), 1), p99: round(percentile(lat, 99), 1) },
    serverCpuMsPerApply: round((cpu * 1000) / lat.length, 2),
    bodyKiB: round(bodyBytes / 1024, 1),
    managedFieldsKiB: round(managedBytes / 1024, 1),
  };
  log(
    `${name}: ${result.appliesPerSecond} applies/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms, ${result.serverCpuMsPerApply} ms server CPU each`,
  );
  return result;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const server = await startServer(freshDir(), {
    serveArgs: ['--controllers=', '--nodes', '0'],
    nodeArgs: o.profile ? ['--cpu-prof', '--cpu-prof-dir', o.profile] : [],
  });
  const h2 = h2ClientFor(server.kubeconfigPath);
  const session = h2.session();
  const results = {
    env: {
      date: new Date().toISOString(),
      node: process.version,
      cpu: `${cpus().length} x ${cpus()[0]?.model ?? '?'}`,
      loadavgAtStart: loadavg().map((x) => round(x, 2)),
    },
    options: o,
    scenarios: [],
  };
  try {
    const mk = await h2.send(
      session,
      'POST',
      '/api/v1/namespaces',
      JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }),
    );
    if (mk.status !== 201) throw new Error(`namespace: ${mk.status} ${mk.text}`);
    results.scenarios.push(
      await scenario(
        h2,
        session,
        server.pid,
        `Deployment with ${o.containers} containers`,
        `/apis/apps/v1/namespaces/${ns}/deployments/wide`,
        (r) => deployment(o.containers, r),
        o.seconds,
      ),
    );
    results.scenarios.push(
      await scenario(
        h2,
        session,
        server.pid,
        `ConfigMap with ${o.entries} entries`,
        `/api/v1/namespaces/${ns}/configmaps/big`,
        (r) => configMap(o.entries, r),
        o.seconds,
      ),
    );
  } finally {
    session.close();
    await stopServer(server.child);
    cleanupTempDirs();
  }
  results.env.loadavgAtEnd = loadavg().map((x) => round(x, 2));
  writeFileSync(o.out, await formatJson(o.out, results));
  console.log('\n| Apply of | applies/s | p50 | p99 | server CPU per apply | body | managedFields |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const s of results.scenarios) {
    console.log(
      `| ${s.scenario} | ${s.appliesPerSecond} | ${s.latencyMs.p50} ms | ${s.latencyMs.p99} ms | ${s.serverCpuMsPerApply} ms | ${s.bodyKiB} KiB | ${s.managedFieldsKiB} KiB |`,
    );
  }
  console.log(
    `\n(one apply at a time, each changing one field; ${results.env.node}, ${results.env.cpu}, load ${results.env.loadavgAtStart.join(' ')}; written to ${o.out})`,
  );
}

main().catch((err) => {
  for (const c of live) c.kill('SIGKILL');
  console.error(err);
  process.exit(1);
});
