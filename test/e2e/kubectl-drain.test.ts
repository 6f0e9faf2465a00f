/**
 * (AM-22) with kubectl 1.27 against `nanokube serve --nodes 2`: a Deployment of
 * 2 replicas guarded by a PodDisruptionBudget (minAvailable 1); `kubectl drain` cordons
 * nanokube-node-0 and evicts its pods through pods/eviction respecting the budget (the disruption
 * controller keeps its status, the Deployment re-creates the pods on the other node), then
 * `kubectl uncordon` makes the node schedulable again.
 *
 * Needs the disruption and node lifecycle controllers wired into `nanokube serve`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lines } from './support/kubectl-runner.js';
import { itStopsCleanly, kubectlSession, kubectlSkip } from './support/session.js';

async function until(check: () => Promise<boolean>, what: string, ms = 90_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('kubectl 1.27: drain respects a PodDisruptionBudget', { skip: kubectlSkip }, () => {
  const s = kubectlSession({ args: ['--nodes', '2'] });
  const ns = ['-n', 'drain'];

  it('a Deployment of 2 with a PDB minAvailable 1 is running; the PDB allows one disruption', async () => {
    await s.ok(['create', 'namespace', 'drain']);
    await s.ok([...ns, 'create', 'deployment', 'web', '--image=nginx:1.25', '--replicas=2']);
    await s.ok([...ns, 'rollout', 'status', 'deployment/web', '--timeout=90s']);
    await s.ok([...ns, 'create', 'pdb', 'web', '--selector=app=web', '--min-available=1']);
    await until(
      async () =>
        (await s.ok([...ns, 'get', 'pdb', 'web', '-o', 'jsonpath={.status.disruptionsAllowed}'])).trim() ===
        '1',
      'the PDB to allow one disruption',
    );
    const pdb = await s.ok([...ns, 'get', 'pdb', 'web']);
    assert.match(pdb, /^web\s+1\s+N\/A\s+1\s+/m);
  });

  it('kubectl drain cordons nanokube-node-0 and evicts its pods; they come back on nanokube-node-1', async () => {
    const out = await s.ok(
      ['drain', 'nanokube-node-0', '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=180s'],
      { timeoutMs: 200_000 },
    );
    assert.match(out, /node\/nanokube-node-0 cordoned/);
    assert.match(out, /node\/nanokube-node-0 drained/);
    const unschedulable = await s.ok([
      'get',
      'node',
      'nanokube-node-0',
      '-o',
      'jsonpath={.spec.unschedulable}',
    ]);
    assert.equal(unschedulable.trim(), 'true');
    assert.match(await s.ok(['get', 'nodes']), /nanokube-node-0\s+Ready,SchedulingDisabled/);
    await s.ok([...ns, 'rollout', 'status', 'deployment/web', '--timeout=90s']);
    await until(async () => {
      const nodes = lines(
        await s.ok([
          ...ns,
          'get',
          'pods',
          '-l',
          'app=web',
          '-o',
          'custom-columns=N:.spec.nodeName',
          '--no-headers',
        ]),
      );
      return nodes.length === 2 && nodes.every((n) => n === 'nanokube-node-1');
    }, 'both pods on nanokube-node-1');
  });

  it('kubectl uncordon makes the node schedulable again', async () => {
    const out = await s.ok(['uncordon', 'nanokube-node-0']);
    assert.match(out, /node\/nanokube-node-0 uncordoned/);
    const unschedulable = await s.ok([
      'get',
      'node',
      'nanokube-node-0',
      '-o',
      'jsonpath={.spec.unschedulable}',
    ]);
    assert.equal(unschedulable.trim(), '');
    await until(
      async () =>
        !(await s.ok(['get', 'node', 'nanokube-node-0', '-o', 'jsonpath={.spec.taints}'])).includes(
          'unschedulable',
        ),
      'the unschedulable taint removed',
    );
  });

  itStopsCleanly(s);
});
