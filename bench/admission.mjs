#!/usr/bin/env node
// nanokube admission benchmark: what the built-in admission chain costs a pod create.
// Runs the compiled API server alone (`--controllers= --nodes 0`) in four configurations, in
// alternating rounds so that a slow minute hits all of them alike:
//   none      --disable-admission-plugins with every default plugin
//   none-fat  the same, the pods sent with the fields the default chain would add (what the
//             bigger objects cost by themselves, apart from the plugins' work)
//   default   kube-apiserver v1.27's default chain, in a namespace with nothing to enforce
//   enforcing the default chain in a namespace with a ResourceQuota, a LimitRange and
//             pod-security.kubernetes.io/enforce=baseline (every plugin does its work)
// Each round creates N pods with C concurrent clients after a warm-up, and reports creates/s and
// the create latency p50/p99; the summary is the median over rounds, and the default chain's
// cost is 1 - default/none in creates/s.
//
//   npm run build && node bench/admission.mjs                  5 rounds of 3,000 pods, 16 clients
//   node bench/admission.mjs --rounds 1 --creates 500          a smoke run
//
// Flags: --rounds N, --creates N, --concurrency N, --out FILE, --only NAME (one configuration),
//        --cpu-prof DIR (a V8 CPU profile of each server)
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import {
  cleanupTempDirs,
  clientFor,
  createConcurrently,
  formatJson,
  freshDir,
  log,
  median,
  percentile,
  root,
  round,
  startServer,
  stopServer,
} from './lib.mjs';
import { defaultOnPluginNames } from '../dist/admission/catalog.js';

function parseArgs(argv) {
  const o = {
    rounds: 5,
    creates: 3000,
    concurrency: 16,
    out: join(root, 'bench', 'admission-results.json'),
    only: undefined,
    cpuProf: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === '--rounds') o.rounds = Number(next());
    else if (a === '--creates') o.creates = Number(next());
    else if (a === '--concurrency') o.concurrency = Number(next());
    else if (a === '--out') o.out = next();
    else if (a === '--only') o.only = next();
    else if (a === '--cpu-prof') o.cpuProf = resolve(next());
    else throw new Error(`unknown flag ${a}`);
  }
  return o;
}

// The v1.27 default plugins, from the build (this bench runs the compiled server anyway).
const defaultPlugins = [...defaultOnPluginNames];

const noAdmission = [`--disable-admission-plugins=${defaultPlugins.join(',')}`];
const configs = {
  none: { serveArgs: noAdmission, enforcing: false, fat: false },
  // No admission, the pods sent with what the default chain adds to them (service account,
  // token volume and mount, tolerations, priority): what the bigger objects cost by themselves.
  'none-fat': { serveArgs: noAdmission, enforcing: false, fat: true },
  default: { serveArgs: [], enforcing: false, fat: false },
  enforcing: { serveArgs: [], enforcing: true, fat: false },
};

const ns = 'bench';
const tokenMount = {
  name: 'kube-api-access-bench',
  readOnly: true,
  mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
};
const admitted = {
  serviceAccountName: 'default',
  serviceAccount: 'default',
  priority: 0,
  preemptionPolicy: 'PreemptLowerPriority',
  tolerations: ['not-ready', 'unreachable'].map((t) => ({
    key: `node.kubernetes.io/${t}`,
    operator: 'Exists',
    effect: 'NoExecute',
    tolerationSeconds: 300,
  })),
  volumes: [
    {
      name: tokenMount.name,
      projected: {
        sources: [
          { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
          { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          {
            downwardAPI: {
              items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
            },
          },
        ],
        defaultMode: 420,
      },
    },
  ],
};
const pod = (fat) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { generateName: 'p-' },
  spec: {
    containers: [
      {
        name: 'c',
        image: 'nginx',
        resources: { requests: { cpu: '10m', memory: '16Mi' } },
        ...(fat ? { volumeMounts: [tokenMount] } : {}),
      },
    ],
    ...(fat ? admitted : {}),
  },
});

