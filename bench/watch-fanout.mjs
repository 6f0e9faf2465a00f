#!/usr/bin/env node
// nanokube watch fan-out benchmark: 1,000 concurrent watchers on the ConfigMaps of one
// namespace and a writer updating a few of them at 500 changes/s, each update carrying its write
// time (epoch ms, taken when the request is sent) in `data.t`. Every watcher parses every event
// (JSON.parse) and records receive time − write time (the same machine's clock): p50/p99 delivery
// latency, events delivered against expected (writes acknowledged × watchers), the server's CPU
// and RSS, and the clients' CPU (they share the machine's cores with the server).
//
// The watchers are HTTP/2 streams (the server allows 250 per connection; 125 are used) in
// --workers child processes (default 2, one per core), so this process's writer and the watchers
// do not queue behind each other; each watcher re-watches from its last resourceVersion if the
// server cuts it off (a client too far behind), as an informer would.
//
//   npm run build && node bench/watch-fanout.mjs
//   node bench/watch-fanout.mjs --rate 100,250,500     phases at rising rates on the same watchers
//
// Flags: --watchers N, --rate R[,R...] (changes/s), --seconds S per phase, --warmup S, --objects N,
// --workers N, --streams-per-session N, --profile DIR (V8 CPU profile of the server), --out FILE
import { fork } from 'node:child_process';
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

const ns = 'fanout';
const collection = `/api/v1/namespaces/${ns}/configmaps`;
/** Wall-clock milliseconds with sub-millisecond precision (comparable across processes). */
const nowMs = () => performance.timeOrigin + performance.now();
/** Latency histogram: 0.1 ms bins up to 60 s, the last bin for anything later. */
const BINS = 600_001;
const binOf = (ms) => Math.min(BINS - 1, Math.max(0, Math.round(ms * 10)));

/**
 * The string between `"<field>":"` and the next quote in `text`, or undefined; `last` searches from
 * the end (the data fields close the object).
 */
function field(text, name, last = false) {
  const at = last ? text.lastIndexOf(name) : text.indexOf(name);
  if (at < 0) return undefined;
  const from = at + name.length;
  return text.slice(from, text.indexOf('"', from));
}

/**
 * `--parse scan`: an event's type, resourceVersion and data.seq/t read by string search in the
 * line (which must start as the server writes it, `{"type":"`), the fields a full parse would give
 * this bench; any other line (an ERROR Status, say) is parsed as JSON.
 */
