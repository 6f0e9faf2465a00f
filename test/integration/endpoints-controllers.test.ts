/**
 * The Endpoints, EndpointSlice and EndpointSlice mirroring controllers and node IPAM (* NW-04, NW-11, NW-13, NW-15) against the in-process server: pods going ready and terminating
 * and the resulting Endpoints and EndpointSlice conditions.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { EndpointsController } from '../../src/controllers/endpoint/endpoints-controller.js';
import { EndpointSliceController } from '../../src/controllers/endpointslice/endpointslice-controller.js';
import { EndpointSliceMirroringController } from '../../src/controllers/endpointslicemirroring/mirroring-controller.js';
import { NodeIpamController } from '../../src/controllers/nodeipam/range-allocator.js';
import type { JsonObject } from '../../src/util/json.js';
import { renderMetrics } from '../../src/util/metrics.js';
import { adminClient, startTestServer } from '../support/server.js';
import { createNamespace, items, startCluster, waitFor } from './workload-harness.js';
import type { Cluster } from './workload-harness.js';

let c: Cluster;
const recorded: { name: string; type: string; reason: string; message: string }[] = [];
const ns = 'ep-test';
const svcPath = `/api/v1/namespaces/${ns}/services`;
const podPath = `/api/v1/namespaces/${ns}/pods`;
const epPath = `/api/v1/namespaces/${ns}/endpoints`;
const slicePath = `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices`;

before(async () => {
  c = await startCluster();
  await createNamespace(c.client, ns);
  for (const [name, zone] of [
    ['node-a', 'zone-a'],
    ['node-b', 'zone-b'],
  ] as const) {
    await c.client.request('POST', '/api/v1/nodes', {
      body: {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name, labels: { 'topology.kubernetes.io/zone': zone } },
      },
    });
  }
  const opts = { client: c.client, informers: c.informers, onError: (e: unknown) => c.errors.push(e) };
  const endpoints = new EndpointsController(opts);
  const slices = new EndpointSliceController(opts);
  const mirroring = new EndpointSliceMirroringController({
    ...opts,
    events: {
      event: (o, type, reason, message) =>
        recorded.push({ name: metaOf(o)['name'] as string, type, reason, message }),
    },
  });
  const ipam = new NodeIpamController({
    ...opts,
    clusterCIDRs: ['10.200.0.0/16'],
    nodeCIDRMaskSize: 24,
    serviceCIDRs: ['10.200.0.0/24'],
  });
  c.start([(s) => endpoints.run(s), (s) => slices.run(s), (s) => mirroring.run(s), (s) => ipam.run(s)]);
});

after(async () => {
  await c.stop();
});

const metaOf = (o: JsonObject | undefined): JsonObject => (o?.['metadata'] ?? {}) as JsonObject;

async function createPod(name: string, app: string, node: string, ip: string): Promise<void> {
  await c.client.request('POST', podPath, {
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, labels: { app } },
      spec: {
        nodeName: node,
        containers: [{ name: 'c', image: 'nginx', ports: [{ name: 'http', containerPort: 8080 }] }],
      },
    },
  });
  await setStatus(name, ip, false);
}

async function setStatus(name: string, ip: string, ready: boolean): Promise<void> {
  const pod = await c.client.request('GET', `${podPath}/${name}`);
  pod['status'] = {
    phase: 'Running',
    podIP: ip,
    podIPs: [{ ip }],
    conditions: [
      {
        type: 'Ready',
        status: ready ? 'True' : 'False',
        lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      },
    ],
  };
  await c.client.request('PUT', `${podPath}/${name}/status`, { body: pod });
}

async function createService(name: string, spec: JsonObject): Promise<void> {
  await c.client.request('POST', svcPath, {
    body: { apiVersion: 'v1', kind: 'Service', metadata: { name, labels: { tier: 'front' } }, spec },
  });
}

async function slicesOf(service: string): Promise<JsonObject[]> {
  const list = await c.client.request(
    'GET',
    `${slicePath}?labelSelector=${encodeURIComponent(`kubernetes.io/service-name=${service}`)}`,
  );
  return items(list);
}

function endpointsOfSlices(slices: readonly JsonObject[]): JsonObject[] {
  return slices.flatMap((s) => (s['endpoints'] ?? []) as JsonObject[]);
}

test('Endpoints and EndpointSlices follow pods going ready and terminating (NW-15)', async () => {
  await createPod('web-1', 'web', 'node-a', '10.244.1.5');
  await createPod('web-2', 'web', 'node-b', '10.244.2.5');
  await createService('web', {
    selector: { app: 'web' },
    ports: [{ name: 'http', port: 80, targetPort: 'http' }],
  });
  const ep = await waitFor('Endpoints with two not-ready addresses', async () => {
    const e = await c.client.request('GET', `${epPath}/web`);
    const subsets = (e['subsets'] ?? []) as JsonObject[];
    return ((subsets[0]?.['notReadyAddresses'] ?? []) as JsonObject[]).length === 2 ? e : undefined;
  });
  assert.deepEqual((ep['subsets'] as JsonObject[])[0]?.['ports'], [
    { name: 'http', port: 8080, protocol: 'TCP' },
  ]);
  assert.deepEqual(metaOf(ep)['labels'], { tier: 'front' });
  assert.match(
    ((metaOf(ep)['annotations'] ?? {}) as JsonObject)[
      'endpoints.kubernetes.io/last-change-trigger-time'
    ] as string,
    /^\d{4}-\d\d-\d\dT/,
  );

  const slices = await waitFor('a slice with two endpoints', async () => {
    const s = await slicesOf('web');
    return endpointsOfSlices(s).length === 2 ? s : undefined;
  });
  assert.equal(slices.length, 1);
  const slice = slices[0]!;
  assert.equal(slice['addressType'], 'IPv4');
  assert.equal(
    (metaOf(slice)['labels'] as JsonObject)['endpointslice.kubernetes.io/managed-by'],
    'endpointslice-controller.k8s.io',
  );
  assert.equal(((metaOf(slice)['ownerReferences'] as JsonObject[])[0] ?? {})['kind'], 'Service');
  const byName = (name: string): JsonObject | undefined =>
    endpointsOfSlices(slices).find((e) => (e['targetRef'] as JsonObject)['name'] === name);
  assert.deepEqual(byName('web-1')?.['conditions'], { ready: false, serving: false, terminating: false });
  assert.equal(byName('web-1')?.['zone'], 'zone-a');
  assert.equal(byName('web-2')?.['nodeName'], 'node-b');

  // Ready.
  await setStatus('web-1', '10.244.1.5', true);
  await waitFor('web-1 ready in the slice and in Endpoints', async () => {
    const e = await c.client.request('GET', `${epPath}/web`);
    const ready = ((e['subsets'] as JsonObject[])[0]?.['addresses'] ?? []) as JsonObject[];
    const s = endpointsOfSlices(await slicesOf('web')).find(
      (x) => (x['targetRef'] as JsonObject)['name'] === 'web-1',
    );
    const cond = (s?.['conditions'] ?? {}) as JsonObject;
    return ready.length === 1 && ready[0]?.['ip'] === '10.244.1.5' && cond['ready'] === true;
  });

  // Terminating: graceful deletion leaves the pod with a deletionTimestamp.
  await c.client.request('DELETE', `${podPath}/web-1`, { body: { gracePeriodSeconds: 300 } });
  await waitFor('web-1 terminating in the slice, gone from Endpoints', async () => {
    const e = await c.client.request('GET', `${epPath}/web`);
    const ips = ((e['subsets'] ?? []) as JsonObject[]).flatMap((s) =>
      [...((s['addresses'] ?? []) as JsonObject[]), ...((s['notReadyAddresses'] ?? []) as JsonObject[])].map(
        (a) => a['ip'],
      ),
    );
    const s = endpointsOfSlices(await slicesOf('web')).find(
      (x) => (x['targetRef'] as JsonObject)['name'] === 'web-1',
    );
    return (
      !ips.includes('10.244.1.5') &&
      JSON.stringify(s?.['conditions']) === JSON.stringify({ ready: false, serving: true, terminating: true })
    );
  });
});

test('headless Services carry the headless label; ExternalName Services get nothing (NW-13)', async () => {
  await createPod('db-1', 'db', 'node-a', '10.244.1.9');
  await createService('db', { clusterIP: 'None', selector: { app: 'db' }, ports: [{ port: 5432 }] });
  const ep = await waitFor('headless Endpoints', async () => c.client.request('GET', `${epPath}/db`));
  assert.deepEqual(metaOf(ep)['labels'], { tier: 'front', 'service.kubernetes.io/headless': '' });
  await createService('ext', { type: 'ExternalName', externalName: 'example.com', selector: { app: 'db' } });
  await createService('after', { selector: { app: 'none' }, ports: [{ port: 1 }] });
  // Once a later Service is handled, the ExternalName one has been too.
  const placeholder = await waitFor('the placeholder slice of a Service without pods', async () => {
    const s = await slicesOf('after');
    return s.length === 1 ? s[0] : undefined;
  });
  assert.deepEqual([placeholder['endpoints'] ?? [], placeholder['ports'] ?? []], [[], []]);
  await waitFor('Endpoints of the later Service', () => c.client.request('GET', `${epPath}/after`));
  await assert.rejects(c.client.request('GET', `${epPath}/ext`), /not found/);
  assert.deepEqual(await slicesOf('ext'), []);
});

test('deleting the Service deletes its Endpoints', async () => {
  await c.client.request('DELETE', `${svcPath}/db`);
  await waitFor('Endpoints gone', async () => {
    try {
      await c.client.request('GET', `${epPath}/db`);
      return false;
    } catch {
      return true;
    }
  });
});

test('custom Endpoints of a selector-less Service are mirrored; skip-mirror ones are not', async () => {
  await createService('custom', { ports: [{ name: 'db', port: 5432 }] });
  await c.client.request('POST', epPath, {
    body: {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'custom', labels: { owner: 'me' } },
      subsets: [{ addresses: [{ ip: '192.168.1.1' }], ports: [{ name: 'db', port: 5432 }] }],
    },
  });
  const mirrored = await waitFor('a mirrored slice', async () => {
    const s = await slicesOf('custom');
    return s.length === 1 ? s[0] : undefined;
  });
  assert.deepEqual(metaOf(mirrored)['labels'], {
    owner: 'me',
    'kubernetes.io/service-name': 'custom',
    'endpointslice.kubernetes.io/managed-by': 'endpointslicemirroring-controller.k8s.io',
  });
  assert.deepEqual(mirrored['endpoints'], [{ addresses: ['192.168.1.1'], conditions: { ready: true } }]);
  // The API server's own Endpoints carry skip-mirror: only its own slice exists.
  const own = await c.client.request(
    'GET',
    `/apis/discovery.k8s.io/v1/namespaces/default/endpointslices?labelSelector=${encodeURIComponent(
      'endpointslice.kubernetes.io/managed-by=endpointslicemirroring-controller.k8s.io',
    )}`,
  );
  assert.deepEqual(items(own), []);
  // skip-mirror set later: the mirrored slice goes.
  await c.client.request('PATCH', `${epPath}/custom`, {
    body: { metadata: { labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } } },
    contentType: 'application/merge-patch+json',
  });
  await waitFor('mirrored slice deleted', async () => (await slicesOf('custom')).length === 0);
});

test('node IPAM gives nodes without one a podCIDR, skipping used ranges (NW-11)', async () => {
  // node-a and node-b got 10.200.1.0/24 and 10.200.2.0/24 (10.200.0.0/24 is the Service range).
  await waitFor('the first nodes allocated', async () => {
    const cidrs = await Promise.all(
      ['node-a', 'node-b'].map(async (n) => {
        const node = await c.client.request('GET', `/api/v1/nodes/${n}`);
        return ((node['spec'] ?? {}) as JsonObject)['podCIDR'];
      }),
    );
    return cidrs[0] === '10.200.1.0/24' && cidrs[1] === '10.200.2.0/24';
  });
  await c.client.request('POST', '/api/v1/nodes', {
    body: {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'node-own' },
      spec: { podCIDR: '10.200.3.0/24', podCIDRs: ['10.200.3.0/24'] },
    },
  });
  await c.client.request('POST', '/api/v1/nodes', {
    body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-new' } },
  });
  const cidrs = await waitFor('every node has a podCIDR', async () => {
    const list = items(await c.client.request('GET', '/api/v1/nodes'));
    const all = list.map((n) => ((n['spec'] ?? {}) as JsonObject)['podCIDRs'] as string[] | undefined);
    return all.every((x) => x !== undefined && x.length === 1) ? all.map((x) => x![0]!) : undefined;
  });
  assert.equal(new Set(cidrs).size, cidrs.length, 'no CIDR given twice');
  assert.ok(cidrs.includes('10.200.3.0/24'));
  // The Service range (10.200.0.0/24) and the node's own are never handed out.
  assert.ok(!cidrs.includes('10.200.0.0/24'));
  for (const cidr of cidrs) assert.match(cidr, /^10\.200\.\d+\.0\/24$/);
  const node = await c.client.request('GET', '/api/v1/nodes/node-new');
  const spec = node['spec'] as JsonObject;
  assert.deepEqual([spec['podCIDR'], spec['podCIDRs']], ['10.200.4.0/24', ['10.200.4.0/24']]);
  const text = await renderMetrics();
  assert.match(text, /node_ipam_controller_cidrset_cidrs_max_total\{clusterCIDR="10\.200\.0\.0\/16"\} 256/);
  assert.match(text, /node_ipam_controller_cidrset_usage_cidrs\{clusterCIDR="10\.200\.0\.0\/16"\}/);
});

test('nanokube serve: a Deployment on simulated nodes gets ready endpoints from the nodes podCIDRs', async () => {
  const server = await startTestServer({ nodes: 2, storage: 'memory' });
  const client = adminClient(server);
  try {
    await client.request('POST', '/apis/apps/v1/namespaces/default/deployments', {
      body: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'hello' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'hello' } },
          template: {
            metadata: { labels: { app: 'hello' } },
            spec: {
              containers: [{ name: 'c', image: 'nginx', ports: [{ name: 'web', containerPort: 80 }] }],
            },
          },
        },
      },
    });
    await client.request('POST', '/api/v1/namespaces/default/services', {
      body: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'hello' },
        spec: { selector: { app: 'hello' }, ports: [{ port: 8080, targetPort: 'web' }] },
      },
    });
    const slice = await waitFor(
      'two ready endpoints',
      async () => {
        const list = await client.request(
          'GET',
          `/apis/discovery.k8s.io/v1/namespaces/default/endpointslices?labelSelector=${encodeURIComponent(
            'kubernetes.io/service-name=hello',
          )}`,
        );
        const s = items(list)[0];
        const eps = (s?.['endpoints'] ?? []) as JsonObject[];
        const ready = eps.filter((e) => (e['conditions'] as JsonObject)['ready'] === true);
        return ready.length === 2 ? s : undefined;
      },
      60_000,
    );
    assert.deepEqual(slice['ports'], [{ name: '', port: 80, protocol: 'TCP' }]);
    const nodes = items(await client.request('GET', '/api/v1/nodes'));
    const cidrs = nodes.map((n) => ((n['spec'] ?? {}) as JsonObject)['podCIDR'] as string);
    for (const e of slice['endpoints'] as JsonObject[]) {
      const ip = (e['addresses'] as string[])[0] ?? '';
      const node = nodes.find((n) => metaOf(n)['name'] === e['nodeName']);
      const prefix = (((node?.['spec'] ?? {}) as JsonObject)['podCIDR'] as string)
        .split('.')
        .slice(0, 3)
        .join('.');
      assert.ok(ip.startsWith(`${prefix}.`), `${ip} in ${cidrs.join(',')}`);
    }
    const ep = await waitFor('Endpoints with two addresses', async () => {
      const e = await client.request('GET', '/api/v1/namespaces/default/endpoints/hello');
      const addrs = (((e['subsets'] ?? []) as JsonObject[])[0]?.['addresses'] ?? []) as JsonObject[];
      return addrs.length === 2 ? e : undefined;
    });
    assert.deepEqual((ep['subsets'] as JsonObject[])[0]?.['ports'], [{ port: 80, protocol: 'TCP' }]);
  } finally {
    client.close();
    await server.stop();
  }
});

test('mirroring keeps 1000 addresses of a subset and warns about the rest', async () => {
  await createService('many', { ports: [{ port: 80 }] });
  const addresses = Array.from({ length: 1001 }, (_, i) => ({
    ip: `10.50.${Math.floor(i / 250)}.${(i % 250) + 1}`,
  }));
  await c.client.request('POST', epPath, {
    body: {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'many' },
      subsets: [{ addresses, ports: [{ port: 80 }] }],
    },
  });
  const slices = await waitFor('a mirrored slice of 1000', async () => {
    const s = await slicesOf('many');
    return endpointsOfSlices(s).length === 1000 ? s : undefined;
  });
  assert.equal(slices.length, 1);
  const warning = await waitFor('the TooManyAddressesToMirror event', () =>
    recorded.find((e) => e.name === 'many' && e.reason === 'TooManyAddressesToMirror'),
  );
  assert.equal(warning.type, 'Warning');
  assert.equal(
    warning.message,
    'A max of 1000 addresses can be mirrored to EndpointSlices per Endpoints subset. 1 addresses were skipped',
  );
});

test('NW-04: topology-mode Auto puts zone hints on ready endpoints once nodes report zones and CPU', async () => {
  for (const name of ['node-a', 'node-b']) {
    const node = await c.client.request('GET', `/api/v1/nodes/${name}`);
    node['status'] = {
      allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
      capacity: { cpu: '4', memory: '8Gi', pods: '110' },
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'ready' }],
    };
    await c.client.request('PUT', `/api/v1/nodes/${name}/status`, { body: node });
  }
  await createPod('zoned-a', 'zoned', 'node-a', '10.244.1.20');
  await createPod('zoned-b', 'zoned', 'node-b', '10.244.2.20');
  await setStatus('zoned-a', '10.244.1.20', true);
  await setStatus('zoned-b', '10.244.2.20', true);
  await c.client.request('POST', svcPath, {
    body: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'zoned', annotations: { 'service.kubernetes.io/topology-mode': 'Auto' } },
      spec: { selector: { app: 'zoned' }, ports: [{ port: 80, targetPort: 8080 }] },
    },
  });
  const hints = await waitFor('hints for both zones', async () => {
    const eps = endpointsOfSlices(await slicesOf('zoned'));
    const h = eps.map((e) => [e['zone'], JSON.stringify(e['hints'] ?? null)]);
    return h.length === 2 && h.every(([, x]) => x !== 'null') ? h : undefined;
  });
  for (const [zone, hint] of hints) assert.equal(hint, JSON.stringify({ forZones: [{ name: zone }] }));
});
