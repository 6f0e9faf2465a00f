// Runs the examples' test suites (examples/operator: the same scenarios under Node's test runner,
// Vitest and Jest) against the built dist/. Installs the example's dependencies first (`npm ci`)
// when its node_modules is missing or older than its package-lock.json. Part of `npm test`, after
// the build; exits non-zero when the install or any runner fails.
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(repo, 'examples', 'operator');
const runners = ['test:node', 'test:vitest', 'test:jest'];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(args) {
  const started = performance.now();
  const r = spawnSync(npm, args, { cwd: dir, stdio: 'inherit', shell: process.platform === 'win32' });
  return { ok: r.status === 0, seconds: ((performance.now() - started) / 1000).toFixed(1) };
}

if (!existsSync(join(repo, 'dist', 'index.js'))) {
  console.error('run-examples: dist/index.js is missing: run `npm run build` first');
  process.exit(1);
}

// npm writes node_modules/.package-lock.json at the end of every install.
const installed = join(dir, 'node_modules', '.package-lock.json');
const lock = join(dir, 'package-lock.json');
if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(lock).mtimeMs) {
  console.log('run-examples: npm ci in examples/operator');
  const r = run(['ci', '--no-audit', '--no-fund']);
  if (!r.ok) {
    console.error('run-examples: npm ci failed');
    process.exit(1);
  }
}

const failed = [];
for (const script of runners) {
  console.log(`\nrun-examples: examples/operator: npm run ${script}`);
  const r = run(['run', script]);
  console.log(`run-examples: ${script} ${r.ok ? 'passed' : 'FAILED'} (${r.seconds}s)`);
  if (!r.ok) failed.push(script);
}
if (failed.length > 0) {
  console.error(`run-examples: failed: ${failed.join(', ')}`);
  process.exit(1);
}
