#!/usr/bin/env node
// nanokube on etcd (`serve --storage etcd`) against nanokube on SQLite: N ConfigMap creates with C
// in flight, spread over the servers of each setup (creates/s and latency p50/p99), then the LIST
// latency of those N objects (p50 of R lists: a consistent list without a limit, which nanokube
// answers from its watch cache once the cache has caught up with storage and kube-apiserver v1.28
// from etcd; one page of them all (limit=5000) at the current resourceVersion with
// resourceVersionMatch=Exact, which both read from storage; and one at resourceVersion=0, which
// both answer from the watch cache). Setups: SQLite, one server on etcd, two servers on one etcd. It starts a
// single-member etcd on loopback ports (Debian's etcd-server; ETCD names another binary), with
// its data in /dev/shm where there is one, so the figures are the servers' and not the disk's.
// Where the reference build is (../shared/docs/reference-build.md: $REF_DIR, default ~/ref, with
// bin/kube-apiserver and the PKI start.sh made in pki/), upstream kube-apiserver is measured the
// same way over a fresh etcd of its own, one and two servers; elsewhere those setups are skipped,
// saying so.
//
//   npm run build && node bench/etcd.mjs                       2,000 creates, 32 in flight
//   node bench/etcd.mjs --objects 500 --concurrency 8          a smaller run
//
// Flags: --objects N, --concurrency N, --lists N, --out FILE, --no-upstream
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  cleanupTempDirs,
  clientFor,
  formatJson,
  freePort,
  freshDir,
  live,
  log,
  median,
  root,
  round,
  sleep,
  startServer,
  stopServer,
} from './lib.mjs';
import { apiserverArgs, refDir, refPki, writeRefKubeconfig } from './reference.mjs';

function parseArgs(argv) {
  const o = {
    objects: 2000,
    concurrency: 32,
    lists: 20,
    upstream: true,
    out: join(root, 'bench', 'etcd-results.json'),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === '--objects') o.objects = Number(next());
    else if (a === '--concurrency') o.concurrency = Number(next());
    else if (a === '--lists') o.lists = Number(next());
    else if (a === '--out') o.out = next();
    else if (a === '--no-upstream') o.upstream = false;
    else throw new Error(`unknown flag ${a}`);
  }
  return o;
}

