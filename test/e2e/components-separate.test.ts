/**
 * The controllers and the simulated nodes run unchanged as separate processes
 * (`nanokube controller-manager`, `nanokube nodes`) against `nanokube serve` started with none of
 * them in-process, connected only through the kubeconfig; kubectl 1.27 drives a Deployment
 * through them: rolled out onto the simulated nodes, then collected when deleted.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { lines } from './support/kubectl-runner.js';
import { repoRoot } from './support/nanokube-process.js';
import { itStopsCleanly, kubectlSession, kubectlSkip } from './support/session.js';
import { waitFor } from '../support/poll.js';

const cli = join(repoRoot, 'dist', 'nanokube.js');

interface Component {
  readonly child: ChildProcess;
  readonly output: () => string;
}

function start(args: readonly string[]): Component {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  return { child, output: () => output };
}

function stop(c: Component): Promise<number | null> {
  if (c.child.exitCode !== null) return Promise.resolve(c.child.exitCode);
  return new Promise((resolve) => {
    c.child.once('exit', (code) => resolve(code));
    c.child.kill('SIGTERM');
  });
}

/** Polls an async check (kubectl runs) every 200 ms. */
const until = (check: () => Promise<boolean>, what: string, ms = 60_000): Promise<boolean> =>
  waitFor(what, check, ms, 200);

describe('controller-manager and nodes as separate processes', { skip: kubectlSkip }, () => {
  // Nothing in-process: no controllers, no nodes, no scheduler.
  const s = kubectlSession({ args: ['--controllers=', '--nodes', '0'] });
  const components: Component[] = [];
  after(async () => {
    for (const c of components) await stop(c);
  });

  it('without them, a Deployment gets no ReplicaSet', async () => {
    await s.ok(['create', 'deployment', 'idle', '--image=nginx:1.25']);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal((await s.ok(['get', 'rs', '-o', 'name'])).trim(), '');
    await s.ok(['delete', 'deployment', 'idle']);
  });

  it('with them, kubectl sees a Deployment roll out onto simulated nodes and get collected', async () => {
    components.push(start(['controller-manager', '--kubeconfig', s.server.kubeconfigPath]));
    components.push(start(['nodes', '--kubeconfig', s.server.kubeconfigPath, '--nodes', '2']));
    await until(async () => lines(await s.ok(['get', 'nodes', '-o', 'name'])).length === 2, 'two nodes');
    await s.ok(['create', 'deployment', 'web', '--image=nginx:1.25', '--replicas=3']);
    await s.ok(['rollout', 'status', 'deployment/web', '--timeout=90s']);
    const pods = lines(
      await s.ok([
        'get',
        'pods',
        '-l',
        'app=web',
        '-o',
        'custom-columns=PHASE:.status.phase,NODE:.spec.nodeName',
        '--no-headers',
      ]),
    );
    assert.equal(pods.length, 3);
    for (const p of pods) assert.match(p, /^Running\s+nanokube-node-[01]$/);
    const lease = await s.ok([
      'get',
      'lease',
      'kube-controller-manager',
      '-n',
      'kube-system',
      '-o',
      'jsonpath={.spec.holderIdentity}',
    ]);
    assert.notEqual(lease, '');
    await s.ok(['delete', 'deployment', 'web']);
    await until(
      async () => (await s.ok(['get', 'rs,pods', '-l', 'app=web', '-o', 'name'])).trim() === '',
      'the ReplicaSet and pods to be collected',
    );
  });

  it('both stop cleanly on SIGTERM', async () => {
    for (const c of components.splice(0)) {
      assert.equal(await stop(c), 0, c.output());
    }
  });

  itStopsCleanly(s);
});
