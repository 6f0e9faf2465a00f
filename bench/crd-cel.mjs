#!/usr/bin/env node
// nanokube custom resource benchmark: creates of custom resources over HTTP/2 for a CRD
// whose schema has no x-kubernetes-validations and for the same CRD with 10 CEL rules on it
// (string, list, map and transition rules, a messageExpression), `--concurrency` requests in
// flight. Reports creates/s, admission latency p50/p99 (request sent → 201) and server CPU per
// create, with and without the rules.
//
//   npm run build && node bench/crd-cel.mjs
//
// Flags: --count N creates per scenario (default 3000), --concurrency C (default 16),
//        --rounds R (default 2: the scenarios alternate, each round on fresh CRDs; the first
//        round warms the server up and is reported but not summarised),
//        --out FILE (default bench/crd-cel-results.json)
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
  sleep,
  startServer,
  stopServer,
} from './lib.mjs';

function parseArgs(argv) {
  const o = { count: 3000, concurrency: 16, rounds: 2, out: join(root, 'bench', 'crd-cel-results.json') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === '--count') o.count = Number(next());
    else if (a === '--concurrency') o.concurrency = Number(next());
    else if (a === '--rounds') o.rounds = Number(next());
    else if (a === '--out') o.out = next();
    else throw new Error(`unknown flag ${a}`);
  }
  return o;
}

const ns = 'bench-crd';

/** The 10 rules: on the spec, its strings, a list, a map and one transition rule. */
const rules = [
  { rule: 'self.replicas >= 0 && self.replicas <= self.maxReplicas', message: 'replicas out of range' },
  { rule: "self.image.startsWith('registry.example/')", message: 'image from another registry' },
  { rule: "self.image.matches('^[a-z0-9./-]+:[a-z0-9.]+$')", message: 'image needs a tag' },
  { rule: 'size(self.args) <= 16' },
  { rule: "self.args.all(a, a.startsWith('--'))", messageExpression: "'bad args: ' + self.args.join(',')" },
  { rule: '!has(self.env) || self.env.all(k, k.size() < 64)' },
  { rule: "self.mode in ['fast', 'safe']" },
  { rule: 'self.ports.all(p, p.port > 0 && p.port < 65536)' },
  { rule: 'self.ports.exists(p, p.name == "http")' },
  { rule: 'self.maxReplicas >= oldSelf.maxReplicas', message: 'maxReplicas may only grow' },
];

function crd(name, withRules) {
  const spec = {
    type: 'object',
    required: ['image', 'replicas', 'maxReplicas', 'mode', 'args', 'ports'],
    properties: {
      image: { type: 'string', maxLength: 256 },
      replicas: { type: 'integer' },
      maxReplicas: { type: 'integer' },
      mode: { type: 'string', maxLength: 16 },
      args: { type: 'array', maxItems: 32, items: { type: 'string', maxLength: 128 } },
      env: { type: 'object', maxProperties: 32, additionalProperties: { type: 'string', maxLength: 256 } },
      ports: {
        type: 'array',
        maxItems: 16,
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: {
          type: 'object',
          required: ['name', 'port'],
          properties: { name: { type: 'string', maxLength: 15 }, port: { type: 'integer' } },
        },
      },
    },
    ...(withRules ? { 'x-kubernetes-validations': rules } : {}),
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${name}s.bench.example.com` },
    spec: {
      group: 'bench.example.com',
      scope: 'Namespaced',
      names: { plural: `${name}s`, singular: name, kind: name[0].toUpperCase() + name.slice(1) },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec } } },
        },
      ],
    },
  };
}

function object(kind, i) {
  return {
    apiVersion: 'bench.example.com/v1',
    kind,
    metadata: { name: `o-${i}`, namespace: ns },
    spec: {
      image: `registry.example/app-${i % 7}:v1.${i % 13}`,
      replicas: i % 5,
      maxReplicas: 10,
      mode: i % 2 === 0 ? 'fast' : 'safe',
      args: ['--port', '--verbose', `--id-${i % 100}`],
      env: { A: 'x', B: 'y' },
      ports: [
        { name: 'http', port: 8080 },
        { name: 'metrics', port: 9090 },
      ],
    },
  };
}

async function scenario(h2, session, pid, name, withRules, o) {
  const def = crd(name, withRules);
  const kind = def.spec.names.kind;
  const r = await h2.send(
    session,
    'POST',
    '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    JSON.stringify(def),
  );
  if (r.status !== 201) throw new Error(`crd ${name}: ${r.status} ${r.text.slice(0, 500)}`);
  const path = `/apis/bench.example.com/v1/namespaces/${ns}/${name}s`;
  // Served once the names are accepted.
  for (let i = 0; ; i++) {
    const g = await h2.send(session, 'GET', path);
    if (g.status === 200) break;
    if (i > 200) throw new Error(`${path} never served: ${g.status}`);
    await sleep(25);
  }
  const lat = [];
  let next = 0;
  const cpu0 = cpuSeconds(pid);
  const t0 = performance.now();
  const worker = async () => {
    while (next < o.count) {
      const i = next++;
      const s = performance.now();
      const c = await h2.send(session, 'POST', path, JSON.stringify(object(kind, i)));
      if (c.status !== 201) throw new Error(`${name} create: ${c.status} ${c.text.slice(0, 300)}`);
      lat.push(performance.now() - s);
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  const wall = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds(pid) - cpu0;
  lat.sort((a, b) => a - b);
  const result = {
    scenario: withRules ? `${rules.length} CEL rules` : 'no rules',
    creates: lat.length,
    createsPerSecond: round(lat.length / wall, 1),
    latencyMs: { p50: round(percentile(lat, 50), 1), p99: round(percentile(lat, 99), 1) },
    serverCpuMsPerCreate: round((cpu * 1000) / lat.length, 3),
  };
  log(
    `${result.scenario}: ${result.createsPerSecond} creates/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms, ${result.serverCpuMsPerCreate} ms server CPU each`,
  );
  return result;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const server = await startServer(freshDir(), { serveArgs: ['--controllers=', '--nodes', '0'] });
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
    for (let r = 0; r < o.rounds; r++) {
      const first = r % 2 === 0;
      for (const withRules of first ? [false, true] : [true, false]) {
        const s = await scenario(
          h2,
          session,
          server.pid,
          `${withRules ? 'ruled' : 'plain'}r${r}`,
          withRules,
          o,
        );
        results.scenarios.push({ ...s, round: r });
      }
    }
  } finally {
    session.close();
    await stopServer(server.child);
    cleanupTempDirs();
  }
  results.env.loadavgAtEnd = loadavg().map((x) => round(x, 2));
  writeFileSync(o.out, await formatJson(o.out, results));
  console.log('\n| Custom resource creates | round | creates/s | p50 | p99 | server CPU per create |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const s of results.scenarios.filter((x) => x.round > 0 || o.rounds === 1)) {
    console.log(
      `| ${s.scenario} | ${s.round} | ${s.createsPerSecond} | ${s.latencyMs.p50} ms | ${s.latencyMs.p99} ms | ${s.serverCpuMsPerCreate} ms |`,
    );
  }
  console.log(
    `\n(${o.count} creates per scenario, ${o.concurrency} in flight; ${results.env.node}, ${results.env.cpu}, load ${results.env.loadavgAtStart.join(' ')}; written to ${o.out})`,
  );
}

main().catch((err) => {
  for (const c of live) c.kill('SIGKILL');
  console.error(err);
  process.exit(1);
});
