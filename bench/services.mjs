#!/usr/bin/env node
// nanokube Services benchmark: `nanokube serve --nodes N` with the controllers. Creates
// S Services (ClusterIP, each selecting P/S pods), then P pods, and waits until every Service's
// EndpointSlices list all of its pods. Reports the Service create latency (p50/p99, the
// ClusterIP allocated in the same transaction), the time to allocate all Services, the time until
// the EndpointSlices are complete, distinct ClusterIPs, and the server's peak RSS.
//
//   npm run build && node bench/services.mjs                          10,000 Services, 50,000 pods
//   node bench/services.mjs --services 1000 --pods 5000 --nodes 100  a smaller run
//
// Flags: --services N, --pods N, --nodes N, --concurrency N, --out FILE
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
    services: 10_000,
    pods: 50_000,
    nodes: 500,
    concurrency: 32,
    out: join(root, 'bench', 'services-results.json'),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === '--services') o.services = Number(next());
    else if (a === '--pods') o.pods = Number(next());
    else if (a === '--nodes') o.nodes = Number(next());
    else if (a === '--concurrency') o.concurrency = Number(next());
    else if (a === '--out') o.out = next();
    else throw new Error(`unknown flag ${a}`);
  }
  return o;
}

const ns = 'bench';

/** Runs `count` calls of `one(i)` with `concurrency` in flight; returns the sorted latencies. */
async function many(count, concurrency, one) {
  let next = 0;
  const latencies = [];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        for (let attempt = 0; ; attempt++) {
          const r = await one(i);
          if (r.status === 201) {
            latencies.push(r.ms);
            break;
          }
          if (attempt >= 5) throw new Error(`create ${i}: ${r.status} ${r.text.slice(0, 300)}`);
          await sleep(100);
        }
      }
    }),
  );
  return latencies.sort((a, b) => a - b);
}

const pct = (sorted, q) =>
  round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN, 1);

/**
 * Follows the namespace's EndpointSlices from a watch: per Service, the ready endpoint addresses
 * across its slices. `done` resolves when every Service has `want` ready endpoints.
 */
