#!/usr/bin/env node
// nanokube soak: `nanokube serve` with its controllers and simulated nodes under mixed traffic
// from many clients for a long time (30 minutes by default), to show that memory does not creep,
// latencies hold and nothing fails. Every client is its own HTTP/2 connection with the admin
// certificate and works in its own namespace:
//   - ConfigMaps it owns go through create, get, update, merge patch, server-side apply, delete;
//   - lists of its ConfigMaps and of the cluster's Pods by label;
//   - the first clients each own a Deployment and rescale it now and then (the controllers,
//     scheduler and simulated kubelets create, bind, run and delete its Pods);
//   - the last clients keep a watch open on their namespace, restarted when the server ends it.
// The server's RSS is sampled every 10 s; the slope (least squares over the samples after the
// first fifth) is reported in MiB per hour, with p50/p99 per kind of request and every status
// that was not the expected one.
//
//   npm run build && node bench/soak.mjs                       30 minutes, 50 clients
//   node bench/soak.mjs --minutes 5 --clients 20 --nodes 3     shorter
//   node bench/soak.mjs --minutes 20 --event-ttl 5m            Events at their steady state
//
// Flags: --minutes N, --clients N, --deployments N, --watchers N, --nodes N, --think-ms N, --out FILE,
// --event-ttl D (the server's --event-ttl: Events then reach their steady state within the run)
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
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
  rssMiB,
  sleep,
  startServer,
  stopServer,
  benchEnv,
  parseFlags,
} from './lib.mjs';

function parseArgs(argv) {
  return parseFlags(argv, {
    minutes: 30,
    clients: 50,
    deployments: 5,
    watchers: 10,
    nodes: 5,
    thinkMs: 200,
    eventTtl: '',
    out: join(root, 'bench', 'soak-results.json'),
  });
}

/** Latencies and unexpected statuses per kind of request. */
class Tally {
  #ms = new Map();
  unexpected = {};
  record(kind, r, expected) {
    if (expected.includes(r.status)) {
      let list = this.#ms.get(kind);
      if (list === undefined) this.#ms.set(kind, (list = []));
      list.push(r.ms);
    } else {
      const key = `${kind} ${r.status}`;
      this.unexpected[key] = (this.unexpected[key] ?? 0) + 1;
      if (this.unexpected[key] === 1) log(`unexpected: ${key} ${(r.text ?? '').slice(0, 200)}`);
    }
  }
  summary() {
    const out = {};
    for (const [kind, ms] of [...this.#ms].sort(([a], [b]) => a.localeCompare(b))) {
      const s = ms.sort((a, b) => a - b);
      out[kind] = { count: s.length, p50: round(percentile(s, 50)), p99: round(percentile(s, 99)) };
    }
    return out;
  }
  get total() {
    let n = 0;
    for (const ms of this.#ms.values()) n += ms.length;
    return n;
  }
}

/** Least-squares slope of y over x. */
function slope(points) {
  const n = points.length;
  if (n < 2) return NaN;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.x - mx) * (p.y - my);
    den += (p.x - mx) ** 2;
  }
  return num / den;
}

const configMap = (name, value, rv) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, labels: { soak: 'yes' }, ...(rv === undefined ? {} : { resourceVersion: rv }) },
  data: { value },
});

const deployment = (name, replicas) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name, soak: 'yes' } },
      spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9' }] },
    },
  },
});