async function must(client, method, path, body) {
  const r = await client.send(method, path, body);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text.slice(0, 300)}`);
  return r;
}

async function prepare(client, enforcing) {
  await must(client, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name: ns,
      ...(enforcing ? { labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } } : {}),
    },
  });
  await must(client, 'POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'default' },
  });
  if (!enforcing) return;
  await must(client, 'POST', `/api/v1/namespaces/${ns}/limitranges`, {
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: { name: 'defaults' },
    spec: { limits: [{ type: 'Container', default: { cpu: '100m', memory: '64Mi' } }] },
  });
  const quota = await must(client, 'POST', `/api/v1/namespaces/${ns}/resourcequotas`, {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name: 'q' },
    spec: { hard: { pods: '1000000', 'requests.cpu': '100000', 'requests.memory': '1000Gi' } },
  });
  // No controller runs here: give the quota the status the controller would (nothing used yet).
  const q = JSON.parse(quota.text);
  q.status = { hard: q.spec.hard, used: { pods: '0', 'requests.cpu': '0', 'requests.memory': '0' } };
  await must(client, 'PUT', `/api/v1/namespaces/${ns}/resourcequotas/q/status`, q);
}

function createPods(client, count, concurrency, fat) {
  return createConcurrently(client, {
    path: `/api/v1/namespaces/${ns}/pods`,
    body: () => pod(fat),
    count,
    concurrency,
  });
}

async function oneRound(name, o) {
  const config = configs[name];
  const server = await startServer(freshDir(), {
    serveArgs: ['--controllers=', '--nodes', '0', ...config.serveArgs],
  });
  const client = clientFor(server, o.concurrency);
  try {
    await prepare(client, config.enforcing);
    await createPods(client, Math.max(100, Math.floor(o.creates / 10)), o.concurrency, config.fat);
    const c = await createPods(client, o.creates, o.concurrency, config.fat);
    if (c.failures.length > 0) throw new Error(`${name}: ${c.failures.length} failed, e.g. ${c.failures[0]}`);
    return {
      perSecond: round(c.latencies.length / (c.wallMs / 1000)),
      p50Ms: round(percentile(c.latencies, 50), 2),
      p99Ms: round(percentile(c.latencies, 99), 2),
    };
  } finally {
    client.close?.();
    await stopServer(server.child);
  }
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const rounds = Object.fromEntries(Object.keys(configs).map((name) => [name, []]));
  for (let r = 0; r < o.rounds; r++) {
    for (const name of Object.keys(configs).filter((n) => o.only === undefined || n === o.only)) {
      const result = await oneRound(name, o);
      log(`round ${r + 1} ${name}: ${result.perSecond}/s p50 ${result.p50Ms} ms p99 ${result.p99Ms} ms`);
      rounds[name].push(result);
    }
  }
  const summary = {};
  for (const [name, list] of Object.entries(rounds)) {
    if (list.length === 0) continue;
    summary[name] = {
      perSecond: median(list.map((x) => x.perSecond)),
      p50Ms: median(list.map((x) => x.p50Ms)),
      p99Ms: median(list.map((x) => x.p99Ms)),
    };
  }
  // Rounds run the configurations back to back, so a round's ratio compares like with like; the
  // median of the rounds' ratios is steadier than the ratio of the medians on a noisy machine.
  const pairedCost = (name) => {
    if (rounds[name].length === 0 || rounds.none.length === 0) return undefined;
    const ratios = rounds[name].map((r, i) => r.perSecond / rounds.none[i].perSecond);
    return round(100 * (1 - median(ratios)), 1);
  };
  const cost = (name) =>
    summary[name] !== undefined && summary.none !== undefined
      ? round(100 * (1 - summary[name].perSecond / summary.none.perSecond), 1)
      : undefined;
  const result = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model, loadavg: loadavg().map((x) => round(x, 2)) },
    options: o,
    summary,
    defaultChainCostPercent: cost('default'),
    enforcingChainCostPercent: cost('enforcing'),
    biggerObjectsCostPercent: cost('none-fat'),
    pairedCostPercent: {
      default: pairedCost('default'),
      enforcing: pairedCost('enforcing'),
      'none-fat': pairedCost('none-fat'),
    },
    target: 'default chain costs under 15% of the create rate',
    rounds,
  };
  log(
    `default chain costs ${result.defaultChainCostPercent}% of creates/s; enforcing ${result.enforcingChainCostPercent}%; the same bigger pods without admission ${result.biggerObjectsCostPercent}% (round by round: ${result.pairedCostPercent.default}%, ${result.pairedCostPercent.enforcing}%, ${result.pairedCostPercent['none-fat']}%)`,
  );
  writeFileSync(o.out, await formatJson(o.out, result));
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(cleanupTempDirs);
