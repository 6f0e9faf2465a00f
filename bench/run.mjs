#!/usr/bin/env node
// nanokube benchmark: time to ready, idle RSS, pod creates/s and a 10k-pod LIST, against the
// compiled server in dist/ (run `npm run build` first). Loopback only; every phase is bounded.
//
//   npm run build && npm run bench            full run, writes bench/results.json
//   npm run bench -- --quick                  smoke run (small counts), writes bench/results-quick.json
//   npm run bench -- --cpu-prof DIR           also write a V8 CPU profile of the load server to DIR
//
// Flags: --quick, --runs N, --creates N, --list N, --concurrency N, --cpu-prof DIR, --keep, --out FILE
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

// ---------------------------------------------------------------------------------------------
// options

function parseArgs(argv) {
  const quick = argv.includes('--quick');
  const o = {
    quick,
    runs: quick ? 2 : 5,
    creates: quick ? 300 : 5000,
    list: quick ? 1000 : 10000,
    concurrency: 16,
    pageSize: 500,
    listRepeats: quick ? 1 : 3,
    cpuProf: undefined,
    keep: false,
    out: join(root, 'bench', quick ? 'results-quick.json' : 'results.json'),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`flag needs an argument: ${a}`);
      return v;
    };
    const int = () => {
      const n = Number(next());
      if (!Number.isInteger(n) || n <= 0) throw new Error(`${a} needs a positive integer`);
      return n;
    };
    if (a === '--quick') continue;
    else if (a === '--runs') o.runs = int();
    else if (a === '--creates') o.creates = int();
    else if (a === '--list') o.list = int();
    else if (a === '--concurrency') o.concurrency = int();
    else if (a === '--cpu-prof') o.cpuProf = resolve(next());
    else if (a === '--keep') o.keep = true;
    else if (a === '--out') o.out = resolve(next());
    else throw new Error(`unknown flag: ${a}`);
  }
  return o;
}

import {
  cli,
  clientFor,
  formatJson,
  freshDir,
  live,
  log,
  median,
  percentile,
  root,
  round,
  rssMiB,
  sleep,
  startServer,
  stopServer,
  tempDirs,
} from './lib.mjs';

const podPath = '/api/v1/namespaces/default/pods';
const pod = () => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { generateName: 'p-' },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
});

/**
 * A generated name that collides with an existing pod: 5 random characters give a ~30% chance of
 * one collision per 3000 pods. Kubernetes 1.27 answers 500 ServerTimeout (clients retry); accept
 * 409 AlreadyExists too. Either way the create is retried and counted.
 */
const isNameCollision = (r) => r.status === 409 || (r.status === 500 && r.text.includes('"ServerTimeout"'));

