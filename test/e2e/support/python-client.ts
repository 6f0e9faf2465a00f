/**
 * The official Python client (Debian's python3-kubernetes) driven against a test server: whether
 * it is installed, and an exec over WebSocket (v4.channel.k8s.io) through it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

const python = '/usr/bin/python3';

/** false when the client is installed, else why its tests skip. */
export const pythonSkip: false | string =
  spawnSync(python, ['-c', 'import kubernetes'], { stdio: 'ignore' }).status === 0
    ? false
    : 'the official Python client (Debian python3-kubernetes) is not installed';

/**
 * Execs a command printing to stdout and stderr and exiting 2 in pod `shell` (container `main`)
 * of `default`, and asserts the client read both streams and the exit code.
 */
export function assertPythonExec(kubeconfigPath: string): void {
  const script = `
from kubernetes import client, config
from kubernetes.stream import stream
config.load_kube_config()
api = client.CoreV1Api()
ws = stream(api.connect_get_namespaced_pod_exec, 'shell', 'default', container='main',
            command=['sh', '-c', 'echo py-out; echo py-err >&2; exit 2'],
            stderr=True, stdin=False, stdout=True, tty=False, _preload_content=False)
ws.run_forever(timeout=20)
print(repr((ws.read_stdout(), ws.read_stderr(), ws.returncode)))
`;
  const r = spawnSync(python, ['-c', script], {
    env: { ...process.env, KUBECONFIG: kubeconfigPath },
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, "('py-out\\n', 'py-err\\n', 2)\n");
}
