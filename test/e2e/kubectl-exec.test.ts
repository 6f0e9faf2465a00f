/**
 * `kubectl exec` into pods of simulated nodes, against `nanokube serve --nodes 1`: kubectl 1.27
 * over SPDY/3.1 (v4.channel.k8s.io), a newer kubectl that tries WebSocket v5 first and falls back
 * to SPDY when the v1.27 server refuses it, and the official Python client over WebSocket
 * (v4.channel.k8s.io). Output, stderr, exit codes, stdin, files that stay between
 * commands, and the refusals (a command the simulator cannot know, a container that is not the
 * pod's, no stream asked for) are checked.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findNewerKubectl } from '../support/kubectl.js';
import { kubectlFor } from './support/kubectl-runner.js';
import { assertPythonExec, pythonSkip } from './support/python-client.js';
import { itStopsCleanly, kubectlSession, kubectlSkip } from './support/session.js';

const pod = `apiVersion: v1
kind: Pod
metadata: {name: shell}
spec:
  containers:
  - name: main
    image: busybox
    command: ["sh", "-c", "echo started > /tmp/started; sleep 3600"]
    volumeMounts: [{name: data, mountPath: /data}]
  - name: side
    image: busybox
    command: ["sleep", "3600"]
    volumeMounts: [{name: data, mountPath: /shared}]
  volumes: [{name: data, emptyDir: {}}]
`;

describe('kubectl exec into a simulated pod', { skip: kubectlSkip }, () => {
  const s = kubectlSession({ args: ['--nodes', '1'] });

  it('kubectl 1.27 over SPDY: output, stderr and the exit code', async () => {
    await s.namespaceReady('default');
    await s.ok(['apply', '-f', s.kubectl.file('shell.yaml', pod)]);
    await s.ok(['wait', '--for=condition=Ready', 'pod/shell', '--timeout=60s']);
    const hello = await s.run(['exec', 'shell', '-c', 'main', '--', 'echo', 'hello', 'world']);
    assert.deepEqual([hello.code, hello.stdout], [0, 'hello world\n']);
    const failing = await s.run([
      'exec',
      'shell',
      '-c',
      'main',
      '--',
      'sh',
      '-c',
      'echo out; echo err >&2; exit 3',
    ]);
    assert.equal(failing.code, 3);
    assert.equal(failing.stdout, 'out\n');
    assert.equal(failing.stderr, 'err\ncommand terminated with exit code 3\n');
    // The container's own program wrote it when it started.
    assert.equal(await s.ok(['exec', 'shell', '-c', 'main', '--', 'cat', '/tmp/started']), 'started\n');
  });

  it('stdin, and files that stay: the emptyDir is shared with the other container', async () => {
    const piped = await s.run(['exec', '-i', 'shell', '-c', 'main', '--', 'cat'], {
      input: 'line 1\nline 2\n',
    });
    assert.deepEqual([piped.code, piped.stdout], [0, 'line 1\nline 2\n']);
    await s.ok([
      'exec',
      'shell',
      '-c',
      'main',
      '--',
      'sh',
      '-c',
      'echo kept > /data/note; echo mine > /tmp/mine',
    ]);
    assert.equal(await s.ok(['exec', 'shell', '-c', 'side', '--', 'cat', '/shared/note']), 'kept\n');
    assert.equal(await s.ok(['exec', 'shell', '-c', 'main', '--', 'cat', '/tmp/mine']), 'mine\n');
  });

  it('refusals: a command the simulator cannot know, a container the pod lacks, a pod without a node', async () => {
    const unknown = await s.run(['exec', 'shell', '-c', 'main', '--', 'ffmpeg', '-version']);
    assert.equal(unknown.code, 1);
    assert.match(
      unknown.stderr,
      /^error: Internal error occurred: error executing command in container: the simulated node cannot run "ffmpeg -version" in container "main": /,
    );
    const nope = await s.run(['exec', 'shell', '-c', 'nope', '--', 'true']);
    assert.equal(nope.code, 1);
    assert.equal(nope.stderr, 'Error from server (BadRequest): container nope is not valid for pod shell\n');
    // A file the container's program may have written is unknowable only in a pod adopted after
    // a restart; here the program is followed, so a missing file is missing.
    const missing = await s.run(['exec', 'shell', '-c', 'main', '--', 'cat', '/tmp/none']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /cat: can't open '\/tmp\/none': No such file or directory/);
  });

  it('a newer kubectl tries WebSocket v5, is refused by the v1.27 server, and falls back to SPDY', async (t) => {
    const newer = findNewerKubectl();
    if (newer === undefined) return t.skip('no kubectl 1.32 or later beside kubectl');
    const k = kubectlFor(s.server, newer);
    const r = await k.run(['exec', 'shell', '-c', 'main', '--', 'sh', '-c', 'echo via-fallback; exit 4']);
    assert.deepEqual([r.code, r.stdout], [4, 'via-fallback\n']);
    assert.match(r.stderr, /command terminated with exit code 4/);
  });

  it('the Python client over WebSocket (v4.channel.k8s.io)', { skip: pythonSkip }, () => {
    assertPythonExec(s.server.kubeconfigPath);
  });

  itStopsCleanly(s);
});
