/**
 * The simulated kubelet admits a pod bound to its node as the kubelet does: a pod placed by hand
 * (spec.nodeName) on a node where its host port is taken, its resources do not fit or a NoExecute
 * taint is not tolerated fails with the predicate's reason. Upstream: "StatefulSet Basic
 * StatefulSet functionality Should recreate evicted statefulset".
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startCluster } from '../../src/index.js';
import type { Cluster } from '../../src/index.js';
import type { JsonObject } from '../../src/util/json.js';
import { waitFor } from '../support/poll.js';

const httpd = 'registry.k8s.io/e2e-test-images/httpd:2.4.38-4';
const ns = 'default';

type Pod = { metadata: { uid: string }; status?: { phase?: string; reason?: string; message?: string } };

describe('kubelet admission on simulated nodes', () => {
  let c: Cluster;
  let node: string;
  before(async () => {
    // Without the node lifecycle controller: its taint manager deletes an untolerating pod, which
    // races the kubelet refusing it and hides the reason this checks.
    c = await startCluster({ controllers: '*,-nodelifecycle' });
    node = await waitFor('a node', async () => {
      const nodes = (await c.rest.request('GET', '/api/v1/nodes')) as {
        items: { metadata: { name: string } }[];
      };
      return nodes.items[0]?.metadata.name;
    });
  });
  after(() => c.stop());

  const getPod = async (name: string): Promise<Pod> =>
    (await c.rest.request('GET', `/api/v1/namespaces/${ns}/pods/${name}`)) as Pod;
  const createPod = async (name: string, spec: JsonObject): Promise<void> => {
    await c.rest.request('POST', `/api/v1/namespaces/${ns}/pods`, {
      body: { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec },
    });
  };
  const phase = (name: string, want: string): Promise<Pod> =>
    waitFor(`${name} ${want}`, async () => {
      const p = await getPod(name).catch(() => undefined);
      return p?.status?.phase === want ? p : undefined;
    });
  const port = { name: 'conflict', containerPort: 21017, hostPort: 21017 };

  test('a second pod on a taken host port fails with NodePorts; a StatefulSet pod is recreated until the port is free', async () => {
    await createPod('test-pod', {
      nodeName: node,
      containers: [{ name: 'webserver', image: httpd, ports: [port] }],
    });
    await phase('test-pod', 'Running');
    await createPod('second', {
      nodeName: node,
      containers: [{ name: 'webserver', image: httpd, ports: [port] }],
    });
    const rejected = await phase('second', 'Failed');
    assert.equal(rejected.status?.reason, 'NodePorts');
    assert.equal(rejected.status?.message, 'Pod was rejected: Predicate NodePorts failed');
    await c.rest.request('POST', `/apis/apps/v1/namespaces/${ns}/statefulsets`, {
      body: {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: 'ss' },
        spec: {
          replicas: 1,
          serviceName: 'test',
          selector: { matchLabels: { app: 'ss' } },
          template: {
            metadata: { labels: { app: 'ss' } },
            spec: { nodeName: node, containers: [{ name: 'webserver', image: httpd, ports: [port] }] },
          },
        },
      },
    });
    const first = await phase('ss-0', 'Failed');
    assert.equal(first.status?.reason, 'NodePorts');
    await c.rest.request('DELETE', `/api/v1/namespaces/${ns}/pods/test-pod`, {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0 },
    });
    const running = await phase('ss-0', 'Running');
    assert.notEqual(running.metadata.uid, first.metadata.uid);
  });

  test('resources that do not fit and an untolerated NoExecute taint are refused with their reasons', async () => {
    await createPod('huge', {
      nodeName: node,
      restartPolicy: 'Never',
      containers: [{ name: 'c', image: httpd, resources: { requests: { cpu: '100000' } } }],
    });
    const huge = await phase('huge', 'Failed');
    assert.equal(huge.status?.reason, 'OutOfcpu');
    assert.match(
      huge.status?.message ?? '',
      /^Pod was rejected: Node didn't have enough resource: cpu, requested: 100000000, used: \d+, capacity: \d+$/,
    );
    await c.rest.request('PATCH', `/api/v1/nodes/${node}`, {
      body: { spec: { taints: [{ key: 'example.com/evict', value: 'x', effect: 'NoExecute' }] } },
      contentType: 'application/merge-patch+json',
    });
    try {
      // The node's taint must reach its informer first: the first pods may still be admitted.
      await waitFor('a tainted node refuses', async () => {
        const name = `tainted-${Date.now()}`;
        await createPod(name, {
          nodeName: node,
          restartPolicy: 'Never',
          containers: [{ name: 'c', image: httpd }],
        });
        const p = await waitFor(`${name} settled`, async () => {
          const got = await getPod(name);
          return got.status?.phase === undefined || got.status.phase === 'Pending' ? undefined : got;
        });
        return p.status?.reason === 'TaintToleration' ? p : undefined;
      });
      const tolerated = 'tolerated';
      await createPod(tolerated, {
        nodeName: node,
        tolerations: [{ key: 'example.com/evict', operator: 'Exists', effect: 'NoExecute' }],
        containers: [{ name: 'c', image: httpd }],
      });
      await phase(tolerated, 'Running');
    } finally {
      await c.rest.request('PATCH', `/api/v1/nodes/${node}`, {
        body: { spec: { taints: null } },
        contentType: 'application/merge-patch+json',
      });
    }
  });
});

describe('kubelet admission counts its own node’s pods only', () => {
  let c: Cluster;
  let nodes: string[];
  before(async () => {
    c = await startCluster({ nodes: 2, controllers: '*,-nodelifecycle' });
    nodes = await waitFor('two nodes', async () => {
      const list = (await c.rest.request('GET', '/api/v1/nodes')) as {
        items: { metadata: { name: string } }[];
      };
      return list.items.length === 2 ? list.items.map((n) => n.metadata.name).sort() : undefined;
    });
  });
  after(() => c.stop());

  const run = async (name: string, node: string): Promise<Pod> => {
    await c.rest.request('POST', `/api/v1/namespaces/${ns}/pods`, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name },
        spec: {
          nodeName: node,
          containers: [
            { name: 'webserver', image: httpd, ports: [{ containerPort: 21018, hostPort: 21018 }] },
          ],
        },
      },
    });
    return waitFor(`${name} admitted or refused`, async () => {
      const p = (await c.rest.request('GET', `/api/v1/namespaces/${ns}/pods/${name}`)) as Pod;
      return p.status?.phase === 'Running' || p.status?.phase === 'Failed' ? p : undefined;
    });
  };

  test('the same host port on two nodes runs on both, and is refused on a node that holds it', async () => {
    assert.equal((await run('a-first', nodes[0]!)).status?.phase, 'Running');
    assert.equal((await run('b-first', nodes[1]!)).status?.phase, 'Running');
    const refused = await run('a-second', nodes[0]!);
    assert.equal(refused.status?.phase, 'Failed');
    assert.equal(refused.status?.reason, 'NodePorts');
    const refusedB = await run('b-second', nodes[1]!);
    assert.equal(refusedB.status?.reason, 'NodePorts');
  });
});
