#!/usr/bin/env node
// nanokube API Priority and Fairness overload benchmark (AM-18): while ONE non-admin
// user floods the server with 500 concurrent LISTs of a few hundred ConfigMaps (each worker asks
// again as soon as it is answered, 429 or not), system:masters requests, anonymous `/readyz`
// probes and a leader's Lease renewals (as system:kube-controller-manager, every 2 s as
// client-go's leader election retries) keep being served. Reports their latency (p50/p99) without
// and with the flood, the longest gap between two successful renewals (client-go's controller
// manager gives up leadership after 10 s without one), the flood's throughput and 429 count, and
// APF's own counters (dump_priority_levels).
//
//   npm run build && node bench/apf-overload.mjs
//   node bench/apf-overload.mjs --seconds 30 --concurrency 500 --configmaps 300
//
// The flooding user is impersonated by the admin certificate (`Impersonate-User: flooder`); a
// ClusterRoleBinding to cluster-admin keeps it allowed once RBAC is enforced.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { connect } from 'node:http2';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import {
  cleanupTempDirs,
  cpuSeconds,
  formatJson,
  freshDir,
  h2ClientFor,
  kubeconfigCredentials,
  live,
  log,
  percentile,
  root,
  round,
  sampleRss,
  sleep,
  startServer,
  stopServer,
} from './lib.mjs';

function parseArgs(argv) {
  const o = {
    seconds: 20,
    concurrency: 500,
    configmaps: 300,
    out: join(root, 'bench', 'apf-overload-results.json'),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === '--seconds') o.seconds = Number(next());
    else if (a === '--concurrency') o.concurrency = Number(next());
    else if (a === '--configmaps') o.configmaps = Number(next());
    else if (a === '--out') o.out = next();
    else throw new Error(`unknown flag ${a}`);
  }
  return o;
}

const ns = 'flood';
const streamsPerSession = 100;

const stats = (ms) => {
  const s = [...ms].sort((a, b) => a - b);
  return { count: s.length, p50: round(percentile(s, 50) ?? NaN), p99: round(percentile(s, 99) ?? NaN) };
};

/** Repeats `one()` back to back until `stop()` is true; latencies of 200 answers, other statuses counted. */
async function loop(one, stopped, out) {
  while (!stopped()) {
    const r = await one();
    if (r.status === 200) out.ms.push(r.ms);
    else out.other[r.status] = (out.other[r.status] ?? 0) + 1;
  }
}

const leasePath = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/bench-leader';
const elector = { 'impersonate-user': 'system:kube-controller-manager' };

/**
 * A leader renewing its Lease as client-go's leader election does: GET, then PUT with a new
 * renewTime, every 2 s. Records the latency of each renewal and the longest time between two
 * successful ones.
 */
async function renewLeases(h2, s, stopped, out) {
  let last = performance.now();
  while (!stopped()) {
    const t0 = performance.now();
    const got = await h2.get(s, leasePath, elector);
    let status = got.status;
    if (status === 200) {
      const lease = JSON.parse(got.body.toString('utf8'));
      lease.spec.renewTime = new Date().toISOString().replace('Z', '000Z');
      const put = await h2.send(s, 'PUT', leasePath, lease, 'application/json', elector);
      status = put.status;
    }
    const now = performance.now();
    if (status === 200) {
      out.ms.push(now - t0);
      out.maxGapMs = Math.max(out.maxGapMs, now - last);
      last = now;
    } else out.other[status] = (out.other[status] ?? 0) + 1;
    await sleep(Math.max(0, t0 + 2000 - performance.now()));
  }
  out.maxGapMs = Math.max(out.maxGapMs, performance.now() - last);
}

/**
 * The measured side, in its own process so the flood's client work does not delay it: for
 * `seconds`, back-to-back GETs of a namespace as the admin (system:masters) and of `/readyz`
 * without a certificate (anonymous), and Lease renewals; prints their latencies as JSON.
 */
async function probe(kubeconfigPath, seconds) {
  const h2 = h2ClientFor(kubeconfigPath);
  const creds = kubeconfigCredentials(kubeconfigPath);
  const masters = h2.session();
  const anonymous = connect(creds.url, { ca: creds.ca });
  anonymous.on('error', () => undefined);
  const end = performance.now() + seconds * 1000;
  const stopped = () => performance.now() > end;
  const m = { ms: [], other: {} };
  const p = { ms: [], other: {} };
  const l = { ms: [], other: {}, maxGapMs: 0 };
  const leader = h2.session();
  await Promise.all([
    loop(() => h2.get(masters, '/api/v1/namespaces/default'), stopped, m),
    loop(() => h2.get(anonymous, '/readyz'), stopped, p),
    renewLeases(h2, leader, stopped, l),
  ]);
  leader.destroy();
  masters.destroy();
  anonymous.destroy();
  process.stdout.write(
    JSON.stringify({
      masters: { ...stats(m.ms), nonOK: m.other },
      readyz: { ...stats(p.ms), nonOK: p.other },
      leaseRenewals: { ...stats(l.ms), nonOK: l.other, maxGapMs: round(l.maxGapMs, 0) },
    }),
  );
}

function runProbe(kubeconfigPath, seconds) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [fileURLToPath(import.meta.url), '--probe', kubeconfigPath, String(seconds)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`probe exited ${code}`)),
    );
  });
}

