/**
 * AM-01 with kubectl 1.27 against `nanokube serve --nodes 1
 * --feature-gates=InPlacePodVerticalScaling=true`: the resize walk-through on a simulated node
 * (allocatable cpu 32, memory 256Gi): a patch of a running pod's cpu goes Proposed → InProgress →
 * done with the new allocatedResources; a request above the node's allocatable shows Infeasible;
 * one that needs room shows Deferred and completes after another pod is deleted; a QoS class change
 * is rejected with kube-apiserver's message.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lines } from './support/kubectl-runner.js';
import { itStopsCleanly, kubectlSession, kubectlSkip } from './support/session.js';

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** status.resize and the first container's allocated cpu, as `Resize|cpu`. */
const state = 'jsonpath={.status.resize}|{.status.containerStatuses[0].allocatedResources.cpu}';

function cpu(value: string): string {
  return JSON.stringify({
    spec: { containers: [{ name: 'c', resources: { requests: { cpu: value }, limits: { cpu: value } } }] },
  });
}

describe('kubectl 1.27: in-place pod resize on a simulated node (AM-01)', { skip: kubectlSkip }, () => {
  const s = kubectlSession({ args: ['--nodes', '1', '--feature-gates=InPlacePodVerticalScaling=true'] });

  const stateOf = (pod: string): Promise<string> => s.ok(['get', 'pod', pod, '-o', state]);
  const reaches = (pod: string, want: string): Promise<string> =>
    until(`${pod} at ${want}`, async () => {
      const v = await stateOf(pod);
      return v === want ? v : undefined;
    });
  const runPod = async (name: string, resources: object): Promise<void> => {
    const overrides = JSON.stringify({ spec: { containers: [{ name: 'c', image: 'nginx', resources }] } });
    await s.ok(['run', name, '--image=nginx', `--overrides=${overrides}`]);
    await s.ok(['wait', '--for=condition=Ready', `pod/${name}`, '--timeout=60s']);
  };

  it('the node has its default allocatable', async () => {
    await s.namespaceReady('default');
    assert.equal(
      await s.ok([
        'get',
        'node',
        'nanokube-node-0',
        '-o',
        'jsonpath={.status.allocatable.cpu} {.status.allocatable.memory}',
      ]),
      '32 256Gi',
    );
  });

  it('Proposed → InProgress → done with the new allocatedResources', async () => {
    const fixed = { cpu: '100m', memory: '64Mi' };
    await runPod('rz', { requests: fixed, limits: fixed });
    assert.equal(
      await s.ok([
        'get',
        'pod',
        'rz',
        '-o',
        'jsonpath={.status.qosClass} {.spec.containers[0].resizePolicy}',
      ]),
      'Guaranteed [{"resourceName":"cpu","restartPolicy":"NotRequired"},{"resourceName":"memory","restartPolicy":"NotRequired"}]',
    );
    assert.equal(await stateOf('rz'), '|100m');

    const watch = s.kubectl.watch(['get', 'pod', 'rz', '--watch', '-o', `${state}{"\\n"}`]);
    try {
      await watch.waitFor(/^\|100m$/m, 20_000);
      // The patch's answer is the pod as written: the API marks the resize Proposed.
      assert.equal(await s.ok(['patch', 'pod', 'rz', '-p', cpu('200m'), '-o', state]), 'Proposed|100m');
      await reaches('rz', '|200m');
      const seen = lines(await watch.waitFor(/^\|200m$/m, 20_000));
      const at = (v: RegExp): number => seen.findIndex((l) => v.test(l));
      assert.ok(at(/^Proposed\|/) >= 0 && at(/^InProgress\|/) > at(/^Proposed\|/), seen.join('\n'));
      assert.ok(at(/^\|200m$/) > at(/^InProgress\|/), seen.join('\n'));
    } finally {
      await watch.kill();
    }
    assert.equal(
      await s.ok([
        'get',
        'pod',
        'rz',
        '-o',
        'jsonpath={.status.containerStatuses[0].resources.requests.cpu} {.status.containerStatuses[0].resources.limits.cpu} {.status.containerStatuses[0].restartCount}',
      ]),
      '200m 200m 0',
    );
  });

  it('a request above the node allocatable is Infeasible (JSON patch)', async () => {
    const patch = JSON.stringify([
      { op: 'replace', path: '/spec/containers/0/resources/requests/cpu', value: '64' },
      { op: 'replace', path: '/spec/containers/0/resources/limits/cpu', value: '64' },
    ]);
    assert.equal(await s.ok(['patch', 'pod', 'rz', '--type=json', '-p', patch]), 'pod/rz patched\n');
    await reaches('rz', 'Infeasible|200m');
    // Back to what fits: the resize is cleared.
    await s.ok(['patch', 'pod', 'rz', '-p', cpu('200m')]);
    await reaches('rz', '|200m');
  });

  it('a resize without room is Deferred, then completes after another pod is deleted', async () => {
    await runPod('filler', { requests: { cpu: '30' } });
    // rz 200m + filler 30 fit in 32; rz at 4 does not until filler goes.
    await s.ok(['patch', 'pod', 'rz', '-p', cpu('4')]);
    await reaches('rz', 'Deferred|200m');
    assert.equal(await s.ok(['delete', 'pod', 'filler', '--wait=true']), 'pod "filler" deleted\n');
    await reaches('rz', '|4');
    assert.equal(
      await s.ok(['get', 'pod', 'rz', '-o', 'jsonpath={.status.containerStatuses[0].resources.limits.cpu}']),
      '4',
    );
  });

  it("a QoS class change is rejected with kube-apiserver's message", async () => {
    // Raising only the limit turns a Guaranteed pod Burstable.
    const patch = JSON.stringify({
      spec: { containers: [{ name: 'c', resources: { limits: { cpu: '8' } } }] },
    });
    const r = await s.run(['patch', 'pod', 'rz', '-p', patch]);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      'The Pod "rz" is invalid: metadata: Invalid value: "Guaranteed": Pod QoS is immutable\n',
    );
    assert.equal(await stateOf('rz'), '|4');
  });

  itStopsCleanly(s);
});
