/**
 * NW-08 acceptance with kubectl 1.27: `nanokube serve --node-ip 10.1.0.5,fd00::5` registers
 * dual-stack simulated nodes (`kubectl get nodes -o wide` shows the primary as INTERNAL-IP, the
 * addresses hold both, node i counts up by i) whose pods get dual-stack podIPs; `nanokube nodes
 * --node-ip` does the same from its own process (IPv6 primary here); an invalid `--node-ip` makes
 * either command exit 2 with the kubelet's message.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { lines } from './support/kubectl-runner.js';
import { ensureBuilt, repoRoot } from './support/nanokube-process.js';
import { itStopsCleanly, kubectlSession, kubectlSkip } from './support/session.js';
import type { Session } from './support/session.js';
import { waitFor } from '../support/poll.js';

const cli = join(repoRoot, 'dist', 'nanokube.js');

/** Polls an async check (kubectl runs) every 200 ms. */
const until = (check: () => Promise<boolean>, what: string, ms = 60_000): Promise<boolean> =>
  waitFor(what, check, ms, 200);

const addresses = '{range .status.addresses[*]}{.type}={.address}{" "}{end}';

/** Runs the CLI to its exit: code and stderr. */
function runCli(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  // Away from the repository: a serve that got past its flags would make ./.nanokube.
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: tmpdir(),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (c: string) => (stderr += c));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

/** A pod's phase, podIPs and hostIP once it runs. */
async function runningPod(s: Session, name: string): Promise<string> {
  await s.ok(['run', name, '--image=nginx:1.25']);
  await s.ok(['wait', '--for=condition=Ready', `pod/${name}`, '--timeout=60s']);
  return s.ok([
    'get',
    'pod',
    name,
    '-o',
    'jsonpath={.status.phase} {.status.podIP} {range .status.podIPs[*]}{.ip},{end} {.status.hostIP} {.spec.nodeName}',
  ]);
}

describe(
  'NW-08: kubectl 1.27 against nanokube serve --node-ip 10.1.0.5,fd00::5',
  { skip: kubectlSkip },
  () => {
    const s = kubectlSession({ args: ['--nodes', '2', '--node-ip', '10.1.0.5,fd00::5'] });

    it('kubectl get nodes -o wide shows the primary address as INTERNAL-IP, node i counting up', async () => {
      await until(async () => lines(await s.ok(['get', 'nodes', '-o', 'name'])).length === 2, 'two nodes');
      const out = lines(await s.ok(['get', 'nodes', '-o', 'wide']));
      const header = out[0]!.split(/\s+/);
      const col = header.indexOf('INTERNAL-IP');
      assert.ok(col > 0, out[0]);
      const rows = out.slice(1).map((l) => l.split(/\s+/));
      assert.deepEqual(
        rows.map((r) => [r[0], r[col]]),
        [
          ['nanokube-node-0', '10.1.0.5'],
          ['nanokube-node-1', '10.1.0.6'],
        ],
      );
    });

    it('the nodes carry both InternalIPs, then the Hostname, and a podCIDR per family', async () => {
      assert.equal(
        (await s.ok(['get', 'node', 'nanokube-node-0', '-o', `jsonpath=${addresses}`])).trim(),
        'InternalIP=10.1.0.5 InternalIP=fd00::5 Hostname=nanokube-node-0',
      );
      assert.equal(
        (await s.ok(['get', 'node', 'nanokube-node-1', '-o', `jsonpath=${addresses}`])).trim(),
        'InternalIP=10.1.0.6 InternalIP=fd00::6 Hostname=nanokube-node-1',
      );
      assert.equal(
        await s.ok(['get', 'node', 'nanokube-node-1', '-o', 'jsonpath={.spec.podCIDRs[*]}']),
        '10.244.1.0/24 fd00:10:244:1::/64',
      );
      const annotations = await s.ok([
        'get',
        'node',
        'nanokube-node-0',
        '-o',
        'jsonpath={.metadata.annotations}',
      ]);
      assert.doesNotMatch(annotations, /provided-node-ip/);
    });

    it('a pod runs with dual-stack podIPs, IPv4 first, hostIP the primary', async () => {
      const [phase, podIP, podIPs, hostIP, node] = (await runningPod(s, 'web')).split(' ');
      assert.equal(phase, 'Running');
      const i = node === 'nanokube-node-1' ? 1 : 0;
      assert.match(podIP!, new RegExp(`^10\\.244\\.${i}\\.\\d+$`));
      assert.match(
        podIPs!,
        new RegExp(`^${podIP!.replace(/\./g, '\\.')},fd00:10:244:${i === 1 ? '1:' : ''}:[0-9a-f]+,$`),
      );
      assert.equal(hostIP, i === 1 ? '10.1.0.6' : '10.1.0.5');
    });

    itStopsCleanly(s);
  },
);

