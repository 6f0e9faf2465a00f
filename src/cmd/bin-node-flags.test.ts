// The node flags `nanokube` runs with: the bin's shebang and `npm start` give the same, and the
// heap limit they set reaches the components thread's heap too (a Worker's own V8 isolate), which
// is what the limit is there for (see the comment in nanokube.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const root = new URL('../../', import.meta.url);

function shebangFlags(): string[] {
  const first = readFileSync(new URL('src/cmd/nanokube.ts', root), 'utf8').split('\n', 1)[0] ?? '';
  const m = /^#!\/usr\/bin\/env -S node((?: --\S+)*)$/.exec(first);
  assert.ok(m, `unexpected first line ${first}`);
  return (m[1] ?? '').split(' ').filter((f) => f !== '');
}

function startFlags(): string[] {
  const pkg: unknown = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
  assert.ok(typeof pkg === 'object' && pkg !== null && 'scripts' in pkg);
  const scripts = pkg.scripts;
  assert.ok(typeof scripts === 'object' && scripts !== null && 'start' in scripts);
  const start = scripts.start;
  assert.equal(typeof start, 'string');
  const m = /^node((?: --\S+)*) dist\/nanokube\.js serve$/.exec(String(start));
  assert.ok(m, `unexpected start script ${String(start)}`);
  return (m[1] ?? '').split(' ').filter((f) => f !== '');
}

test('npm start runs node with the same flags as the bin’s shebang', () => {
  assert.deepEqual(startFlags(), shebangFlags());
});

test('the old-space limit is under 2 GiB, where V8 allows its largest growth factor', () => {
  const limit = shebangFlags().find((f) => f.startsWith('--max-old-space-size='));
  assert.ok(limit, 'no --max-old-space-size in the shebang');
  const mb = Number(limit.slice('--max-old-space-size='.length));
  assert.ok(mb >= 1024 && mb < 2048, limit);
});

test('a Worker started under those flags gets the same old-space limit as the main thread', () => {
  const script = `
    const { Worker } = require('node:worker_threads');
    const v8 = require('node:v8');
    const main = v8.getHeapStatistics().heap_size_limit;
    const w = new Worker(
      "require('node:worker_threads').parentPort.postMessage(require('node:v8').getHeapStatistics().heap_size_limit)",
      { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 64 } },
    );
    w.once('message', (worker) => { console.log(JSON.stringify({ main, worker })); w.terminate(); });`;
  const out = execFileSync(process.execPath, [...shebangFlags(), '-e', script], { encoding: 'utf8' });
  const { main, worker } = JSON.parse(out) as { main: number; worker: number };
  const MiB = 1024 * 1024;
  // heap_size_limit is the old-space limit (2,000 MB) plus the young generation's (48 MiB on the
  // main thread with 16 MiB semi-spaces, 96 MiB on the worker with its 64 MiB young generation).
  for (const [thread, limit] of [
    ['main thread', main],
    ['worker', worker],
  ] as const) {
    assert.ok(limit > 2000 * MiB && limit <= 2100 * MiB, `${thread}'s heap limit ${limit / MiB} MiB`);
  }
});
