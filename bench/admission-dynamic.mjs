#!/usr/bin/env node
// nanokube dynamic admission benchmark: what ValidatingAdmissionPolicy and an admission webhook
// cost a create. Runs the compiled API server alone (`--controllers= --nodes 0`, the
// ValidatingAdmissionPolicy gate and admissionregistration.k8s.io/v1alpha1 on) in alternating
// rounds of these configurations:
//   policies-0    no policies (the default chain, with the policy plugin looking and finding none)
//   policies-10   10 policies, each bound, each matching ConfigMap creates with one validation
//   policies-100  100 of them
//   webhook       one validating webhook, served over HTTPS by this process, allowing everything
// Each round creates N ConfigMaps with C concurrent clients after a warm-up and reports creates/s
// and the create latency p50/p99; the summary is the median over rounds, and each configuration's
// cost is 1 - rate/rate(policies-0), taken round by round.
//
//   npm run build && node bench/admission-dynamic.mjs              5 rounds of 2,000 creates, 16 clients
//   node bench/admission-dynamic.mjs --rounds 1 --creates 300      a smoke run
//
// Flags: --rounds N, --creates N, --concurrency N, --out FILE, --only NAME
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
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
import { ensurePki } from '../dist/cmd/serve/pki.js';

function parseArgs(argv) {
  const o = {
    rounds: 5,
    creates: 2000,
    concurrency: 16,
    out: join(root, 'bench', 'admission-dynamic-results.json'),
    only: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === '--rounds') o.rounds = Number(next());
    else if (a === '--creates') o.creates = Number(next());
    else if (a === '--concurrency') o.concurrency = Number(next());
    else if (a === '--out') o.out = next();
    else if (a === '--only') o.only = next();
    else throw new Error(`unknown flag ${a}`);
  }
  return o;
}

const configs = {
  'policies-0': { policies: 0, webhook: false },
  'policies-10': { policies: 10, webhook: false },
  'policies-100': { policies: 100, webhook: false },
  webhook: { policies: 0, webhook: true },
};
const ns = 'bench';
const group = 'admissionregistration.k8s.io';

async function must(client, method, path, body) {
  const r = await client.send(method, path, body);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text.slice(0, 300)}`);
  return r;
}

/** An HTTPS admission webhook that allows every request, with a certificate for 127.0.0.1. */
async function startWebhook() {
  const pki = await ensurePki(freshDir(), ['127.0.0.1']);
  let calls = 0;
  const server = createServer({ cert: pki.servingCert, key: pki.servingKey }, (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      calls++;
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const body = JSON.stringify({
        apiVersion: review.apiVersion,
        kind: 'AdmissionReview',
        response: { uid: review.request.uid, allowed: true },
      });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `https://127.0.0.1:${server.address().port}/validate`,
    caBundle: Buffer.from(pki.caCert).toString('base64'),
    calls: () => calls,
    close: () => new Promise((r) => server.close(r)),
  };
}

async function prepare(client, config, webhook) {
  await must(client, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
  for (let i = 0; i < config.policies; i++) {
    await must(client, 'POST', `/apis/${group}/v1alpha1/validatingadmissionpolicies`, {
      apiVersion: `${group}/v1alpha1`,
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: `p${i}` },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          resourceRules: [
            { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] },
          ],
        },
        validations: [
          { expression: `!has(object.data) || object.data.size() < ${100 + i}`, message: 'too much data' },
        ],
      },
    });
    await must(client, 'POST', `/apis/${group}/v1alpha1/validatingadmissionpolicybindings`, {
      apiVersion: `${group}/v1alpha1`,
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: `p${i}` },
      spec: { policyName: `p${i}`, validationActions: ['Deny'] },
    });
  }
  if (webhook !== undefined) {
    await must(client, 'POST', `/apis/${group}/v1/validatingwebhookconfigurations`, {
      apiVersion: `${group}/v1`,
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'allow' },
      webhooks: [
        {
          name: 'allow.bench.example.com',
          clientConfig: { url: webhook.url, caBundle: webhook.caBundle },
          rules: [
            { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] },
          ],
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          failurePolicy: 'Fail',
        },
      ],
    });
  }
}

function createConfigMaps(client, count, concurrency) {
  return createConcurrently(client, {
    path: `/api/v1/namespaces/${ns}/configmaps`,
    body: () => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { generateName: 'c-' },
      data: { key: 'value' },
    }),
    count,
    concurrency,
  });
}

async function oneRound(name, o) {
  const config = configs[name];
  const webhook = config.webhook ? await startWebhook() : undefined;
  const server = await startServer(freshDir(), {
    serveArgs: [
      '--controllers=',
      '--nodes',
      '0',
      '--feature-gates=ValidatingAdmissionPolicy=true',
      `--runtime-config=${group}/v1alpha1=true`,
    ],
  });
  const client = clientFor(server, o.concurrency);
  try {
    await prepare(client, config, webhook);
    // The warm-up also lets the watch caches see the policies and the webhook configuration.
    await createConfigMaps(client, Math.max(100, Math.floor(o.creates / 10)), o.concurrency);
    const before = webhook?.calls() ?? 0;
    const c = await createConfigMaps(client, o.creates, o.concurrency);
    if (c.failures.length > 0) throw new Error(`${name}: ${c.failures.length} failed, e.g. ${c.failures[0]}`);
    // Every create reached the webhook (a retried name collision is refused before admission).
    if (webhook !== undefined && webhook.calls() - before < o.creates) {
      throw new Error(`webhook: ${webhook.calls() - before} calls for ${o.creates} creates`);
    }
    return {
      perSecond: round(c.latencies.length / (c.wallMs / 1000)),
      p50Ms: round(percentile(c.latencies, 50), 2),
      p99Ms: round(percentile(c.latencies, 99), 2),
    };
  } finally {
    client.close?.();
    await stopServer(server.child);
    await webhook?.close();
  }
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const names = Object.keys(configs).filter((n) => o.only === undefined || n === o.only);
  const rounds = Object.fromEntries(names.map((name) => [name, []]));
  for (let r = 0; r < o.rounds; r++) {
    for (const name of names) {
      const result = await oneRound(name, o);
      log(`round ${r + 1} ${name}: ${result.perSecond}/s p50 ${result.p50Ms} ms p99 ${result.p99Ms} ms`);
      rounds[name].push(result);
    }
  }
  const summary = {};
  for (const [name, list] of Object.entries(rounds)) {
    summary[name] = {
      perSecond: median(list.map((x) => x.perSecond)),
      p50Ms: median(list.map((x) => x.p50Ms)),
      p99Ms: median(list.map((x) => x.p99Ms)),
    };
  }
  const base = rounds['policies-0'];
  const costPercent = {};
  for (const name of names) {
    if (name === 'policies-0' || base === undefined) continue;
    costPercent[name] = round(
      100 * (1 - median(rounds[name].map((x, i) => x.perSecond / base[i].perSecond))),
      1,
    );
  }
  const result = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model, loadavg: loadavg().map((x) => round(x, 2)) },
    options: o,
    summary,
    costPercentVsNoPolicies: costPercent,
    rounds,
  };
  log(`cost vs no policies (round by round): ${JSON.stringify(costPercent)}`);
  writeFileSync(o.out, await formatJson(o.out, result));
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(cleanupTempDirs);
