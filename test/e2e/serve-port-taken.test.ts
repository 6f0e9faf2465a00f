/**
 * Operator errors as a new user meets them: `nanokube serve` on a port another server holds, or on
 * a data dir another nanokube is serving, exits non-zero with one line that says what and how to
 * fix it, no stack trace, and leaves the running server's data alone.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
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

  function serve(dataDir: string, port: string): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [cliPath, 'serve', '--data-dir', dataDir, '--secure-port', port, '--nodes', '0'],
        { timeout: 30_000 },
        (err, _stdout, stderr) => resolve({ code: err === null ? 0 : (err.code as number | null), stderr }),
      );
    });
  }

  it('says the port is in use and how to pick another, in one line, exit 1', async () => {
    const port = new URL(first.url).port;
    const r = await serve(join(base, 'data'), port);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      `Error: cannot listen on 127.0.0.1:${port}: another process already uses it; stop it, or pick another port with --secure-port (0 picks a free one)\n`,
    );
  });

  it('says the data dir is being served by another process, in one line, exit 1; the first goes on', async () => {
    const r = await serve(first.dataDir, '0');
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      `Error: database ${join(first.dataDir, 'state.db')} is in use by another process (is another nanokube serving this data dir?)\n`,
    );
    // The first server goes on serving the data dir.
    const kc = new KubeConfig();
    kc.loadFromFile(first.kubeconfigPath);
    const ns = await kc.makeApiClient(CoreV1Api).readNamespace({ name: 'default' });
    assert.equal(ns.metadata?.name, 'default');
  });
});