/** Creates `count` pods with `concurrency` workers; returns latencies (ms), wall ms, failures, retries. */
async function createPods(client, count, concurrency) {
  const latencies = [];
  const failures = [];
  const collisions = [];
  let next = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (next < count) {
      next++;
      for (let attempt = 0; attempt < 5; attempt++) {
        const r = await client.send('POST', podPath, pod());
        if (r.status === 201) latencies.push(r.ms);
        else if (isNameCollision(r) && attempt < 4) {
          collisions.push(`${r.status} ${r.text.slice(0, 300)}`);
          continue;
        } else failures.push(`${r.status} ${r.text.slice(0, 200)}`);
        break;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { latencies, wallMs: performance.now() - t0, failures, collisions };
}

/** Pages through the pod list; returns total ms, per-page ms and the item count. */
async function paginatedList(client, pageSize) {
  const pages = [];
  let items = 0;
  let cont = '';
  const t0 = performance.now();
  for (let guard = 0; guard < 10_000; guard++) {
    const q = `limit=${pageSize}${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`;
    const r = await client.send('GET', `${podPath}?${q}`);
    if (r.status !== 200) throw new Error(`paginated LIST: ${r.status} ${r.text.slice(0, 300)}`);
    const body = JSON.parse(r.text);
    pages.push(r.ms);
    items += body.items.length;
    cont = body.metadata?.continue ?? '';
    if (!cont) break;
  }
  return { totalMs: performance.now() - t0, pages, items };
}

async function fullList(client) {
  const t0 = performance.now();
  const r = await client.send('GET', podPath);
  if (r.status !== 200) throw new Error(`LIST: ${r.status} ${r.text.slice(0, 300)}`);
  const body = JSON.parse(r.text);
  return { totalMs: performance.now() - t0, items: body.items.length, bytes: Buffer.byteLength(r.text) };
}

// ---------------------------------------------------------------------------------------------
// phases

async function measureStartup(o) {
  const first = [];
  const restart = [];
  const dirs = [];
  for (let i = 0; i < o.runs; i++) {
    const dir = freshDir();
    dirs.push(dir);
    const s = await startServer(dir);
    first.push(s);
    await stopServer(s.child);
  }
  for (const dir of dirs) {
    const s = await startServer(dir);
    restart.push(s);
    await stopServer(s.child);
  }
  const summary = (runs) => ({
    runs: runs.length,
    readyLineMedianS: round(median(runs.map((r) => r.readySeconds)), 3),
    wallMedianS: round(median(runs.map((r) => r.wallMs)) / 1000, 3),
    readyLineS: runs.map((r) => r.readySeconds),
    wallS: runs.map((r) => round(r.wallMs / 1000, 3)),
  });
  return { firstStart: summary(first), restart: summary(restart) };
}

/**
 * Idle RSS of the default server (controllers, scheduler and one simulated node in-process), on a
 * first start (which also writes the bootstrap objects and creates the PKI) and on a restart of
 * the same data dir; and of the API server alone (`--controllers= --nodes 0`, what the load phase
 * measures: pods created there are not scheduled, so creates/s is the API server's own throughput).
 */
async function measureIdle() {
  const dir = freshDir();
  const idle = async () => {
    const server = await startServer(dir);
    try {
      await sleep(2000);
      return { rssMiB: round(rssMiB(server.pid)), hwmMiB: round(rssMiB(server.pid, 'VmHWM')) };
    } finally {
      await stopServer(server.child);
    }
  };
  const first = await idle();
  const restart = await idle();
  return { ...first, restartRssMiB: restart.rssMiB };
}

async function measureLoad(o) {
  const withControllers = await measureIdle();
  log(
    `idle RSS with controllers and a simulated node ${withControllers.rssMiB} MiB (restart ${withControllers.restartRssMiB} MiB)`,
  );
  const dir = freshDir();
  const nodeArgs = o.cpuProf ? ['--cpu-prof', '--cpu-prof-dir', o.cpuProf] : [];
  const server = await startServer(dir, { nodeArgs, serveArgs: ['--controllers=', '--nodes', '0'] });
  try {
    await sleep(2000);
    const idle = {
      rssMiB: round(rssMiB(server.pid)),
      hwmMiB: round(rssMiB(server.pid, 'VmHWM')),
      withControllers,
    };
    log(`idle RSS of the API server alone ${idle.rssMiB} MiB`);

    const client = clientFor(server, o.concurrency);
    try {
      // Without the controllers nothing makes the `default` service account the ServiceAccount
      // admission plugin requires (kube-apiserver alone is the same).
      await client.send('POST', '/api/v1/namespaces/default/serviceaccounts', {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'default' },
      });
      const warm = Math.min(200, Math.max(16, Math.floor(o.creates / 20)));
      await createPods(client, warm, o.concurrency);
      log(`creating ${o.creates} pods with ${o.concurrency} clients`);
      const c = await createPods(client, o.creates, o.concurrency);
      const sorted = [...c.latencies].sort((a, b) => a - b);
      const creates = {
        count: o.creates,
        concurrency: o.concurrency,
        warmup: warm,
        ok: c.latencies.length,
        failed: c.failures.length,
        failureSamples: c.failures.slice(0, 5),
        nameCollisionsRetried: c.collisions.length,
        nameCollisionSample: c.collisions[0],
        wallMs: round(c.wallMs),
        perSecond: round(c.latencies.length / (c.wallMs / 1000)),
        p50Ms: round(percentile(sorted, 50), 2),
        p99Ms: round(percentile(sorted, 99), 2),
        maxMs: round(sorted[sorted.length - 1] ?? NaN, 2),
        rssAfterMiB: round(rssMiB(server.pid)),
      };
      log(
        `creates: ${creates.perSecond}/s p50 ${creates.p50Ms} ms p99 ${creates.p99Ms} ms (${creates.failed} failed)`,
      );

      const have = warm + c.latencies.length;
      const topUp = Math.max(0, o.list - have);
      if (topUp > 0) {
        log(`topping up with ${topUp} pods`);
        const t = await createPods(client, topUp, o.concurrency);
        if (t.failures.length > 0)
          throw new Error(`top-up creates failed: ${t.failures.slice(0, 3).join('; ')}`);
      }

      const paged = [];
      const whole = [];
      for (let i = 0; i < o.listRepeats; i++) {
        paged.push(await paginatedList(client, o.pageSize));
        whole.push(await fullList(client));
      }
      const pagedMedian = paged.slice().sort((a, b) => a.totalMs - b.totalMs)[paged.length >> 1];
      const list = {
        pods: pagedMedian.items,
        pageSize: o.pageSize,
        repeats: o.listRepeats,
        paginated: {
          totalMs: round(pagedMedian.totalMs),
          pages: pagedMedian.pages.length,
          perPageMedianMs: round(median(pagedMedian.pages), 2),
          perPageMaxMs: round(Math.max(...pagedMedian.pages), 2),
          runsTotalMs: paged.map((p) => round(p.totalMs)),
        },
        unpaginated: {
          totalMs: round(median(whole.map((w) => w.totalMs))),
          items: whole[0].items,
          bytes: whole[0].bytes,
          runsTotalMs: whole.map((w) => round(w.totalMs)),
        },
        rssAfterMiB: round(rssMiB(server.pid)),
        hwmAfterMiB: round(rssMiB(server.pid, 'VmHWM')),
      };
      log(
        `paginated LIST of ${list.pods}: ${list.paginated.totalMs} ms; unpaginated ${list.unpaginated.totalMs} ms`,
      );
      return { idle, creates, list };
    } finally {
      client.close();
    }
  } finally {
    await stopServer(server.child, 30_000);
  }
}

// ---------------------------------------------------------------------------------------------
// report

function table(r) {
  const s = r.startup;
  const c = r.load.creates;
  const l = r.load.list;
  const rows = [
    [
      'Time to ready, first start (ready line / wall, median of ' + s.firstStart.runs + ')',
      `${s.firstStart.readyLineMedianS} s / ${s.firstStart.wallMedianS} s`,
      '< 0.3 s',
    ],
    [
      'Time to ready, restart (ready line / wall, median of ' + s.restart.runs + ')',
      `${s.restart.readyLineMedianS} s / ${s.restart.wallMedianS} s`,
      '< 0.3 s',
    ],
    [
      'Idle RSS (ready + 2 s), default: controllers, scheduler, 1 simulated node; first start',
      `${r.load.idle.withControllers.rssMiB} MiB`,
      '< 100 MiB',
    ],
    ['... the same data dir restarted', `${r.load.idle.withControllers.restartRssMiB} MiB`, '< 100 MiB'],
    ['Idle RSS (ready + 2 s), API server alone (--controllers= --nodes 0)', `${r.load.idle.rssMiB} MiB`, ''],
    [
      `Pod creates/s (API server alone, ${c.concurrency} clients, ${c.count} pods, HTTPS keep-alive)`,
      `${c.perSecond}/s`,
      '> 970/s',
    ],
    ['Create latency p50 / p99', `${c.p50Ms} ms / ${c.p99Ms} ms`, ''],
    [
      `Paginated LIST of ${l.pods} pods (limit=${l.pageSize}, ${l.paginated.pages} pages)`,
      `${l.paginated.totalMs} ms (${l.paginated.perPageMedianMs} ms/page median, ${l.paginated.perPageMaxMs} max)`,
      '',
    ],
    [
      `Unpaginated LIST of ${l.unpaginated.items} pods (${round(l.unpaginated.bytes / 1048576)} MiB JSON)`,
      `${l.unpaginated.totalMs} ms`,
      '',
    ],
    [`RSS after ${l.pods} pods + LISTs (peak)`, `${l.rssAfterMiB} MiB (${l.hwmAfterMiB} MiB)`, ''],
  ];
  const lines = [
    '| Measure | nanokube | Target |',
    '| --- | --- | --- |',
    ...rows.map((x) => `| ${x.join(' | ')} |`),
  ];
  return lines.join('\n');
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (!existsSync(cli)) throw new Error(`${cli} not found: run \`npm run build\` first`);
  const deadline = setTimeout(
    () => {
      process.stderr.write('[bench] overall time limit reached, stopping\n');
      for (const c of live) c.kill('SIGKILL');
      process.exit(1);
    },
    o.quick ? 180_000 : 900_000,
  );
  const env = {
    date: new Date().toISOString(),
    mode: o.quick ? 'quick' : 'full',
    node: process.version,
    cpu: `${cpus().length} x ${cpus()[0]?.model ?? 'unknown'}`,
    loadavgAtStart: loadavg().map((x) => round(x, 2)),
  };
  log(`${env.mode} run on ${env.cpu}, load ${env.loadavgAtStart.join(' ')}`);
  log(`time to ready: ${o.runs} first starts, ${o.runs} restarts`);
  const startup = await measureStartup(o);
  log(`first start ${startup.firstStart.readyLineMedianS} s, restart ${startup.restart.readyLineMedianS} s`);
  const load = await measureLoad(o);
  env.loadavgAtEnd = loadavg().map((x) => round(x, 2));
  const results = { env, startup, load };
  writeFileSync(o.out, await formatJson(o.out, results));
  clearTimeout(deadline);
  process.stdout.write(
    `\n${table(results)}\n\n(${env.node}, ${env.cpu}, load ${env.loadavgAtStart.join(' ')}; written to ${o.out})\n`,
  );
}

const cleanup = () => {
  for (const c of live) c.kill('SIGKILL');
  if (!process.argv.includes('--keep')) for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
};
process.on('exit', cleanup);
process.on('SIGINT', () => process.exit(130));
main().catch((err) => {
  process.stderr.write(
    `[bench] failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exitCode = 1;
});