async function startEtcd() {
  const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'nanokube-bench-etcd-'));
  const client = `http://127.0.0.1:${await freePort()}`;
  const peer = `http://127.0.0.1:${await freePort()}`;
  const child = spawn(
    process.env.ETCD ?? 'etcd',
    [
      '--data-dir',
      dir,
      '--listen-client-urls',
      client,
      '--advertise-client-urls',
      client,
      '--listen-peer-urls',
      peer,
      '--initial-advertise-peer-urls',
      peer,
      '--initial-cluster',
      `default=${peer}`,
      '--log-level',
      'error',
    ],
    { stdio: 'ignore' },
  );
  live.add(child);
  child.on('exit', () => live.delete(child));
  for (let i = 0; i < 300; i++) {
    try {
      const r = await fetch(`${client}/health`);
      if ((await r.json()).health === 'true') break;
    } catch {
      // not yet
    }
    await sleep(50);
  }
  return {
    client,
    async stop() {
      await stopServer(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Why upstream cannot be measured here, or undefined when it can. */
function upstreamMissing() {
  const need = [join(refDir, 'bin', 'kube-apiserver')].concat(
    ['ca.crt', 'apiserver.crt', 'apiserver.key', 'admin.crt', 'admin.key', 'sa.pub', 'sa.key'].map((f) =>
      join(refPki, f),
    ),
  );
  const missing = need.filter((f) => !existsSync(f));
  return missing.length === 0
    ? undefined
    : `no ${missing.join(', ')} (see ../shared/docs/reference-build.md)`;
}

/** Upstream kube-apiserver over `etcdUrl` on a free port, with the reference PKI; resolves when ready. */
async function startUpstream(etcdUrl, index) {
  const port = await freePort();
  const dir = freshDir();
  const kubeconfigPath = join(dir, 'kubeconfig');
  writeRefKubeconfig(kubeconfigPath, port);
  const child = spawn(
    join(refDir, 'bin', 'kube-apiserver'),
    apiserverArgs({ port, etcdUrl, advertiseAddress: `192.0.2.${40 + index}` }),
    { stdio: 'ignore' },
  );
  live.add(child);
  child.on('exit', () => live.delete(child));
  const server = { child, kubeconfigPath };
  const probe = clientFor(server, 1);
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`kube-apiserver exited (${child.exitCode})`);
    if (i > 1200) throw new Error('kube-apiserver not ready in 120 s');
    try {
      const r = await probe.send('GET', '/readyz', undefined, 2000);
      if (r.status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  probe.close?.();
  return server;
}

const pct = (sorted, q) =>
  round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN, 1);

async function measure(name, servers, o) {
  const clients = servers.map((s) => clientFor(s, o.concurrency));
  const ns = `bench-${name.replace(/[^a-z0-9]/g, '')}`;
  const created = await clients[0].send('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
  if (created.status !== 201) throw new Error(`namespace: ${created.status} ${created.text}`);
  let next = 0;
  const latencies = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: o.concurrency }, async (_, w) => {
      while (next < o.objects) {
        const i = next++;
        const c = clients[(i + w) % clients.length];
        const r = await c.send('POST', `/api/v1/namespaces/${ns}/configmaps`, {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: `cm-${i}` },
          data: { value: 'x'.repeat(200) },
        });
        if (r.status !== 201) throw new Error(`create ${i}: ${r.status} ${r.text.slice(0, 200)}`);
        latencies.push(r.ms);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const list = async (query) => {
    const times = [];
    for (let i = 0; i < o.lists; i++) {
      const c = clients[i % clients.length];
      const r = await c.send('GET', `/api/v1/namespaces/${ns}/configmaps${query}`);
      if (r.status !== 200) throw new Error(`list: ${r.status}`);
      times.push(r.ms);
    }
    return round(median(times), 1);
  };
  // The current resourceVersion, for the exact (storage) read.
  const head = await clients[0].send('GET', `/api/v1/namespaces/${ns}/configmaps?limit=1`);
  const current = JSON.parse(head.text).metadata.resourceVersion;
  const result = {
    setup: name,
    servers: servers.length,
    createsPerSecond: round(o.objects / seconds, 0),
    createP50Ms: pct(latencies, 0.5),
    createP99Ms: pct(latencies, 0.99),
    listConsistentP50Ms: await list(''),
    listStorageP50Ms: await list(`?limit=5000&resourceVersionMatch=Exact&resourceVersion=${current}`),
    listFromCacheP50Ms: await list('?resourceVersion=0'),
  };
  for (const c of clients) c.close?.();
  log(JSON.stringify(result));
  return result;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const results = [];
  try {
    // SQLite, one server.
    {
      const s = await startServer(freshDir(), { serveArgs: ['--nodes', '0'] });
      results.push(await measure('sqlite', [s], o));
      await stopServer(s.child);
    }
    for (const count of [1, 2]) {
      const etcd = await startEtcd();
      const servers = [];
      for (let i = 0; i < count; i++) {
        servers.push(
          await startServer(freshDir(), {
            serveArgs: [
              '--storage',
              'etcd',
              '--etcd-servers',
              etcd.client,
              '--nodes',
              '0',
              '--advertise-address',
              `192.0.2.${30 + i}`,
            ],
          }),
        );
      }
      results.push(await measure(`etcd-${count}-server${count > 1 ? 's' : ''}`, servers, o));
      for (const s of servers) await stopServer(s.child);
      await etcd.stop();
    }
    const missing = o.upstream ? upstreamMissing() : 'not asked (--no-upstream)';
    if (missing !== undefined) log(`upstream kube-apiserver not measured: ${missing}`);
    for (const count of missing === undefined ? [1, 2] : []) {
      const etcd = await startEtcd();
      const servers = [];
      for (let i = 0; i < count; i++) servers.push(await startUpstream(etcd.client, i));
      results.push(await measure(`upstream-etcd-${count}-server${count > 1 ? 's' : ''}`, servers, o));
      for (const s of servers) await stopServer(s.child);
      await etcd.stop();
    }
  } finally {
    for (const c of live) c.kill('SIGKILL');
    cleanupTempDirs();
  }
  const out = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model, loadavg: loadavg().map((x) => round(x, 2)) },
    options: { objects: o.objects, concurrency: o.concurrency, lists: o.lists },
    results,
  };
  writeFileSync(o.out, await formatJson(o.out, out));
  log(`written ${o.out}`);
}

await main();
