/**
 * The package as a user installs it (scripts/pack-check.mjs): `npm pack`, the tarball installed
 * into an empty directory from the npm registry (or cache), the library entry importable, and
 * `npx nanokube serve` answering kubectl. Skipped where the npm registry cannot be reached.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { repoRoot, ensureBuilt } from './support/nanokube-process.js';

const run = promisify(execFile);

async function registryReachable(): Promise<boolean> {
  try {
    await run('npm', ['ping'], { timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
}

test(
  'npm pack, install into an empty directory, npx nanokube serve answers kubectl',
  { timeout: 10 * 60_000 },
  async (t) => {
    if (!(await registryReachable())) {
      t.skip('the npm registry is not reachable: the tarball cannot be installed here');
      return;
    }
    ensureBuilt();
    const { stdout } = await run(process.execPath, [join(repoRoot, 'scripts', 'pack-check.mjs')], {
      cwd: repoRoot,
      maxBuffer: 16 * 1024 * 1024,
      timeout: 9 * 60_000,
    });
    const result = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as {
      tarball?: string;
      kubectl?: string;
      packedMiB?: number;
    };
    assert.equal(result.tarball, 'nanokube-0.1.0.tgz');
    // Source maps stay out of the package.
    assert.ok((result.packedMiB ?? Infinity) < 6, `packed ${result.packedMiB} MiB`);
    if (result.kubectl !== 'skipped: no kubectl')
      assert.match(result.kubectl ?? '', /namespace\/kube-system/);
  },
);