const rvPattern = /"resourceVersion":"(\d+)"/;
function scanEvent(line) {
  const text = line.toString('latin1');
  if (!text.startsWith('{"type":"')) return JSON.parse(line.toString('utf8'));
  const type = field(text, '{"type":"');
  if (type === 'ERROR') return { type };
  return {
    type,
    object: {
      metadata: { resourceVersion: rvPattern.exec(text)?.[1] },
      data: { seq: field(text, '"seq":"', true), t: field(text, '"t":"', true) },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// worker: opens watchers, records latencies, answers the parent's questions over IPC

function runWorker() {
  const { kubeconfigPath, watchers, perSession, fromRevision, parseMode } = JSON.parse(process.argv[3]);
  const parse = parseMode === 'json' ? (line) => JSON.parse(line.toString('utf8')) : scanEvent;
  const h2 = h2ClientFor(kubeconfigPath);
  const sessions = [];
  const state = {
    received: 0,
    duplicates: 0,
    resets: 0,
    errors: 0,
    established: 0,
    measureFrom: Infinity,
    measureTo: Infinity,
    hist: new Uint32Array(BINS),
    measured: 0,
  };
  let stopping = false;
  const open = (w, s) => {
    let lastRv = fromRevision;
    let first = true;
    const go = () => {
      const path = `${collection}?allowWatchBookmarks=true&resourceVersion=${lastRv}&timeoutSeconds=3600&watch=true`;
      const watch = h2.stream(
        s,
        path,
        (line) => {
          const now = nowMs();
          const ev = parse(line);
          if (ev.type === 'ERROR') {
            state.errors++;
            return;
          }
          const rv = Number(ev.object.metadata.resourceVersion);
          if (ev.type !== 'MODIFIED') {
            if (rv > lastRv) lastRv = rv;
            return;
          }
          if (rv <= lastRv) {
            state.duplicates++;
            return;
          }
          lastRv = rv;
          state.received++;
          const seq = Number(ev.object.data.seq);
          if (seq >= state.measureFrom && seq < state.measureTo) {
            const t = Number(ev.object.data.t);
            state.hist[binOf(now - t)]++;
            state.measured++;
          }
        },
        (status) => {
          if (status === 200 && first) {
            first = false;
            state.established++;
          }
        },
      );
      watch.ended
        .catch(() => undefined)
        .then(() => {
          if (stopping) return;
          state.resets++;
          setTimeout(go, 50);
        });
      w.stop = watch.stop;
    };
    go();
  };
  const handles = [];
  for (let i = 0; i < watchers; i++) {
    if (i % perSession === 0) sessions.push(h2.session());
    const w = {};
    handles.push(w);
    open(w, sessions[sessions.length - 1]);
  }
  process.on('message', (m) => {
    if (m.type === 'phase') {
      // Latencies are recorded for the writes numbered [from, to).
      state.measureFrom = m.from;
      state.measureTo = m.to ?? Infinity;
      if (m.to === undefined) {
        state.hist.fill(0);
        state.measured = 0;
      }
    } else if (m.type === 'count') {
      process.send({
        type: 'count',
        received: state.received,
        established: state.established,
        resets: state.resets,
        errors: state.errors,
        duplicates: state.duplicates,
      });
    } else if (m.type === 'hist') {
      const sparse = [];
      for (let i = 0; i < BINS; i++) if (state.hist[i] !== 0) sparse.push(i, state.hist[i]);
      process.send({ type: 'hist', sparse, measured: state.measured });
    } else if (m.type === 'stop') {
      stopping = true;
      for (const w of handles) w.stop?.();
      for (const s of sessions) s.close();
      process.disconnect();
    }
  });
  process.send({ type: 'started' });
}

// ---------------------------------------------------------------------------------------------
// parent: server, writer, phases

function parseArgs(argv) {
  const o = {
    watchers: 1000,
    rates: [500],
    seconds: 20,
    warmup: 3,
    objects: 100,
    workers: 2,
    parse: 'scan',
    streamsPerSession: 125,
    profile: '',
    out: join(root, 'bench', 'watch-fanout-results.json'),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === '--watchers') o.watchers = Number(next());
    else if (a === '--rate') o.rates = next().split(',').map(Number);
    else if (a === '--seconds') o.seconds = Number(next());
    else if (a === '--warmup') o.warmup = Number(next());
    else if (a === '--objects') o.objects = Number(next());
    else if (a === '--workers') o.workers = Number(next());
    else if (a === '--parse') o.parse = next();
    else if (a === '--streams-per-session') o.streamsPerSession = Number(next());
    else if (a === '--profile') o.profile = next();
    else if (a === '--out') o.out = next();
    else throw new Error(`unknown flag ${a}`);
  }
  return o;
}

/** Asks every worker `type` and resolves with their answers. */
function ask(workers, type) {
  return Promise.all(
    workers.map(
      (w) =>
        new Promise((resolve) => {
          const on = (m) => {
            if (m.type !== type) return;
            w.off('message', on);
            resolve(m);
          };
          w.on('message', on);
          w.send({ type });
        }),
    ),
  );
}

const sum = (xs, f) => xs.reduce((a, x) => a + f(x), 0);
const addCounts = (a, b) => {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = (out[k] ?? 0) + v;
  return out;
};

/** Percentiles (ms) of merged sparse histograms. */
function percentiles(answers, ps) {
  const counts = new Map();
  let total = 0;
  for (const a of answers) {
    for (let i = 0; i < a.sparse.length; i += 2) {
      counts.set(a.sparse[i], (counts.get(a.sparse[i]) ?? 0) + a.sparse[i + 1]);
      total += a.sparse[i + 1];
    }
  }
  const bins = [...counts.keys()].sort((a, b) => a - b);
  const out = {};
  for (const p of ps) {
    const want = Math.max(1, Math.ceil((p / 100) * total));
    let seen = 0;
    for (const b of bins) {
      seen += counts.get(b);
      if (seen >= want) {
        out[`p${p}`] = round(b / 10, 1);
        break;
      }
    }
  }
  out.max = bins.length > 0 ? round(bins[bins.length - 1] / 10, 1) : NaN;
  return { ...out, samples: total };
}

/**
 * Writes merge patches at `rate` per second for `seconds`, round-robin over the objects, each
 * carrying its number (`seq.next`, shared across phases) and its send time. At most 256 are
 * outstanding: a saturated server slows the writer (the achieved rate is reported) instead of
 * queueing without bound.
 */
async function write(h2, s, o, rate, seconds, seq) {
  const t0 = performance.now();
  const first = seq.next;
  let sent = 0;
  let ok = 0;
  let inFlight = 0;
  const failures = {};
  const latencies = [];
  const one = async (i) => {
    inFlight++;
    const body = JSON.stringify({ data: { t: String(nowMs()), seq: String(i) } });
    try {
      const r = await h2.send(
        s,
        'PATCH',
        `${collection}/cm-${i % o.objects}`,
        body,
        'application/merge-patch+json',
      );
      if (r.status === 200) {
        ok++;
        latencies.push(r.ms);
      } else failures[r.status] = (failures[r.status] ?? 0) + 1;
    } catch (err) {
      failures[err.code ?? 'error'] = (failures[err.code ?? 'error'] ?? 0) + 1;
    } finally {
      inFlight--;
    }
  };
  const pending = [];
  for (;;) {
    const elapsed = (performance.now() - t0) / 1000;
    if (elapsed >= seconds) break;
    const due = Math.floor(elapsed * rate) + 1;
    while (sent < due && inFlight < 256) {
      pending.push(one(seq.next++));
      sent++;
    }
    await sleep(1);
  }
  const issuingS = (performance.now() - t0) / 1000;
  await Promise.all(pending);
  latencies.sort((a, b) => a - b);
  const pct = (q) =>
    round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN, 1);
  return {
    first,
    end: seq.next,
    ok,
    failures,
    seconds: (performance.now() - t0) / 1000,
    achievedPerSecond: round(ok / issuingS, 0),
    writeLatencyMs: { p50: pct(0.5), p99: pct(0.99) },
  };
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const server = await startServer(freshDir(), {
    serveArgs: ['--controllers=', '--nodes', '0'],
    nodeArgs: o.profile ? ['--cpu-prof', '--cpu-prof-dir', o.profile] : [],
  });
  const results = {
    env: {
      date: new Date().toISOString(),
      node: process.version,
      cpu: `${cpus().length} x ${cpus()[0]?.model ?? '?'}`,
      loadavgAtStart: loadavg().map((x) => round(x, 2)),
    },
    options: o,
    clients: `${o.workers} worker processes × ${o.watchers / o.workers} watchers, ${o.streamsPerSession} HTTP/2 streams per connection; the writer (merge patches over one HTTP/2 connection) in the parent process`,
    phases: [],
  };
  const h2 = h2ClientFor(server.kubeconfigPath);
  const admin = h2.session();
  const workers = [];
  try {
    const mk = await h2.send(admin, 'POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: ns },
    });
    if (mk.status !== 201) throw new Error(`namespace: ${mk.status} ${mk.text}`);
    let revision = 0;
    for (let i = 0; i < o.objects; i++) {
      const r = await h2.send(admin, 'POST', collection, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `cm-${i}` },
        data: { t: '0', seq: '-1' },
      });
      if (r.status !== 201) throw new Error(`configmap: ${r.status} ${r.text}`);
      revision = Math.max(revision, Number(JSON.parse(r.text).metadata.resourceVersion));
    }
    await sleep(1000);
    results.serverRssIdleMiB = round(rssMiB(server.pid), 1);
    const per = Math.ceil(o.watchers / o.workers);
    for (let i = 0; i < o.workers; i++) {
      const n = Math.min(per, o.watchers - i * per);
      const args = {
        kubeconfigPath: server.kubeconfigPath,
        watchers: n,
        perSession: o.streamsPerSession,
        fromRevision: revision,
        parseMode: o.parse,
      };
      const w = fork(process.argv[1], ['--worker', JSON.stringify(args)], {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      live.add(w);
      w.on('exit', () => live.delete(w));
      workers.push(w);
    }
    // Until every watcher's stream is open.
    for (let tries = 0; ; tries++) {
      const counts = await ask(workers, 'count');
      if (sum(counts, (c) => c.established) >= o.watchers) break;
      if (tries > 600) throw new Error('watchers not established within 60 s');
      await sleep(100);
    }
    await sleep(1000);
    results.serverRssWithWatchersMiB = round(rssMiB(server.pid), 1);
    log(
      `${o.watchers} watchers open (server RSS ${results.serverRssIdleMiB} → ${results.serverRssWithWatchersMiB} MiB)`,
    );

    let expectedPerWatcher = 0;
    const seq = { next: 0 };
    for (const rate of o.rates) {
      // Warm-up at the same rate, then the measured window (by write time).
      const before = await ask(workers, 'count');
      const warm = await write(h2, admin, o, rate, o.warmup, seq);
      expectedPerWatcher += warm.ok;
      for (const w of workers) w.send({ type: 'phase', from: seq.next });
      resetPeakRss(server.pid);
      let peakRss = 0;
      const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMiB(server.pid))), 250);
      const cpu0 = cpuSeconds(server.pid);
      const wcpu0 = workers.map((w) => cpuSeconds(w.pid));
      const me0 = process.cpuUsage();
      const t0 = performance.now();
      const load0 = loadavg()[0];
      const measured = await write(h2, admin, o, rate, o.seconds, seq);
      for (const w of workers) w.send({ type: 'phase', from: measured.first, to: measured.end });
      expectedPerWatcher += measured.ok;
      const windowS = (performance.now() - t0) / 1000;
      const serverCpu = cpuSeconds(server.pid) - cpu0;
      const workerCpu = workers.reduce((a, w, i) => a + cpuSeconds(w.pid) - wcpu0[i], 0);
      const me = process.cpuUsage(me0);
      // Then until every watcher has every event (or 60 s).
      const expected = expectedPerWatcher * o.watchers;
      const t1 = performance.now();
      let counts;
      for (;;) {
        counts = await ask(workers, 'count');
        const got = sum(counts, (c) => c.received);
        if (got >= expected || performance.now() - t1 > 60_000) break;
        await sleep(200);
      }
      clearInterval(sampler);
      const drainS = (performance.now() - t1) / 1000;
      const hist = await ask(workers, 'hist');
      const received = sum(counts, (c) => c.received) - sum(before, (c) => c.received);
      const phaseExpected = (warm.ok + measured.ok) * o.watchers;
      const phase = {
        rate,
        writes: {
          warmup: warm.ok,
          measured: measured.ok,
          failed: addCounts(warm.failures, measured.failures),
        },
        writerAchievedPerSecond: measured.achievedPerSecond,
        writeLatencyMs: measured.writeLatencyMs,
        deliveries: {
          expected: phaseExpected,
          received,
          lost: phaseExpected - received,
          duplicates: sum(counts, (c) => c.duplicates),
        },
        deliveriesPerSecond: round((measured.ok * o.watchers) / windowS, 0),
        watchResets: sum(counts, (c) => c.resets),
        latencyMs: percentiles(hist, [50, 90, 99, 99.9]),
        drainSecondsAfterLastWrite: round(drainS, 2),
        serverCpuCores: round(serverCpu / windowS, 2),
        serverCpuMicrosPerDelivery: round((serverCpu * 1e6) / (measured.ok * o.watchers), 2),
        watcherProcessesCpuCores: round(workerCpu / windowS, 2),
        writerProcessCpuCores: round((me.user + me.system) / 1e6 / windowS, 2),
        serverPeakRssMiB: round(Math.max(peakRss, rssMiB(server.pid, 'VmHWM') || 0), 1),
        loadavg1AtStart: round(load0, 2),
      };
      results.phases.push(phase);
      log(
        `${rate}/s: latency p50 ${phase.latencyMs.p50} ms, p99 ${phase.latencyMs.p99} ms; ${received}/${phaseExpected} delivered; server ${phase.serverCpuCores} cores, watchers ${phase.watcherProcessesCpuCores}, writer ${phase.writerProcessCpuCores}`,
      );
    }
  } finally {
    for (const w of workers) if (w.connected) w.send({ type: 'stop' });
    await sleep(200);
    for (const w of workers) w.kill();
    admin.close();
    results.env.loadavgAtEnd = loadavg().map((x) => round(x, 2));
    await stopServer(server.child);
    cleanupTempDirs();
  }
  writeFileSync(o.out, await formatJson(o.out, results));
  const rows = results.phases.map((p) => [
    `${p.rate}/s (${p.writerAchievedPerSecond}/s achieved)`,
    `${p.deliveriesPerSecond}/s`,
    `${p.latencyMs.p50} ms`,
    `${p.latencyMs.p99} ms`,
    `${p.deliveries.received}/${p.deliveries.expected}${p.watchResets > 0 ? ` (${p.watchResets} re-watches)` : ''}`,
    `${p.serverCpuCores}`,
    `${p.watcherProcessesCpuCores} + ${p.writerProcessCpuCores}`,
    `${p.serverPeakRssMiB} MiB`,
  ]);
  process.stdout.write(
    `\n${o.watchers} watchers on the ConfigMaps of one namespace, ${o.objects} objects updated; ${o.seconds} s measured per rate after ${o.warmup} s warm-up:\n\n` +
      `| Writes | deliveries | p50 | p99 | delivered/expected | server CPU (cores) | client CPU (watchers + writer) | server peak RSS |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n` +
      `${rows.map((r) => `| ${r.join(' | ')} |`).join('\n')}\n\n` +
      `(target p99 < 100 ms; server RSS idle ${results.serverRssIdleMiB} MiB, with the watchers ${results.serverRssWithWatchersMiB} MiB; ${results.env.node}, ${results.env.cpu}, load ${results.env.loadavgAtStart.join(' ')}; written to ${o.out})\n`,
  );
}

if (process.argv[2] === '--worker') runWorker();
else {
  main().catch((err) => {
    for (const child of live) child.kill('SIGKILL');
    process.stderr.write(`${err.stack ?? err}\n`);
    process.exit(1);
  });
}
