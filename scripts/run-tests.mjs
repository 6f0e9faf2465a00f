// Runs every *.test.ts under src/ and test/ with Node's built-in test runner (TypeScript via tsx).
// Node 20's runner does not expand globs itself, so the file list is built here.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}
const only = process.argv.slice(2);
const files = only.length > 0 ? only : [...walk('src', []), ...walk('test', [])].sort();
const r = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
  // Every list answer served from a watch cache's kept encodings checks them against a fresh one
  // (src/storage/cacher/encoded-items.ts): a test that modifies a cached object fails loudly.
  { stdio: 'inherit', env: { NANOKUBE_VERIFY_ENCODED_ITEMS: '1', ...process.env } },
);
process.exit(r.status ?? 1);
