/**
 * `nanokube serve --net-thread` (#28) driven by real clients: kubectl 1.27 (requests, a watch,
 * `exec` over SPDY with stdin through the network thread's tunnel, `logs -f`), the official Python
 * client's `exec` over WebSocket through the same tunnel, and the one-line error for a taken port.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cliPath } from './support/nanokube-process.js';
import { assertPythonExec, pythonSkip } from './support/python-client.js';
import { itStopsCleanly, kubectlSession, kubectlSkip } from './support/session.js';

const pod = `apiVersion: v1
kind: Pod
metadata: {name: shell}
spec:
  containers:
  - name: main
    image: busybox
    command: ["sh", "-c", "echo started; sleep 3600"]
`;

describe('nanokube serve --net-thread with kubectl and the Python client', { skip: kubectlSkip }, () => {
  const s = kubectlSession({ args: ['--nodes', '1', '--net-thread'] });

  it('kubectl: apply, get, a watch that sees a change, exec with stdin, logs', async () => {
    await s.namespaceReady('default');
    await s.ok(['apply', '-f', s.kubectl.file('shell.yaml', pod)]);
    await s.ok(['wait', '--for=condition=Ready', 'pod/shell', '--timeout=60s']);
    const watch = s.kubectl.watch(['get', 'configmaps', '--watch', '-o', 'name']);
    await s.ok(['create', 'configmap', 'seen', '--from-literal=a=b']);
    await watch.waitFor(/configmap\/seen/);
    await watch.kill();
    const hello = await s.run(['exec', 'shell', '--', 'echo', 'hello']);
    assert.deepEqual([hello.code, hello.stdout], [0, 'hello\n']);
    const piped = await s.run(['exec', '-i', 'shell', '--', 'cat'], { input: 'line 1\nline 2\n' });
    assert.deepEqual([piped.code, piped.stdout], [0, 'line 1\nline 2\n']);
    const failing = await s.run(['exec', 'shell', '--', 'sh', '-c', 'echo err >&2; exit 3']);
    assert.equal(failing.code, 3);
    assert.equal(failing.stderr, 'err\ncommand terminated with exit code 3\n');
    assert.equal(await s.ok(['logs', 'shell']), 'started\n');
  });

  it('the Python client execs over WebSocket through the tunnel', { skip: pythonSkip }, () => {
    assertPythonExec(s.server.kubeconfigPath);
  });

  it('a taken port is one line and exit 1, as without the thread', async () => {
    const port = new URL(s.server.url).port;
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [
          cliPath,
          'serve',
          '--data-dir',
          join(s.server.workDir, 'second'),
          '--secure-port',
          port,
          '--nodes',
          '0',
          '--net-thread',
        ],
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

  itStopsCleanly(s);
});
