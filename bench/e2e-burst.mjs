// Many upstream e2e.test processes starting at once against one `nanokube serve`, as a user
// running the conformance suite's specs in parallel would: each process connects (a new TLS
// connection with the admin certificate), checks the cluster as e2e.test does before its specs,
// creates its namespace, runs one spec and deletes the namespace. Reports the wall time until the
// last exits, how many passed, and every connection error they printed (client-go's TLS handshake
// timeout is 10 s), for each `serve` variant asked for.
//
// Needs the reference build's e2e.test ($REF_DIR/bin/e2e.test, REF_DIR default ~/ref; see
// ../shared/docs/reference-build.md) and a kubectl beside it; without them it says so and exits.
//
//   npm run build && node bench/e2e-burst.mjs                       100 processes, plain and --net-thread
//   node bench/e2e-burst.mjs --processes 50 --rounds 2 --variants "|--net-thread"
//
// Flags: --processes N (default 100), --rounds N (alternating variants, default 1), --variants
// "A|B" (serve flags per variant, '|'-separated; default "|--net-thread"), --focus REGEX (default
// the spec "should provide secure master service"), --out FILE.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  benchEnv,
  cleanupTempDirs,
  formatJson,
  freshDir,
  log,
  parseFlags,
  root,
  round,
  startServer,
  stopServer,
} from './lib.mjs';

const flags = parseFlags(process.argv.slice(2), {
  processes: 100,
  rounds: 1,
  variants: '|--net-thread',
  focus: 'should provide secure master service',
  out: join(root, 'bench', 'e2e-burst-results.json'),
});

const refDir = process.env['REF_DIR'] ?? join(homedir(), 'ref');
const e2e = join(refDir, 'bin', 'e2e.test');
const kubectl = [
  '/usr/lib/google-cloud-sdk/bin/kubectl.1.28',
  '/usr/local/bin/kubectl',
  '/usr/bin/kubectl',
].find((p) => existsSync(p));
if (!existsSync(e2e) || kubectl === undefined) {
  log(
    `no ${e2e}${kubectl === undefined ? ' or kubectl' : ''}: build the reference as ../shared/docs/reference-build.md says`,
  );
  process.exit(0);
}

/** One e2e.test process; resolves with its exit code and output. */
function runE2e(kubeconfig, reportDir) {
  return new Promise((resolve) => {
    const child = spawn(
      e2e,
      [
        '--provider=skeleton',
        `--kubeconfig=${kubeconfig}`,
        `--kubectl-path=${kubectl}`,
        `--ginkgo.focus=${flags.focus}`,
        '--ginkgo.no-color',
        `--report-dir=${reportDir}`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

/** The connection errors client-go prints, counted by kind. */
function connectionErrors(outputs) {
  const kinds = {};
  for (const out of outputs) {
    for (const m of out.matchAll(
      /net\/http: TLS handshake timeout|connection refused|connection reset by peer|Client\.Timeout exceeded|i\/o timeout/g,
    ))
      kinds[m[0]] = (kinds[m[0]] ?? 0) + 1;
  }
  return kinds;
}

async function burst(serveArgs) {
  const dir = freshDir();
  const server = await startServer(join(dir, 'data'), { serveArgs: ['--nodes', '2', ...serveArgs] });
  try {
    const reports = join(dir, 'reports');
    mkdirSync(reports);
    const t0 = performance.now();
    const results = await Promise.all(
      Array.from({ length: flags.processes }, (_, i) =>
        runE2e(server.kubeconfigPath, join(reports, String(i))),
      ),
    );
    const wallS = (performance.now() - t0) / 1000;
    const passed = results.filter((r) => r.code === 0 && /SUCCESS!/.test(r.out)).length;
    return {
      serveArgs: serveArgs.join(' '),
      processes: flags.processes,
      wallSeconds: round(wallS, 1),
      passed,
      connectionErrors: connectionErrors(results.map((r) => r.out)),
    };
  } finally {
    await stopServer(server.child);
    cleanupTempDirs();
  }
}

const variants = String(flags.variants)
  .split('|')
  .map((v) => v.split(/\s+/).filter((x) => x !== ''));
const runs = [];
for (let r = 0; r < flags.rounds; r++) {
  for (const v of variants) {
    log(`round ${r + 1}: ${flags.processes} e2e.test processes against serve ${v.join(' ') || '(defaults)'}`);
    const result = await burst(v);
    log(JSON.stringify(result));
    runs.push(result);
  }
}
const report = { env: benchEnv(), options: flags, e2eTest: e2e, runs };
writeFileSync(flags.out, await formatJson(flags.out, report));
log(`wrote ${flags.out}`);
