/**
 * `nanokube snapshot save|restore FILE` against `nanokube serve` on its default SQLite storage,
 * checked with kubectl: the restored cluster has what the snapshot had (resourceVersions
 * included) and not what came after; a file that is not a snapshot is refused, changing nothing.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import { cliPath } from './support/nanokube-process.js';
import { lines } from './support/kubectl-runner.js';
import { kubectlSession, kubectlSkip } from './support/session.js';

const run = promisify(execFile);

describe('nanokube snapshot against nanokube serve', { skip: kubectlSkip }, () => {
  const s = kubectlSession();

  const snapshot = (verb: string, file: string) =>
    run(process.execPath, [cliPath, 'snapshot', verb, file, '--kubeconfig', s.server.kubeconfigPath]);

  it('save, change, restore: kubectl sees the saved cluster again', async () => {
    await s.ok(['create', 'namespace', 'snap']);
    await s.ok(['create', 'configmap', 'before', '-n', 'snap', '--from-literal=k=v']);
    const rv = await s.ok([
      'get',
      'configmap',
      'before',
      '-n',
      'snap',
      '-o',
      'jsonpath={.metadata.resourceVersion}',
    ]);
    const file = join(s.server.workDir, 'cluster.snap');
    const saved = await snapshot('save', file);
    assert.match(saved.stdout, /^snapshot saved to .*cluster\.snap \(\d+ bytes\)$/m);

    await s.ok(['create', 'configmap', 'after', '-n', 'snap']);
    await s.ok(['delete', 'configmap', 'before', '-n', 'snap']);
    const restored = await snapshot('restore', file);
    assert.match(restored.stdout, /^restored \d+ keys of revision \d+ from .*cluster\.snap$/m);

    const names = lines(await s.ok(['get', 'configmaps', '-n', 'snap', '-o', 'name']));
    assert.deepEqual(
      names.filter((n) => n !== 'configmap/kube-root-ca.crt'),
      ['configmap/before'],
    );
    assert.equal(
      await s.ok(['get', 'configmap', 'before', '-n', 'snap', '-o', 'jsonpath={.metadata.resourceVersion}']),
      rv,
    );
    // Writes go on after the restore.
    await s.ok(['create', 'configmap', 'later', '-n', 'snap']);
  });

  it("a file that is not a snapshot is refused with the server's message", async () => {
    const file = join(s.server.workDir, 'garbage.snap');
    await writeFile(file, 'hello');
    await assert.rejects(snapshot('restore', file), (err: unknown) => {
      const e = err as { code?: number; stderr?: string };
      assert.equal(e.code, 1);
      assert.match(e.stderr ?? '', /Error from server \(400\): not a nanokube snapshot/);
      return true;
    });
    assert.match(await s.ok(['get', 'configmap', 'later', '-n', 'snap', '-o', 'name']), /configmap\/later/);
  });
});