function trackSlices(client, fromRevision, services, want) {
  const bySlice = new Map(); // slice name → { service, ready }
  const readyByService = new Map();
  let complete = 0;
  let lastRv = String(fromRevision);
  let stopped = false;
  let current;
  let resolveDone;
  const done = new Promise((r) => (resolveDone = r));
  const set = (service, delta) => {
    const before = readyByService.get(service) ?? 0;
    const after = before + delta;
    readyByService.set(service, after);
    if (before < want && after >= want) complete++;
    if (before >= want && after < want) complete--;
    if (complete === services) resolveDone();
  };
  const apply = (type, slice) => {
    const name = slice.metadata?.name;
    if (name === undefined) return;
    const old = bySlice.get(name);
    if (old !== undefined) set(old.service, -old.ready);
    if (type === 'DELETED') {
      bySlice.delete(name);
      return;
    }
    const service = slice.metadata?.labels?.['kubernetes.io/service-name'];
    if (service === undefined) return;
    // Every pod listed (ready or not: a simulated node the node lifecycle controller marked
    // unreachable under this load leaves its pods NotReady, which the slices then say).
    const ready = (slice.endpoints ?? []).length;
    bySlice.set(name, { service, ready });
    set(service, ready);
  };
  const loop = async () => {
    while (!stopped) {
      current = client.stream(
        `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices?watch=1&allowWatchBookmarks=true&resourceVersion=${lastRv}`,
        (line) => {
          const ev = JSON.parse(line);
          if (ev.type === 'ERROR') throw new Error(`slice watch: ${line.slice(0, 300)}`);
          lastRv = ev.object?.metadata?.resourceVersion ?? lastRv;
          if (ev.type !== 'BOOKMARK') apply(ev.type, ev.object);
        },
      );
      await current.ended.catch(() => undefined);
      if (!stopped) await sleep(100);
    }
  };
  void loop();
  return { done, stop: () => ((stopped = true), current?.stop()), complete: () => complete };
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const perService = Math.max(1, Math.floor(o.pods / o.services));
  const server = await startServer(freshDir(), {
    serveArgs: ['--nodes', String(o.nodes)],
    timeoutMs: 60_000,
  });
  const peak = sampleRss(server.pid);
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
    await until(
      `${o.nodes} Ready nodes`,
      async () =>
        (await json(client, 'GET', '/api/v1/nodes')).items.filter((n) =>
          n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
        ).length === o.nodes,
      { everyMs: 250 },
    );
    await json(client, 'POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: ns },
    });
    const revision = Number(
      (await json(client, 'GET', '/api/v1/namespaces?limit=1')).metadata.resourceVersion,
    );
    const slices = trackSlices(client, revision, o.services, perService);

    // 1. Services: each create allocates its ClusterIP in the same transaction.
    let t0 = performance.now();
    const svcLatencies = await many(o.services, o.concurrency, (i) =>
      client.send(
        'POST',
        `/api/v1/namespaces/${ns}/services`,
        {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: `s-${i}` },
          spec: { selector: { svc: `s-${i}` }, ports: [{ port: 80, targetPort: 8080 }] },
        },
        120_000,
      ),
    );
    const servicesS = (performance.now() - t0) / 1000;
    const ips = new Set();
    let cont = '';
    do {
      const page = await json(
        client,
        'GET',
        `/api/v1/namespaces/${ns}/services?limit=5000${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`,
      );
      for (const s of page.items) if (s.spec?.clusterIP) ips.add(s.spec.clusterIP);
      cont = page.metadata.continue ?? '';
    } while (cont !== '');
    results.services = {
      count: o.services,
      createSeconds: round(servicesS, 1),
      createsPerSecond: round(o.services / servicesS, 0),
      createLatencyMs: { p50: pct(svcLatencies, 0.5), p99: pct(svcLatencies, 0.99) },
      distinctClusterIPs: ips.size,
    };
    log(
      `${o.services} Services in ${results.services.createSeconds} s (p50 ${results.services.createLatencyMs.p50} ms, p99 ${results.services.createLatencyMs.p99} ms), ${ips.size} distinct ClusterIPs`,
    );

    // 2. Pods, then every Service's EndpointSlices complete.
    t0 = performance.now();
    const podLatencies = await many(o.services * perService, o.concurrency, (i) =>
      client.send(
        'POST',
        `/api/v1/namespaces/${ns}/pods`,
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: `p-${i}`, labels: { svc: `s-${Math.floor(i / perService)}` } },
          spec: {
            containers: [
              {
                name: 'c',
                image: 'nginx',
                ports: [{ containerPort: 8080 }],
                resources: { requests: { cpu: '1m', memory: '1Mi' } },
              },
            ],
          },
        },
        120_000,
      ),
    );
    const podsS = (performance.now() - t0) / 1000;
    log(`${o.services * perService} pods created in ${round(podsS, 1)} s; waiting for the EndpointSlices`);
    const progress = setInterval(
      () => log(`  ${slices.complete()} of ${o.services} Services complete`),
      10_000,
    );
    await slices.done;
    clearInterval(progress);
    const slicesS = (performance.now() - t0) / 1000;
    slices.stop();
    results.pods = {
      count: o.services * perService,
      createSeconds: round(podsS, 1),
      createLatencyMs: { p50: pct(podLatencies, 0.5), p99: pct(podLatencies, 0.99) },
    };
    results.endpointSlices = { allListedSeconds: round(slicesS, 1) };
    log(
      `every Service's EndpointSlices list its ${perService} pods ${round(slicesS, 1)} s after the first pod`,
    );
  } finally {
    results.peakRssMiB = round(peak(), 0);
    await stopServer(server.child);
    cleanupTempDirs();
  }
  results.env.loadavgAtEnd = loadavg().map((x) => round(x, 2));
  writeFileSync(o.out, await formatJson(o.out, results));
  console.log(
    `\n| Services | pods | Service creates/s | create p50 | create p99 | EndpointSlices complete | peak RSS |`,
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  console.log(
    `| ${o.services} | ${results.pods?.count ?? '-'} | ${results.services?.createsPerSecond ?? '-'} | ${results.services?.createLatencyMs.p50 ?? '-'} ms | ${results.services?.createLatencyMs.p99 ?? '-'} ms | ${results.endpointSlices?.allListedSeconds ?? '-'} s | ${results.peakRssMiB} MiB |`,
  );
  console.log(
    `\n(${results.env.node}, ${results.env.cpu}, load ${results.env.loadavgAtStart.join(' ')}; written to ${o.out})`,
  );
}

main().catch((err) => {
  for (const c of live) c.kill('SIGKILL');
  console.error(err);
  process.exit(1);
});
