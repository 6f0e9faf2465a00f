/**
 * With kubectl 1.27 against `nanokube serve --nodes 2 --components-thread`
 * (controllers, scheduler and simulated nodes on the server's worker thread, reaching it through
 * the message-port transport; the other e2e suites run them on the server's event loop): nodes
 * registered when the server says it is ready, a Deployment of 3 → 3 Running pods; rollout status; a new image
 * rolls out; rollout undo; kubectl wait; deleting collects ReplicaSets and pods; --cascade=orphan
 * and --cascade=foreground behave as upstream.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lines } from './support/kubectl-runner.js';
import { itStopsCleanly, kubectlSession, kubectlSkip } from './support/session.js';
import { waitFor } from '../support/poll.js';

/** Polls an async check (kubectl runs) every 200 ms. */
const until = (check: () => Promise<boolean>, what: string, ms = 60_000): Promise<boolean> =>
  waitFor(what, check, ms, 200);

describe('kubectl 1.27: workloads on simulated nodes', { skip: kubectlSkip }, () => {
  const s = kubectlSession({
    args: [
      '--components-thread',
      '--nodes',
      '2',
      '--node-capacity',
      'cpu=8,memory=32Gi,pods=50',
      '--node-labels',
      'topology.kubernetes.io/zone=z1',
    ],
  });
  const ns = ['-n', 'wl'];

  it('the simulated nodes carry --node-capacity and --node-labels', async () => {
    const get = (): Promise<string> =>
      s.ok([
        'get',
        'nodes',
        '-o',
        'jsonpath={range .items[*]}{.status.capacity.cpu} {.status.allocatable.memory} {.status.capacity.pods} {.metadata.labels.topology\\.kubernetes\\.io/zone}{"\\n"}{end}',
      ]);
    // The nodes register from the components' thread, a moment after the server is ready.
    await until(async () => lines(await get()).length === 2, 'both nodes registered');
    assert.deepEqual(lines(await get()), ['8 32Gi 50 z1', '8 32Gi 50 z1']);
  });

  it('a Deployment of 3 replicas gets 3 Running pods; rollout status completes', async () => {
    await s.ok(['create', 'namespace', 'wl']);
    await s.ok([...ns, 'create', 'deployment', 'web', '--image=nginx:1.25', '--replicas=3']);
    const out = await s.ok([...ns, 'rollout', 'status', 'deployment/web', '--timeout=90s']);
    assert.match(out, /deployment "web" successfully rolled out/);
    const pods = lines(
      await s.ok([
        ...ns,
        'get',
        'pods',
        '-l',
        'app=web',
        '-o',
        'custom-columns=P:.status.phase,IP:.status.podIP',
        '--no-headers',
      ]),
    );
    assert.equal(pods.length, 3);
    for (const p of pods) assert.match(p, /^Running\s+10\.244\.\d+\.\d+$/);
    await s.ok([...ns, 'wait', '--for=condition=Ready', 'pod', '-l', 'app=web', '--timeout=60s']);
  });

  it('a new image rolls out; rollout history and undo', async () => {
    await s.ok([...ns, 'set', 'image', 'deployment/web', 'nginx=nginx:1.26']);
    await s.ok([...ns, 'rollout', 'status', 'deployment/web', '--timeout=90s']);
    const images = await s.ok([
      ...ns,
      'get',
      'pods',
      '-l',
      'app=web',
      '-o',
      'jsonpath={.items[*].spec.containers[0].image}',
    ]);
    assert.deepEqual(images.split(' ').sort(), ['nginx:1.26', 'nginx:1.26', 'nginx:1.26']);
    const history = await s.ok([...ns, 'rollout', 'history', 'deployment/web']);
    assert.match(history, /^1\s/m);
    assert.match(history, /^2\s/m);
    await s.ok([...ns, 'rollout', 'undo', 'deployment/web']);
    await s.ok([...ns, 'rollout', 'status', 'deployment/web', '--timeout=90s']);
    assert.equal(
      await s.ok([
        ...ns,
        'get',
        'deployment',
        'web',
        '-o',
        'jsonpath={.spec.template.spec.containers[0].image}',
      ]),
      'nginx:1.25',
    );
    assert.equal(lines(await s.ok([...ns, 'get', 'rs', '-o', 'name'])).length, 2);
  });

  it('deleting the Deployment collects its ReplicaSets and pods', async () => {
    await s.ok([...ns, 'delete', 'deployment', 'web']);
    await until(
      async () => (await s.ok([...ns, 'get', 'rs,pods', '-o', 'name'])).trim() === '',
      'everything collected',
    );
  });

  it('--cascade=orphan leaves the ReplicaSet and pods, without their owner reference', async () => {
    await s.ok([...ns, 'create', 'deployment', 'keep', '--image=nginx:1.25', '--replicas=2']);
    await s.ok([...ns, 'rollout', 'status', 'deployment/keep', '--timeout=90s']);
    await s.ok([...ns, 'delete', 'deployment', 'keep', '--cascade=orphan']);
    await until(
      async () => (await s.run([...ns, 'get', 'deployment', 'keep'])).code !== 0,
      'the Deployment to go',
    );
    await until(
      async () =>
        (
          await s.ok([
            ...ns,
            'get',
            'rs',
            '-l',
            'app=keep',
            '-o',
            'jsonpath={.items[*].metadata.ownerReferences}',
          ])
        ).trim() === '',
      'the ReplicaSet to be orphaned',
    );
    assert.equal(lines(await s.ok([...ns, 'get', 'pods', '-l', 'app=keep', '-o', 'name'])).length, 2);
    await s.ok([...ns, 'delete', 'rs', '-l', 'app=keep']);
  });

  it('--cascade=foreground deletes the pods before the Deployment goes', async () => {
    await s.ok([...ns, 'create', 'deployment', 'fg', '--image=nginx:1.25', '--replicas=2']);
    await s.ok([...ns, 'rollout', 'status', 'deployment/fg', '--timeout=90s']);
    await s.ok([...ns, 'delete', 'deployment', 'fg', '--cascade=foreground', '--wait=true', '--timeout=90s']);
    // The Deployment was kept (foregroundDeletion finalizer) until its dependents were gone.
    assert.equal((await s.ok([...ns, 'get', 'rs,pods', '-l', 'app=fg', '-o', 'name'])).trim(), '');
  });

  itStopsCleanly(s);
});
