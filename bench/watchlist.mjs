#!/usr/bin/env node
// nanokube WatchList benchmark: the KEP-3157 scenario scaled to this machine. 400
// Secrets of ~256 KiB each (~100 MiB) in one namespace, then 16 informers starting at once; the
// server's RSS growth over its settled RSS, in two runs on fresh servers:
//   list-watch  client-go 1.27's reflector by default: LIST ?limit=500&resourceVersion=0 (the
//               watch cache answers RV=0 in full, ignoring the limit, as upstream's does; a
//               `continue` would be followed without a resourceVersion, as client-go's pager
//               does), then WATCH ?allowWatchBookmarks=true&resourceVersion=<list's>&timeoutSeconds=…
//   list        a plain LIST without resourceVersion or limit (what @kubernetes/client-node's
//               list calls and `kubectl get --chunk-size=0` send): a consistent read, no watch
//   watchlist   client-go 1.27 with ENABLE_CLIENT_GO_WATCH_LIST_ALPHA: WATCH
//               ?allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true
//               &timeoutSeconds=… until the BOOKMARK annotated k8s.io/initial-events-end
// Each informer is an HTTP/2 connection of its own (Go's flow-control windows) in this process; it
// parses every list item / event (JSON.parse, as a real informer decodes them) but keeps counts.
//
//   npm run build && node bench/watchlist.mjs
//   node bench/watchlist.mjs --secrets 100 --informers 4 --mode watchlist   a smaller run
//
// Flags: --secrets N, --size-kib N (serialized size of each Secret), --informers N,
// --mode both|all|list-watch|watchlist|list (both: list-watch and watchlist; all: the three), --trace-gc (the server's V8 heap from --trace-gc, to tell heap
// from Buffers), --profile DIR (a V8 CPU profile of the server), --keep, --out FILE
import { randomBytes } from 'node:crypto';
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
  resetPeakRss,
  root,
  round,
  rssMiB,
  sleep,
  startServer,
  stopServer,
} from './lib.mjs';

const MiB = 1024 * 1024;

function parseArgs(argv) {
  const o = {
    secrets: 400,
    sizeKiB: 256,
    informers: 16,
    mode: 'both',
    traceGc: false,
    profile: '',
    keep: false,
    out: join(root, 'bench', 'watchlist-results.json'),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === '--secrets') o.secrets = Number(next());
    else if (a === '--size-kib') o.sizeKiB = Number(next());
    else if (a === '--informers') o.informers = Number(next());
    else if (a === '--mode') o.mode = next();
    else if (a === '--trace-gc') o.traceGc = true;
    else if (a === '--profile') o.profile = next();
    else if (a === '--keep') o.keep = true;
    else if (a === '--out') o.out = next();
    else throw new Error(`unknown flag ${a}`);
  }
  if (!['both', 'all', 'list-watch', 'watchlist', 'list'].includes(o.mode))
    throw new Error(`unknown mode ${o.mode}`);
  return o;
}

const ns = 'bench';
const collection = `/api/v1/namespaces/${ns}/secrets`;
// client-go's reflector: timeoutSeconds = minWatchTimeout (5 min) * (1 + rand).
const watchTimeout = () => Math.floor(300 * (1 + Math.random()));

/** Waits until the server's RSS moved by less than 1 MiB over 2 s (at most `maxMs`). */
async function settle(pid, maxMs = 20_000) {
  const end = performance.now() + maxMs;
  let prev = rssMiB(pid);
  for (;;) {
    await sleep(2000);
    const now = rssMiB(pid);
    if (Math.abs(now - prev) < 1 || performance.now() > end) return now;
    prev = now;
  }
}

/** Peak of VmRSS sampled every 10 ms and of the kernel's VmHWM (reset at start). */
function samplePeak(pid) {
  resetPeakRss(pid);
  let peak = 0;
  const timer = setInterval(() => {
    const v = rssMiB(pid);
    if (v > peak) peak = v;
  }, 10);
  return () => {
    clearInterval(timer);
    return Math.max(peak, rssMiB(pid), rssMiB(pid, 'VmHWM') || 0);
  };
}

