#!/usr/bin/env node
// The floor Node.js itself sets under the start-up and idle-memory figures of vs-upstream.mjs: how
// soon the least a Node API server can be (an HTTP/2 server with TLS, HTTP/1.1 allowed, client
// certificates verified against a CA, answering every request 200 with a fixed body and loading
// nothing else) first answers after its spawn, polled exactly as vs-upstream.mjs polls (every 10
// ms, each poll a new TLS connection with the admin certificate, GET /api/v1/namespaces/default);
// its RSS 30 s after that answer (the server is bench/node-floor-server.mjs, which imports nothing
// but node's own modules); `node -e 0`'s wall time. The certificates are a nanokube PKI:
// one `nanokube serve` on a fresh data dir makes it and stops.
//
//   npm run build && node bench/node-floor.mjs [--rounds N] [--idle-seconds S] [--out FILE]
//
// Writes bench/node-floor-results.json (or --out).
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  benchEnv,
  cleanupTempDirs,
  formatJson,
  freePort,
  freshDir,
  getOnce,
  kubeconfigCredentials,
  log,
  median,
  parseFlags,
  root,
  round,
  rssMiB,
  sleep,
  startServer,
  stopServer,
} from './lib.mjs';

const floorServer = join(root, 'bench', 'node-floor-server.mjs');

/** Spawns the floor server; resolves with it and the seconds from spawn to its first 200. */
async function spawnFloor(pkiDir, creds) {
  const port = await freePort();
  // The admin credentials, at the floor server's address.
  const at = { ...creds, url: `https://127.0.0.1:${port}` };
  const t0 = performance.now();
  const child = spawn(process.execPath, [floorServer, pkiDir, String(port)], { stdio: 'ignore' });
  const end = t0 + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the floor server exited (${child.exitCode})`);
    if ((await getOnce(at, '/api/v1/namespaces/default')).status === 200)
      return { child, seconds: (performance.now() - t0) / 1000 };
    if (performance.now() > end) throw new Error('the floor server did not answer in 30 s');
    await sleep(10);
  }
}

async function main() {
  const o = parseFlags(process.argv.slice(2), {
    rounds: 5,
    idleSeconds: 30,
    out: join(root, 'bench', 'node-floor-results.json'),
  });
  const env = benchEnv();
  log('making a PKI with nanokube serve…');
  const dataDir = join(freshDir(), 'data');
  const made = await startServer(dataDir);
  const creds = kubeconfigCredentials(made.kubeconfigPath);
  await stopServer(made.child);
  const pkiDir = join(dataDir, 'pki');

  const firstAnswers = [];
  for (let i = 0; i < o.rounds; i++) {
    const { child, seconds } = await spawnFloor(pkiDir, creds);
    firstAnswers.push(round(seconds, 3));
    await stopServer(child);
    await sleep(300);
  }
  log(`first answers: ${firstAnswers.join(', ')} s`);

  const bare = [];
  for (let i = 0; i < o.rounds; i++) {
    const t0 = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    bare.push(round((performance.now() - t0) / 1000, 3));
  }
  log(`node -e 0: ${bare.join(', ')} s`);

  const { child } = await spawnFloor(pkiDir, creds);
  await sleep(o.idleSeconds * 1000);
  const samples = [];
  for (let i = 0; i < 5; i++) {
    samples.push(rssMiB(child.pid));
    if (i < 4) await sleep(1000);
  }
  await stopServer(child);
  const results = {
    firstAnswerS: firstAnswers,
    firstAnswerMedianS: median(firstAnswers),
    nodeEvalZeroS: bare,
    nodeEvalZeroMedianS: median(bare),
    idleSeconds: o.idleSeconds,
    idleRssMiB: round(median(samples), 1),
  };
  env.loadavgAtEnd = loadavg().map((x) => round(x, 2));
  writeFileSync(o.out, await formatJson(o.out, { env, options: o, results }));
  console.log(
    [
      '| the least Node API server (HTTP/2, TLS, client certificates) | |',
      '| --- | --- |',
      `| first answer after its spawn (${o.rounds} spawns) | ${firstAnswers.join(', ')} s (median ${results.firstAnswerMedianS} s) |`,
      `| \`node -e 0\`, spawn to exit | ${bare.join(', ')} s (median ${results.nodeEvalZeroMedianS} s) |`,
      `| RSS ${o.idleSeconds} s after its first answer (median of 5 samples a second apart) | ${results.idleRssMiB} MiB |`,
    ].join('\n'),
  );
  console.log(`(${env.node}, ${env.cpu}; written to ${o.out})`);
}

await main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(cleanupTempDirs);
