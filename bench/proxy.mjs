#!/usr/bin/env node
// nanokube proxy benchmark (MinimizeIPTablesRestore, NW-06): S Services × E endpoints. Builds the
// full sync's iptables-restore input, then changes one endpoint of one Service and builds the
// partial sync's input; reports bytes and build time of each, and their ratio (and the size of
// the partial write as upstream v1.27 makes it, every fixed chain again). As root with the
// iptables tools and network namespaces, it also writes both into a fresh network namespace
// with iptables-restore (the time the kernel's tables take to program) and removes it after.
//
//   npm run build && node bench/proxy.mjs                       10,000 Services × 5 endpoints
//   node bench/proxy.mjs --services 1000 --endpoints 3          a smaller run
//
// Flags: --services N, --endpoints N, --runs N, --no-iptables, --out FILE
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { formatJson, log, median, root, round } from './lib.mjs';

function parseArgs(argv) {
  const o = {
    services: 10_000,
    endpoints: 5,
    runs: 3,
    iptables: true,
    out: join(root, 'bench', 'proxy-results.json'),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === '--services') o.services = Number(next());
    else if (a === '--endpoints') o.endpoints = Number(next());
    else if (a === '--runs') o.runs = Number(next());
    else if (a === '--no-iptables') o.iptables = false;
    else if (a === '--out') o.out = next();
    else throw new Error(`unknown flag ${a}`);
  }
  return o;
}

const o = parseArgs(process.argv.slice(2));
const mod = (p) => import(pathToFileURL(join(root, 'dist', p)).href);
const { servicePorts } = await mod('proxy/service-port.js');
const { serviceEndpoints } = await mod('proxy/endpoints.js');
const { buildRules } = await mod('proxy/iptables/rules.js');
const { chainsOf } = await mod('proxy/iptables/dump.js');

const hostname = 'node-0';
const options = {
  family: 'IPv4',
  masqueradeMark: '0x00004000',
  masqueradeAll: false,
  clusterCIDR: '10.244.0.0/16',
  localhostNodePorts: true,
  nodeIP: '172.18.0.2',
  randomFully: true,
  nodeLabels: {},
};

const ip = (base, n) => `${base}.${(n >> 8) & 255}.${n & 255}`;
function service(i) {
  return {
    metadata: { namespace: `ns${i % 100}`, name: `svc${i}` },
    spec: { clusterIP: ip('10.96', i + 10), ports: [{ name: 'http', port: 80, protocol: 'TCP' }] },
  };
}
function slice(i, shift = 0) {
  return {
    metadata: {
      namespace: `ns${i % 100}`,
      name: `svc${i}-1`,
      labels: { 'kubernetes.io/service-name': `svc${i}` },
    },
    addressType: 'IPv4',
    ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
    endpoints: Array.from({ length: o.endpoints }, (_, e) => ({
      addresses: [
        ip(`10.${244 + ((i * o.endpoints + e + shift) >> 16)}`, (i * o.endpoints + e + shift) & 0xffff),
      ],
      conditions: { ready: true },
      nodeName: `node-${e % 3}`,
    })),
  };
}

const ports = [];
const endpoints = new Map();
for (let i = 0; i < o.services; i++) {
  const svc = service(i);
  ports.push(...servicePorts(svc, 'IPv4'));
  const key = `${svc.metadata.namespace}/${svc.metadata.name}`;
  for (const [k, v] of serviceEndpoints(key, [slice(i)], { family: 'IPv4', hostname })) endpoints.set(k, v);
}

function timed(fn) {
  const t0 = performance.now();
  const r = fn();
  return { r, ms: performance.now() - t0 };
}

// Full sync: nothing exists yet.
const fulls = [];
for (let r = 0; r < o.runs; r++)
  fulls.push(timed(() => buildRules({ ports, endpoints }, options, { existingNatChains: new Set() })));
