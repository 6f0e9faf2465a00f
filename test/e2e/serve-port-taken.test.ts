/**
 * An operator error as a new user meets it: `nanokube serve` on a port another server holds
 * exits non-zero with one line that says what and how to fix it, no stack trace.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cliPath, startNanokube } from './support/nanokube-process.js';
import type { NanokubeProcess } from './support/nanokube-process.js';

describe('nanokube serve on a taken port', () => {
  let first: NanokubeProcess;
  const base = mkdtempSync(join(tmpdir(), 'nanokube-port-'));

  before(async () => {
    first = await startNanokube({ args: ['--nodes', '0', '--controllers='] });
  });

  after(async () => {
    await first.stop();
    rmSync(base, { recursive: true, force: true });
  });

  it('says the port is in use and how to pick another, in one line, exit 1', async () => {
    const port = new URL(first.url).port;
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [cliPath, 'serve', '--data-dir', join(base, 'data'), '--secure-port', port, '--nodes', '0'],
        { timeout: 30_000 },
        (err, _stdout, stderr) => resolve({ code: err === null ? 0 : (err.code as number | null), stderr }),
      );
    });
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      `Error: cannot listen on 127.0.0.1:${port}: another process already uses it; stop it, or pick another port with --secure-port (0 picks a free one)\n`,
    );
  });
});
