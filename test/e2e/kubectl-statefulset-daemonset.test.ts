/**
 * (AM-10) with kubectl 1.27 against `nanokube serve --nodes 2`: a StatefulSet from
 * `ordinals.start` and a DaemonSet both reach `rollout status` completion, roll out a new image
 * and complete again. Needs the statefulset and daemonset controllers wired into `nanokube serve`
 * (src/cmd, the lead's).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lines } from './support/kubectl-runner.js';
import { itStopsCleanly, kubectlSession, kubectlSkip } from './support/session.js';

const statefulSet = JSON.stringify({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'db', namespace: 'ssds' },
  spec: {
    replicas: 3,
    serviceName: 'db',
    ordinals: { start: 1 },
    selector: { matchLabels: { app: 'db' } },
    template: {
      metadata: { labels: { app: 'db' } },
      spec: { containers: [{ name: 'db', image: 'postgres:15' }], terminationGracePeriodSeconds: 0 },
    },
  },
});

const daemonSet = JSON.stringify({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'agent', namespace: 'ssds' },
  spec: {
    selector: { matchLabels: { app: 'agent' } },
    template: {
      metadata: { labels: { app: 'agent' } },
      spec: { containers: [{ name: 'agent', image: 'agent:1' }], terminationGracePeriodSeconds: 0 },
    },
  },
});

describe('kubectl 1.27: StatefulSet and DaemonSet on simulated nodes', { skip: kubectlSkip }, () => {
  const s = kubectlSession({ args: ['--nodes', '2'] });
  const ns = ['-n', 'ssds'];

  it('a StatefulSet from ordinals.start rolls out, and rolls out a new image', async () => {
    await s.ok(['create', 'namespace', 'ssds']);
    await s.ok(['apply', '-f', '-'], { input: statefulSet });
    const out = await s.ok([...ns, 'rollout', 'status', 'statefulset/db', '--timeout=90s']);
    // The API defaults rollingUpdate.partition to 0, so kubectl 1.27 reports a partitioned roll out.
    assert.match(out, /partitioned roll out complete: 3 new pods have been updated\.\.\./);
    assert.deepEqual(lines(await s.ok([...ns, 'get', 'pods', '-l', 'app=db', '-o', 'name'])).sort(), [
      'pod/db-1',
      'pod/db-2',
      'pod/db-3',
    ]);
    await s.ok([...ns, 'set', 'image', 'statefulset/db', 'db=postgres:16']);
    await s.ok([...ns, 'rollout', 'status', 'statefulset/db', '--timeout=90s']);
    const images = await s.ok([
      ...ns,
      'get',
      'pods',
      '-l',
      'app=db',
      '-o',
      'jsonpath={.items[*].spec.containers[0].image}',
    ]);
    assert.deepEqual(images.split(' '), ['postgres:16', 'postgres:16', 'postgres:16']);
    assert.equal(
      lines(await s.ok([...ns, 'get', 'controllerrevisions', '-l', 'app=db', '-o', 'name'])).length,
      2,
    );
  });

  it('a DaemonSet gets a pod per node and rolls out, and rolls out a new image', async () => {
    await s.ok(['apply', '-f', '-'], { input: daemonSet });
    const out = await s.ok([...ns, 'rollout', 'status', 'daemonset/agent', '--timeout=90s']);
    assert.match(out, /daemon set "agent" successfully rolled out/);
    const nodes = lines(
      await s.ok([
        ...ns,
        'get',
        'pods',
        '-l',
        'app=agent',
        '-o',
        'custom-columns=N:.spec.nodeName',
        '--no-headers',
      ]),
    );
    assert.equal(new Set(nodes).size, 2);
    await s.ok([...ns, 'set', 'image', 'daemonset/agent', 'agent=agent:2']);
    await s.ok([...ns, 'rollout', 'status', 'daemonset/agent', '--timeout=90s']);
  });

  itStopsCleanly(s);
});