const full = fulls.at(-1).r;
const existing = chainsOf(full.text, 'nat');

// One endpoint of one Service changes: that Service's endpoints are recomputed, the sync is partial.
const changed = service(o.services >> 1);
const changedKey = `${changed.metadata.namespace}/${changed.metadata.name}`;
for (const [k, v] of serviceEndpoints(changedKey, [slice(o.services >> 1, 60_000)], {
  family: 'IPv4',
  hostname,
})) {
  endpoints.set(k, v);
}
// As nanokube proxy syncs: fixed chains whose rules are as last written are left out.
const partials = [];
for (let r = 0; r < o.runs; r++) {
  partials.push(
    timed(() =>
      buildRules({ ports, endpoints }, options, {
        changedServices: new Set([changedKey]),
        existingNatChains: existing,
        written: full.fixedChains,
      }),
    ),
  );
}
const partial = partials.at(-1).r;
// As upstream v1.27 syncs: every fixed chain (KUBE-SERVICES with every Service's entry) again.
const upstreamPartial = buildRules({ ports, endpoints }, options, {
  changedServices: new Set([changedKey]),
  existingNatChains: existing,
}).text;

const result = {
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, model: cpus()[0]?.model, load: loadavg().map((x) => round(x, 2)) },
  services: o.services,
  endpointsPerService: o.endpoints,
  full: {
    bytes: Buffer.byteLength(full.text),
    lines: full.text.split('\n').length - 1,
    buildMs: round(median(fulls.map((f) => f.ms)), 1),
  },
  partial: {
    bytes: Buffer.byteLength(partial.text),
    lines: partial.text.split('\n').length - 1,
    buildMs: round(median(partials.map((p) => p.ms)), 1),
    deletedChains: partial.deletedChains.length,
  },
};
result.partialBytesPercentOfFull = round((100 * result.partial.bytes) / result.full.bytes, 3);
result.upstreamStylePartial = {
  bytes: Buffer.byteLength(upstreamPartial),
  percentOfFull: round((100 * Buffer.byteLength(upstreamPartial)) / result.full.bytes, 3),
};

// Real iptables-restore into a throwaway network namespace, when possible.
function canUseIptables() {
  if (!o.iptables || process.getuid?.() !== 0) return 'not root (or --no-iptables)';
  for (const t of ['ip', 'iptables-restore']) {
    if (spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0) return `${t} missing`;
  }
  return undefined;
}
const why = canUseIptables();
if (why === undefined) {
  const ns = `nkbench${process.pid}`;
  const restore = (text) => {
    const t0 = performance.now();
    execFileSync('ip', ['netns', 'exec', ns, 'iptables-restore', '-w', '5', '--noflush', '--counters'], {
      input: text,
      maxBuffer: 1 << 30,
    });
    return performance.now() - t0;
  };
  try {
    execFileSync('ip', ['netns', 'add', ns]);
    const fullMs = restore(full.text);
    const partialMs = [];
    for (let r = 0; r < o.runs; r++) partialMs.push(restore(partial.text));
    const upstreamMs = restore(upstreamPartial);
    result.iptablesRestore = { fullMs: round(fullMs, 1), partialMs: round(median(partialMs), 1) };
    result.iptablesRestore.partialPercentOfFull = round((100 * result.iptablesRestore.partialMs) / fullMs, 2);
    result.iptablesRestore.upstreamStylePartialMs = round(upstreamMs, 1);
    result.iptablesVersion = execFileSync('iptables', ['--version'], { encoding: 'utf8' }).trim();
  } catch (err) {
    result.iptablesRestore = {
      skipped: `failed: ${String(err.stderr ?? err)
        .trim()
        .slice(0, 200)}`,
    };
  } finally {
    spawnSync('ip', ['netns', 'del', ns]);
  }
} else {
  result.iptablesRestore = { skipped: why };
}

const text = await formatJson(o.out, result);
writeFileSync(o.out, text);
log(text);