/** One client: its own connection and namespace, a loop of mixed requests until `stopped()`. */
async function client(h2, i, o, tally, stopped) {
  const s = h2.session();
  const ns = `soak-${i}`;
  const base = `/api/v1/namespaces/${ns}/configmaps`;
  const send = (method, path, body, type) => h2.send(s, method, path, body, type);
  const created = await send('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
  if (created.status !== 201) throw new Error(`namespace ${ns}: ${created.status} ${created.text}`);
  const owned = Array.from({ length: 4 }, (_, k) => ({ name: `cm-${k}`, rv: undefined }));
  const dep = i < o.deployments ? `/apis/apps/v1/namespaces/${ns}/deployments` : undefined;
  if (dep !== undefined)
    tally.record('deployment create', await send('POST', dep, deployment('d', 2)), [201]);
  let n = 0;
  while (!stopped()) {
    await sleep(o.thinkMs * (0.5 + Math.random()));
    n++;
    const cm = owned[n % owned.length];
    const value = `v${n}-${'x'.repeat(Math.floor(Math.random() * 2000))}`;
    const roll = Math.random();
    if (cm.rv === undefined) {
      const r = await send('POST', base, configMap(cm.name, value));
      tally.record('configmap create', r, [201]);
      if (r.status === 201) cm.rv = JSON.parse(r.text).metadata.resourceVersion;
    } else if (roll < 0.25) {
      tally.record('configmap get', await h2.get(s, `${base}/${cm.name}`), [200]);
    } else if (roll < 0.45) {
      const r = await send('PUT', `${base}/${cm.name}`, configMap(cm.name, value, cm.rv));
      tally.record('configmap update', r, [200]);
      if (r.status === 200) cm.rv = JSON.parse(r.text).metadata.resourceVersion;
    } else if (roll < 0.55) {
      const r = await send(
        'PATCH',
        `${base}/${cm.name}`,
        { data: { patched: String(n) } },
        'application/merge-patch+json',
      );
      tally.record('configmap patch', r, [200]);
      if (r.status === 200) cm.rv = JSON.parse(r.text).metadata.resourceVersion;
    } else if (roll < 0.62) {
      const r = await send(
        'PATCH',
        `${base}/${cm.name}?fieldManager=soak&force=true`,
        configMap(cm.name, value),
        'application/apply-patch+yaml',
      );
      tally.record('configmap apply', r, [200]);
      if (r.status === 200) cm.rv = JSON.parse(r.text).metadata.resourceVersion;
    } else if (roll < 0.72) {
      const r = await send('DELETE', `${base}/${cm.name}`);
      tally.record('configmap delete', r, [200]);
      if (r.status === 200) cm.rv = undefined;
    } else if (roll < 0.87) {
      tally.record('configmap list', await h2.get(s, `${base}?labelSelector=soak%3Dyes`), [200]);
    } else if (roll < 0.95) {
      tally.record('pod list', await h2.get(s, `/api/v1/pods?labelSelector=soak%3Dyes&limit=100`), [200]);
    } else if (dep !== undefined) {
      const replicas = 1 + Math.floor(Math.random() * 6);
      const r = await send('PATCH', `${dep}/d/scale`, { spec: { replicas } }, 'application/merge-patch+json');
      tally.record('deployment scale', r, [200]);
    } else {
      tally.record('namespace get', await h2.get(s, `/api/v1/namespaces/${ns}`), [200]);
    }
  }
  s.close();
}

/** A watcher on a namespace's ConfigMaps that starts again whenever the server ends its watch. */
async function watcher(h2, i, tally, stopped) {
  const s = h2.session();
  const path = `/api/v1/namespaces/soak-${i}/configmaps`;
  let events = 0;
  let restarts = 0;
  while (!stopped()) {
    const list = await h2.get(s, path);
    tally.record('watcher list', list, [200]);
    if (list.status !== 200) {
      await sleep(1000);
      continue;
    }
    const rv = JSON.parse(list.body.toString('utf8')).metadata.resourceVersion;
    const timeout = 30 + Math.floor(Math.random() * 60);
    const w = h2.stream(
      s,
      `${path}?watch=true&allowWatchBookmarks=true&resourceVersion=${rv}&timeoutSeconds=${timeout}`,
      () => events++,
    );
    const tick = setInterval(() => stopped() && w.stop(), 1000);
    await w.ended.catch((err) => tally.record('watch', { status: String(err.message), ms: 0 }, []));
    clearInterval(tick);
    restarts++;
  }
  s.close();
  return { events, restarts };
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const server = await startServer(freshDir(), {
    serveArgs: ['--nodes', String(o.nodes), ...(o.eventTtl !== '' ? ['--event-ttl', o.eventTtl] : [])],
    timeoutMs: 60_000,
  });
  const h2 = h2ClientFor(server.kubeconfigPath);
  const results = { env: benchEnv(), options: o };
  const tally = new Tally();
  const samples = [];
  const t0 = performance.now();
  const cpu0 = cpuSeconds(server.pid);
  const end = t0 + o.minutes * 60_000;
  const stopped = () => performance.now() > end;
  const sample = () => {
    const minute = (performance.now() - t0) / 60_000;
    samples.push({ minute: round(minute, 2), rssMiB: round(rssMiB(server.pid), 1), requests: tally.total });
  };
  sample();
  const sampler = setInterval(() => {
    sample();
    const last = samples.at(-1);
    log(`${last.minute.toFixed(1)} min: RSS ${last.rssMiB} MiB, ${last.requests} requests`);
  }, 10_000);
  try {
    const watcherIds = Array.from({ length: Math.min(o.watchers, o.clients) }, (_, k) => o.clients - 1 - k);
    const clients = Array.from({ length: o.clients }, (_, i) => client(h2, i, o, tally, stopped));
    // Watchers start once their namespaces exist.
    await sleep(2000);
    const watchers = watcherIds.map((i) => watcher(h2, i, tally, stopped));
    await Promise.all(clients);
    const watched = await Promise.all(watchers);
    clearInterval(sampler);
    sample();
    const minutes = (performance.now() - t0) / 60_000;
    const steady = samples.filter((p) => p.minute >= minutes / 5);
    const perMinute = slope(steady.map((p) => ({ x: p.minute, y: p.rssMiB })));
    const pods = await h2.get(h2.session(), '/api/v1/pods?labelSelector=soak%3Dyes');
    results.minutes = round(minutes, 1);
    results.requests = tally.total;
    results.requestsPerSecond = round(tally.total / (minutes * 60), 1);
    results.serverCpuSeconds = round(cpuSeconds(server.pid) - cpu0, 1);
    results.rss = {
      startMiB: samples[0].rssMiB,
      afterFirstFifthMiB: steady[0]?.rssMiB,
      endMiB: samples.at(-1).rssMiB,
      peakMiB: round(rssMiB(server.pid, 'VmHWM'), 1),
      slopeMiBPerHour: round(perMinute * 60, 1),
    };
    results.latencyMs = tally.summary();
    results.unexpected = tally.unexpected;
    results.watches = {
      events: watched.reduce((s, w) => s + w.events, 0),
      restarts: watched.reduce((s, w) => s + w.restarts, 0),
    };
    results.podsAtEnd = JSON.parse(pods.body.toString('utf8')).items.length;
    results.rssSamples = samples;
    results.loadavgAtEnd = loadavg().map((x) => round(x, 2));
    const { rssSamples, ...shown } = results;
    log(JSON.stringify(shown, null, 2));
    writeFileSync(o.out, await formatJson(o.out, results));
    log(`wrote ${o.out} (${rssSamples.length} RSS samples)`);
    if (Object.keys(tally.unexpected).length > 0) process.exitCode = 1;
  } finally {
    clearInterval(sampler);
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