/** client-go 1.27's default reflector start: a paged LIST at resourceVersion "0", then a WATCH. */
async function listWatchInformer(h2, requests) {
  const s = h2.session();
  let items = 0;
  let bytes = 0;
  let rv = '';
  let cont = '';
  let pages = 0;
  do {
    // client-go's pager: the first page with resourceVersion=0; continuations without it.
    const path = cont
      ? `${collection}?continue=${encodeURIComponent(cont)}&limit=500`
      : `${collection}?limit=500&resourceVersion=0`;
    requests.add(`GET ${path.replace(/continue=[^&]+/, 'continue=…')}`);
    const r = await h2.get(s, path);
    if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${r.body.toString().slice(0, 200)}`);
    bytes += r.body.length;
    const list = JSON.parse(r.body.toString('utf8'));
    items += list.items.length;
    rv = list.metadata.resourceVersion;
    cont = list.metadata.continue ?? '';
    pages++;
  } while (cont !== '');
  const path = `${collection}?allowWatchBookmarks=true&resourceVersion=${rv}&timeoutSeconds=${watchTimeout()}&watch=true`;
  requests.add(
    `GET ${path.replace(/resourceVersion=\d+/, 'resourceVersion=<list>').replace(/timeoutSeconds=\d+/, 'timeoutSeconds=300..600')}`,
  );
  let status = 0;
  const watch = h2.stream(
    s,
    path,
    (line) => JSON.parse(line.toString('utf8')),
    (st) => (status = st),
  );
  // Synced once the watch is established (client-go marks HasSynced after the list; the watch follows).
  while (status === 0) await sleep(5);
  if (status !== 200) throw new Error(`watch: ${status}`);
  return { items, bytes, pages, stop: () => (watch.stop(), s.close()) };
}

/** One plain LIST, as a client's list call sends it: the most recent state, unpaginated. */
async function plainList(h2, requests) {
  const s = h2.session();
  requests.add(`GET ${collection}`);
  const r = await h2.get(s, collection);
  if (r.status !== 200) throw new Error(`GET ${collection}: ${r.status} ${r.body.toString().slice(0, 200)}`);
  const list = JSON.parse(r.body.toString('utf8'));
  return { items: list.items.length, bytes: r.body.length, pages: 1, stop: () => s.close() };
}

/** client-go 1.27's reflector with ENABLE_CLIENT_GO_WATCH_LIST_ALPHA: one WATCH streaming the state. */
function watchListInformer(h2, requests) {
  const s = h2.session();
  const path = `${collection}?allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=${watchTimeout()}&watch=true`;
  requests.add(`GET ${path.replace(/timeoutSeconds=\d+/, 'timeoutSeconds=300..600')}`);
  let items = 0;
  let bytes = 0;
  let watch;
  const synced = new Promise((resolve, reject) => {
    watch = h2.stream(s, path, (line) => {
      bytes += line.length + 1;
      const ev = JSON.parse(line.toString('utf8'));
      if (ev.type === 'ADDED') items++;
      else if (
        ev.type === 'BOOKMARK' &&
        ev.object?.metadata?.annotations?.['k8s.io/initial-events-end'] === 'true'
      )
        resolve();
      else if (ev.type === 'ERROR') reject(new Error(`watch error: ${JSON.stringify(ev.object)}`));
    });
    watch.ended.then(() => reject(new Error('watch ended before the initial-events-end bookmark')), reject);
  });
  return synced.then(() => ({ items, bytes, pages: 0, stop: () => (watch.stop(), s.close()) }));
}

async function runMode(mode, o) {
  const traceGc = o.traceGc ? ['--trace-gc'] : [];
  const profile = o.profile ? ['--cpu-prof', '--cpu-prof-dir', o.profile] : [];
  const server = await startServer(freshDir(), {
    // The API server alone (no controllers, no simulated nodes); the gate on in both runs, so the
    // requests are the only difference (it does not change how a LIST is answered).
    serveArgs: ['--controllers=', '--nodes', '0', '--feature-gates=WatchList=true'],
    nodeArgs: [...traceGc, ...profile],
  });
  // --trace-gc lines: "Mark-Compact 250.3 (260.1) -> 120.2 (135.0) MB": heap used (committed).
  const gc = { peakHeapUsedMiB: 0, peakHeapCommittedMiB: 0, lines: 0, measuring: false };
  if (o.traceGc) {
    server.child.stdout.on('data', (c) => {
      for (const m of String(c).matchAll(
        /(Scavenge|Mark-Compact)[^\d]*([\d.]+) \(([\d.]+)\) -> ([\d.]+) \(([\d.]+)\) MB/g,
      )) {
        if (!gc.measuring) continue;
        gc.lines++;
        gc.peakHeapUsedMiB = Math.max(gc.peakHeapUsedMiB, Number(m[2]));
        gc.peakHeapCommittedMiB = Math.max(gc.peakHeapCommittedMiB, Number(m[3]), Number(m[5]));
      }
    });
  }
  const h2 = h2ClientFor(server.kubeconfigPath);
  const admin = h2.session();
  const result = { mode };
  try {
    const created = await h2.send(admin, 'POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: ns },
    });
    if (created.status !== 201) throw new Error(`namespace: ${created.status} ${created.text}`);
    // Each Secret's data is random bytes whose base64 makes the serialized object ~sizeKiB.
    const rawBytes = Math.floor(((o.sizeKiB * 1024 - 400) * 3) / 4);
    let next = 0;
    let dataBytes = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < o.secrets) {
          const i = next++;
          const r = await h2.send(admin, 'POST', collection, {
            apiVersion: 'v1',
            kind: 'Secret',
            metadata: { name: `s-${String(i).padStart(4, '0')}` },
            type: 'Opaque',
            data: { blob: randomBytes(rawBytes).toString('base64') },
          });
          if (r.status !== 201) throw new Error(`secret ${i}: ${r.status} ${r.text.slice(0, 200)}`);
          dataBytes += Buffer.byteLength(r.text);
        }
      }),
    );
    log(
      `${mode}: ${o.secrets} Secrets written (${round(dataBytes / MiB, 1)} MiB as JSON) in ${round((performance.now() - t0) / 1000, 1)} s`,
    );
    // The watch cache starts on a resource's first cached read (upstream's at server start): fill
    // it before the baseline, so the baseline holds the cached state as upstream's would.
    const warm = await h2.get(admin, `${collection}/s-0000?resourceVersion=0`);
    if (warm.status !== 200) throw new Error(`warm-up GET: ${warm.status}`);
    const baseline = await settle(server.pid);
    log(`${mode}: settled at ${round(baseline, 1)} MiB RSS; starting ${o.informers} informers`);
    const cpu0 = cpuSeconds(server.pid);
    const peak = samplePeak(server.pid);
    gc.measuring = true;
    const requests = new Set();
    const t1 = performance.now();
    const informers = await Promise.all(
      Array.from({ length: o.informers }, () =>
        mode === 'list-watch'
          ? listWatchInformer(h2, requests)
          : mode === 'list'
            ? plainList(h2, requests)
            : watchListInformer(h2, requests),
      ),
    );
    const syncedS = (performance.now() - t1) / 1000;
    for (const inf of informers) {
      if (inf.items !== o.secrets) throw new Error(`an informer saw ${inf.items} of ${o.secrets} secrets`);
    }
    // Watches stay open for a moment, as an informer's would.
    await sleep(2000);
    const peakRss = peak();
    const afterRss = rssMiB(server.pid);
    const cpu = cpuSeconds(server.pid) - cpu0;
    gc.measuring = false;
    for (const inf of informers) inf.stop();
    const growth = peakRss - baseline;
    Object.assign(result, {
      requests: [...requests],
      informers: o.informers,
      itemsPerInformer: o.secrets,
      pagesPerInformer: informers[0].pages,
      bytesPerInformerMiB: round(informers[0].bytes / MiB, 1),
      dataMiB: round(dataBytes / MiB, 1),
      allSyncedSeconds: round(syncedS, 2),
      serverCpuSeconds: round(cpu, 2),
      baselineRssMiB: round(baseline, 1),
      peakRssMiB: round(peakRss, 1),
      rssAfterMiB: round(afterRss, 1),
      peakGrowthMiB: round(growth, 1),
      growthOverData: round(growth / (dataBytes / MiB), 2),
      ...(o.traceGc
        ? { traceGc: { peakHeapUsedMiB: gc.peakHeapUsedMiB, peakHeapCommittedMiB: gc.peakHeapCommittedMiB } }
        : {}),
    });
    log(
      `${mode}: ${o.informers} informers synced in ${result.allSyncedSeconds} s; RSS ${result.baselineRssMiB} → peak ${result.peakRssMiB} MiB (+${result.peakGrowthMiB} MiB, ${result.growthOverData}× the data)`,
    );
  } finally {
    admin.close();
    await stopServer(server.child);
  }
  return result;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const results = {
    env: {
      date: new Date().toISOString(),
      node: process.version,
      cpu: `${cpus().length} x ${cpus()[0]?.model ?? '?'}`,
      loadavgAtStart: loadavg().map((x) => round(x, 2)),
    },
    options: o,
    goals: {
      watchlist: 'growth < 1.5x the data',
      'list-watch': 'growth < 3x the data',
      list: 'growth < 3x the data',
    },
    runs: [],
  };
  try {
    const modes =
      o.mode === 'both'
        ? ['list-watch', 'watchlist']
        : o.mode === 'all'
          ? ['list', 'list-watch', 'watchlist']
          : [o.mode];
    for (const mode of modes) results.runs.push(await runMode(mode, o));
  } finally {
    results.env.loadavgAtEnd = loadavg().map((x) => round(x, 2));
    if (!o.keep) cleanupTempDirs();
  }
  writeFileSync(o.out, await formatJson(o.out, results));
  const goal = { 'list-watch': 3, watchlist: 1.5, list: 3 };
  const title = {
    'list-watch': 'LIST+WATCH (client-go 1.27 default)',
    watchlist: 'WatchList (sendInitialEvents)',
    list: 'plain LIST (no resourceVersion, no limit)',
  };
  const rows = results.runs.map((r) => [
    title[r.mode],
    `${r.baselineRssMiB} MiB`,
    `${r.peakRssMiB} MiB`,
    `+${r.peakGrowthMiB} MiB (${r.growthOverData}×)`,
    `< ${goal[r.mode]}× (${round(goal[r.mode] * r.dataMiB, 0)} MiB): ${r.growthOverData < goal[r.mode] ? 'met' : 'missed'}`,
    `${r.allSyncedSeconds} s`,
    `${r.serverCpuSeconds} s`,
  ]);
  const first = results.runs[0];
  process.stdout.write(
    `\n${o.secrets} Secrets, ${first.dataMiB} MiB of JSON, ${o.informers} clients starting at once (server RSS):\n\n` +
      `| Clients use | RSS settled | peak | growth | goal | all synced | server CPU |\n| --- | --- | --- | --- | --- | --- | --- |\n` +
      `${rows.map((r) => `| ${r.join(' | ')} |`).join('\n')}\n\n` +
      `Requests per informer:\n${results.runs.map((r) => `- ${r.mode}: ${r.requests.join(', then ')}`).join('\n')}\n\n` +
      `(${results.env.node}, ${results.env.cpu}, load ${results.env.loadavgAtStart.join(' ')}; written to ${o.out})\n`,
  );
}

main().catch((err) => {
  for (const child of live) child.kill('SIGKILL');
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
