#!/usr/bin/env node
// nanokube restart with many objects: fills a data dir with 100,000 ConfigMaps (through the API,
// 32 creates in flight), then restarts `nanokube serve` on it a few times, each after a clean
// SIGTERM and each after a kill -9, and reports per restart: the process's own ready figure, the
// wall time from spawn to its ready line, to its first answer (GET /version with the admin
// certificate), and to the first answer listing the ConfigMaps (a LIST with limit=1, which needs
// the watch cache or storage), and the RSS once ready.
//
//   npm run build && node bench/restart.mjs                        100,000 objects, 3 + 3 restarts
//   node bench/restart.mjs --objects 10000 --restarts 2            smaller
//
// Flags: --objects N, --restarts N, --nodes N, --out FILE, --dir DIR (kept; filled only when it has
// no state.db yet, so a second run restarts on the same objects)
import { existsSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  cleanupTempDirs,
  clientFor,
  createConcurrently,
  formatJson,
  freshDir,
  live,
  log,
  median,
  root,
  round,
  rssMiB,
  startServer,
  stopServer,
  benchEnv,
  parseFlags,
} from './lib.mjs';

function parseArgs(argv) {
  return parseFlags(argv, {
    objects: 100_000,
    restarts: 3,
    nodes: 0,
    dir: '',
    out: join(root, 'bench', 'restart-results.json'),
  });
}

/** Sends `path` until it answers 200; resolves with the ms from `t0`. */
async function firstAnswer(client, path, t0) {
  for (;;) {
    try {
      const r = await client.send('GET', path);
      if (r.status === 200) return performance.now() - t0;
    } catch {
      // not listening yet
    }
  }
}

async function restart(dataDir, o, how) {
  const t0 = performance.now();
  const server = await startServer(dataDir, { serveArgs: ['--nodes', String(o.nodes)], timeoutMs: 120_000 });
  const readyLineMs = performance.now() - t0;
  const client = clientFor(server, 2);
  const answerMs = await firstAnswer(client, '/version', t0);
  const listMs = await firstAnswer(client, '/api/v1/namespaces/default/configmaps?limit=1', t0);
  const rss = rssMiB(server.pid);
  client.close?.();
  if (how === 'kill') {
    server.child.kill('SIGKILL');
    await new Promise((r) => server.child.once('exit', r));
  } else await stopServer(server.child);
  return {
    after: how === 'kill' ? 'kill -9' : 'SIGTERM',
    readyFigureS: server.readySeconds,
    readyLineS: round(readyLineMs / 1000, 3),
    firstAnswerS: round(answerMs / 1000, 3),
    firstListS: round(listMs / 1000, 3),
    rssMiB: round(rss, 1),
  };
}

/** Creates `o.objects` ConfigMaps on a server on `dataDir`, then stops it; returns the seconds taken. */
async function fill(dataDir, o) {
  const server = await startServer(dataDir, { serveArgs: ['--nodes', String(o.nodes)] });
  try {
    const client = clientFor(server, 32);
    log(`creating ${o.objects} ConfigMaps ...`);
    let n = 0;
    const created = await createConcurrently(client, {
      path: '/api/v1/namespaces/default/configmaps',
      body: () => ({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `cm-${n++}`, labels: { bench: 'restart' } },
        data: { value: 'x'.repeat(200) },
      }),
      count: o.objects,
      concurrency: 32,
    });
    if (created.failures.length > 0)
      throw new Error(`creates failed: ${created.failures.slice(0, 3).join('; ')}`);
    client.close();
    return round(created.wallMs / 1000, 1);
  } finally {
    await stopServer(server.child);
  }
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const dataDir = o.dir !== '' ? o.dir : freshDir();
  const filled = o.dir !== '' && existsSync(join(o.dir, 'state.db'));
  const results = { env: benchEnv(), options: o };
  if (!filled) results.createSeconds = await fill(dataDir, o);
  results.restarts = [];
  for (let i = 0; i < o.restarts * 2; i++) {
    // The first restart of each kind follows the other kind's stop, so the two alternate.
    const how = i % 2 === 0 ? 'term' : 'kill';
    const r = await restart(dataDir, o, how);
    log(JSON.stringify(r));
    results.restarts.push({ ...r, previousStop: i === 0 ? 'SIGTERM' : results.restarts[i - 1].after });
  }
  const afterKill = results.restarts.filter((r) => r.previousStop === 'kill -9');
  const afterTerm = results.restarts.filter((r) => r.previousStop === 'SIGTERM');
  results.median = {
    afterCleanStop: {
      firstAnswerS: round(median(afterTerm.map((r) => r.firstAnswerS)), 3),
      firstListS: round(median(afterTerm.map((r) => r.firstListS)), 3),
    },
    afterKill: {
      firstAnswerS: round(median(afterKill.map((r) => r.firstAnswerS)), 3),
      firstListS: round(median(afterKill.map((r) => r.firstListS)), 3),
    },
  };
  results.loadavgAtEnd = loadavg().map((x) => round(x, 2));
  log(JSON.stringify(results.median));
  writeFileSync(o.out, await formatJson(o.out, results));
  log(`wrote ${o.out}`);
}

main()
  .catch(async (err) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
    await Promise.all([...live].map((c) => stopServer(c)));
  })
  .finally(() => cleanupTempDirs());