async function main() {
  if (process.argv[2] === '--probe') {
    await probe(process.argv[3], Number(process.argv[4]));
    return;
  }
  const o = parseArgs(process.argv.slice(2));
  const server = await startServer(freshDir(), {
    serveArgs: ['--nodes', '0', '--anonymous-auth=true'],
    timeoutMs: 60_000,
  });
  const h2 = h2ClientFor(server.kubeconfigPath);
  const peakRss = sampleRss(server.pid);
  const results = {
    env: {
      date: new Date().toISOString(),
      node: process.version,
      cpu: `${cpus().length} x ${cpus()[0]?.model ?? '?'}`,
      loadavgAtStart: loadavg().map((x) => round(x, 2)),
    },
    options: o,
  };
  const sessions = [];
  const session = () => {
    const s = h2.session();
    sessions.push(s);
    return s;
  };
  try {
    const admin = session();
    const must = async (method, path, body) => {
      const r = await h2.send(admin, method, path, body);
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text.slice(0, 300)}`);
      return r;
    };
    await must('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    await must('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'bench-flooder' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'flooder' }],
    });
    // The renewing leader: the controller manager's user, allowed to write this bench's Lease.
    await must('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'bench-leader' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'system:kube-controller-manager' },
      ],
    });
    await must('POST', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases', {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'bench-leader' },
      spec: { holderIdentity: 'bench', leaseDurationSeconds: 15 },
    });
    for (let i = 0; i < o.configmaps; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, o.configmaps - i) }, (_, j) =>
          must('POST', `/api/v1/namespaces/${ns}/configmaps`, {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: `cm-${i + j}`, labels: { bench: 'apf' } },
            data: { payload: 'x'.repeat(1024) },
          }),
        ),
      );
    }
    // APF weighs a list by the stored count, which the server refreshes every minute.
    log('waiting for the server to count the ConfigMaps (apiserver_storage_objects, every 60 s) ...');
    for (;;) {
      const m = (await h2.get(admin, '/metrics')).body.toString('utf8');
      const c = /^apiserver_storage_objects\{resource="configmaps"\} (\d+)/m.exec(m);
      if (c !== null && Number(c[1]) >= o.configmaps) break;
      await sleep(1000);
    }
    const listBytes = (await h2.get(admin, `/api/v1/namespaces/${ns}/configmaps`)).body.length;
    log(`${o.configmaps} ConfigMaps, a list is ${round(listBytes / 1024, 0)} KiB`);

    const phase = async (seconds, flood) => {
      const end = performance.now() + seconds * 1000;
      const stopped = () => performance.now() > end;
      const f = { ms: [], other: {} };
      const floodSessions = flood
        ? Array.from({ length: Math.ceil(o.concurrency / streamsPerSession) }, () => session())
        : [];
      const t0 = performance.now();
      const cpu0 = cpuSeconds(server.pid);
      const [probed] = await Promise.all([
        runProbe(server.kubeconfigPath, seconds),
        ...(flood
          ? Array.from({ length: o.concurrency }, (_, i) =>
              loop(
                () =>
                  h2.get(floodSessions[i % floodSessions.length], `/api/v1/namespaces/${ns}/configmaps`, {
                    'impersonate-user': 'flooder',
                  }),
                stopped,
                f,
              ),
            )
          : []),
      ]);
      const wall = (performance.now() - t0) / 1000;
      const serverCpuSeconds = round(cpuSeconds(server.pid) - cpu0, 1);
      for (const s of floodSessions) s.close();
      return {
        seconds: round(wall, 1),
        serverCpuSeconds,
        ...probed,
        ...(flood
          ? {
              flood: {
                concurrency: o.concurrency,
                ok: f.ms.length,
                rejected429: f.other[429] ?? 0,
                otherStatuses: Object.fromEntries(Object.entries(f.other).filter(([k]) => k !== '429')),
                okPerSecond: round(f.ms.length / wall, 1),
                answersPerSecond: round((f.ms.length + (f.other[429] ?? 0)) / wall, 1),
                okLatency: stats(f.ms),
              },
            }
          : {}),
      };
    };
    log('baseline (no flood) ...');
    results.baseline = await phase(5, false);
    log(`flood: ${o.concurrency} concurrent lists for ${o.seconds} s ...`);
    results.loadavgBeforeFlood = loadavg().map((x) => round(x, 2));
    results.overload = await phase(o.seconds, true);
    const dump = await h2.get(admin, '/debug/api_priority_and_fairness/dump_priority_levels');
    results.dumpPriorityLevels = dump.body.toString('utf8');
    const metrics = (await h2.get(admin, '/metrics')).body.toString('utf8');
    results.rejectedRequestsTotal = metrics
      .split('\n')
      .filter((l) => l.startsWith('apiserver_flowcontrol_rejected_requests_total{'));
    results.loadavgAtEnd = loadavg().map((x) => round(x, 2));
    results.serverPeakRssMiB = round(peakRss(), 0);
    log(JSON.stringify({ baseline: results.baseline, overload: results.overload }, null, 2));
    process.stderr.write(results.dumpPriorityLevels);
    writeFileSync(o.out, await formatJson(o.out, results));
    log(`wrote ${o.out}`);
  } finally {
    for (const s of sessions) s.destroy();
    await stopServer(server.child);
  }
}

main()
  .catch(async (err) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
    await Promise.all([...live].map((c) => stopServer(c)));
  })
  .finally(() => cleanupTempDirs());