describe(
  'NW-08: kubectl 1.27 against nanokube nodes --node-ip fd00::7,10.3.0.7',
  { skip: kubectlSkip },
  () => {
    // Nodes and scheduler from their own process only.
    // No controller manager: nothing lifts the not-ready taint TaintNodesByCondition gives the node.
    const s = kubectlSession({
      args: ['--controllers=', '--nodes', '0', '--disable-admission-plugins=TaintNodesByCondition'],
    });
    let nodes: ChildProcess | undefined;
    before(() => {
      nodes = spawn(
        process.execPath,
        [cli, 'nodes', '--kubeconfig', s.server.kubeconfigPath, '--node-ip', 'fd00::7,10.3.0.7'],
        { stdio: 'ignore' },
      );
    });
    after(async () => {
      const child = nodes;
      if (child === undefined || child.exitCode !== null) return;
      await new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      });
    });

    it('the node is IPv6-primary: INTERNAL-IP fd00::7, addresses and pod IPs IPv6 first', async () => {
      // The node object appears before its first status (addresses) is written: wait for both.
      let internalIP: string | undefined;
      await until(async () => {
        const out = lines(await s.ok(['get', 'nodes', '-o', 'wide']));
        const col = out[0]?.split(/\s+/).indexOf('INTERNAL-IP') ?? -1;
        internalIP = out.length === 2 ? out[1]?.split(/\s+/)[col] : undefined;
        return internalIP !== undefined && internalIP !== '<none>';
      }, 'one node with its addresses');
      assert.equal(internalIP, 'fd00::7');
      assert.equal(
        (await s.ok(['get', 'node', 'nanokube-node-0', '-o', `jsonpath=${addresses}`])).trim(),
        'InternalIP=fd00::7 InternalIP=10.3.0.7 Hostname=nanokube-node-0',
      );
      // No controller manager runs here to make the `default` service account pods need.
      await s.ok(['create', 'serviceaccount', 'default']);
      const [phase, podIP, podIPs, hostIP] = (await runningPod(s, 'web6')).split(' ');
      assert.equal(phase, 'Running');
      assert.match(podIP!, /^fd00:10:244::[0-9a-f]+$/);
      assert.match(podIPs!, /^fd00:10:244::[0-9a-f]+,10\.244\.0\.\d+,$/);
      assert.equal(hostIP, 'fd00::7');
    });

    itStopsCleanly(s);
  },
);

describe('NW-08: an invalid --node-ip', () => {
  before(() => ensureBuilt());

  it('nanokube serve exits 2 with the kubelet message', async () => {
    const r = await runCli([
      'serve',
      '--storage',
      'memory',
      '--secure-port',
      '0',
      '--node-ip',
      '10.1.0.5,10.1.0.6',
    ]);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(
      r.stderr,
      'Error: bad --node-ip "10.1.0.5,10.1.0.6": must contain either a single IP or a dual-stack pair of IPs\n',
    );
    const bad = await runCli(['serve', '--storage', 'memory', '--node-ip', '10.1.0.5,fd00::5,10.1.0.7']);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /must contain either a single IP or a dual-stack pair of IPs/);
    const unspecified = await runCli(['serve', '--storage', 'memory', '--node-ip=0.0.0.0,fd00::5']);
    assert.equal(unspecified.code, 2, unspecified.stderr);
    assert.match(unspecified.stderr, /dual-stack node IP cannot include '0\.0\.0\.0' or '::'/);
  });

  it('nanokube nodes exits 2 with the message', async () => {
    const r = await runCli(['nodes', '--kubeconfig', '/nonexistent/kubeconfig', '--node-ip', 'node-a']);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr, 'Error: bad --node-ip "node-a": could not parse "node-a"\n');
  });
});
