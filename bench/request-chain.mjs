#!/usr/bin/env node
// What the request chain costs a request, without TLS and HTTP: a server started in this process
// (the built `startServer`, controllers on, no simulated nodes) and an in-process client (the
// transport `nanokube serve` gives its own components) with 16 requests in flight. For three
// requests, from the chain's fixed cost to a write: `GET /version` (filters and a non-resource
// handler), `GET` of a namespace (a resource read from the watch cache), and a core/v1 Event create
// (decoding, admission, managed fields, SQLite, no watch cache). CPU per request is the process's
// (the client's side included), over the second of two rounds.
//
//   npm run build && node bench/request-chain.mjs [--requests N] [--out FILE]
//
// Writes bench/request-chain-results.json (or --out).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchEnv, cleanupTempDirs, formatJson, freshDir, log, parseFlags, root, round } from './lib.mjs';

const o = parseFlags(process.argv.slice(2), {
  requests: 20_000,
  out: join(root, 'bench', 'request-chain-results.json'),
});

const { startServer } = await import(join(root, 'dist', 'cmd', 'serve', 'start.js'));
const { RestClient } = await import(join(root, 'dist', 'client', 'rest-client.js'));
const { inProcessTransport, loopbackUser } = await import(
  join(root, 'dist', 'cmd', 'serve', 'in-process-transport.js')
);

const server = await startServer({
  bindAddress: '127.0.0.1',
  securePort: 0,
  storage: 'sqlite',
  dataDir: join(freshDir(), 'data'),
  nodes: 0,
});
const client = new RestClient({
  transport: inProcessTransport(server.api, { user: loopbackUser(), userAgent: 'request-chain-bench' }),
});

const event = (name) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name, namespace: 'default' },
  involvedObject: {
    kind: 'Pod',
    namespace: 'default',
    name: 'p',
    uid: '7b0b3c1e-9a1f-4f7e-9b43-2d8c1c2d5f0a',
    apiVersion: 'v1',
  },
  reason: 'Started',
  message: 'Started container c',
  source: { component: 'kubelet', host: 'node-1' },
  firstTimestamp: '2026-12-05T10:00:00Z',
  lastTimestamp: '2026-12-05T10:00:00Z',
  count: 1,
  type: 'Normal',
});

const kinds = {
  version: () => client.request('GET', '/version'),
  getNamespace: () => client.request('GET', '/api/v1/namespaces/default'),
  createEvent: (i) => client.request('POST', '/api/v1/namespaces/default/events', { body: event(`e-${i}`) }),
};

let serial = 0;
async function measure(fn, n) {
  let started = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (started < n) {
        started++;
        await fn(serial++);
      }
    }),
  );
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { perSecond: round((n / ms) * 1000, 0), cpuUsPerRequest: round((cpu.user + cpu.system) / n, 1) };
}

const results = {};
try {
  for (const [name, fn] of Object.entries(kinds)) {
    await measure(fn, o.requests); // warm-up round
    results[name] = await measure(fn, o.requests);
    log(`${name}: ${JSON.stringify(results[name])}`);
  }
} finally {
  client.close();
  await server.close();
  cleanupTempDirs();
}
process.stdout.write(
  `\n| request (in process, 16 in flight) | per second | CPU per request |\n| --- | --- | --- |\n` +
    `| GET /version | ${results.version.perSecond} | ${results.version.cpuUsPerRequest} µs |\n` +
    `| GET a namespace | ${results.getNamespace.perSecond} | ${results.getNamespace.cpuUsPerRequest} µs |\n` +
    `| create an Event | ${results.createEvent.perSecond} | ${results.createEvent.cpuUsPerRequest} µs |\n`,
);
writeFileSync(o.out, await formatJson(o.out, { env: benchEnv(), options: o, results }));
