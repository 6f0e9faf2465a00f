/**
 * The server keeps the `kubernetes` Service in `default` (upstream's bootstrap
 * controller with the lease endpoint reconciler): the Service (cluster IP = first address of
 * --service-cluster-ip-range, port 443 → the secure port), its Endpoints (the advertise address,
 * skip-mirror) and its EndpointSlice, recreated or repaired when deleted or changed.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { defaultAdvertiseAddress } from '../../src/cmd/serve/flags.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const servicePath = '/api/v1/namespaces/default/services/kubernetes';
const endpointsPath = '/api/v1/namespaces/default/endpoints/kubernetes';
const slicePath = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes';
/** What kubectl 1.27 sends for `kubectl get`. */
const kubectlTable =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const advertise = defaultAdvertiseAddress('127.0.0.1');
const noAddress = advertise === undefined ? 'this machine has no non-loopback IPv4 address' : false;

type Json = Record<string, unknown>;

let server: TestServer;
before(async () => {
  server = await startTestServer({});
});
after(() => server.stop());

/** GETs `path` until `ok` holds of a 200 answer (or fails after `ms`). */
async function eventually(path: string, ok: (o: Json) => boolean = () => true, ms = 15_000): Promise<Json> {
  const deadline = Date.now() + ms;
  let last = '';
  for (;;) {
    const r = await server.request('GET', path);
    if (r.status === 200) {
      const o = r.json();
      if (ok(o)) return o;
    }
    last = `${r.status} ${r.text.slice(0, 300)}`;
    if (Date.now() > deadline) assert.fail(`${path} never as expected; last: ${last}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

const meta = (o: Json): Json => o['metadata'] as Json;

test('the kubernetes Service: labels, ClusterIP 10.96.0.1, https 443 → the secure port', async () => {
  const svc = await eventually(servicePath);
  assert.deepEqual(meta(svc)['labels'], { component: 'apiserver', provider: 'kubernetes' });
  const spec = svc['spec'] as Json;
  assert.deepEqual(spec['ports'], [{ name: 'https', protocol: 'TCP', port: 443, targetPort: server.port }]);
  assert.equal(spec['clusterIP'], '10.96.0.1');
  assert.deepEqual(spec['clusterIPs'], ['10.96.0.1']);
  assert.equal(spec['type'], 'ClusterIP');
  assert.equal(spec['sessionAffinity'], 'None');
  assert.equal(spec['ipFamilyPolicy'], 'SingleStack');
  assert.equal(spec['selector'], undefined);
});

test('kubectl get: CLUSTER-IP 10.96.0.1, PORT(S) 443/TCP', async () => {
  await eventually(servicePath);
  const r = await server.request('GET', servicePath, { accept: kubectlTable });
  assert.equal(r.status, 200, r.text);
  const t = r.json<{ kind: string; columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] }>();
  assert.equal(t.kind, 'Table');
  const cell = (name: string): unknown =>
    t.rows[0]?.cells[t.columnDefinitions.findIndex((c) => c.name === name)];
  assert.equal(cell('Name'), 'kubernetes');
  assert.equal(cell('Type'), 'ClusterIP');
  assert.equal(cell('Cluster-IP'), '10.96.0.1');
  assert.equal(cell('External-IP'), '<none>');
  assert.equal(cell('Port(s)'), '443/TCP');
});

test(
  'Endpoints and EndpointSlice publish the advertise address and the secure port',
  { skip: noAddress },
  async () => {
    const ep = await eventually(endpointsPath);
    assert.deepEqual(meta(ep)['labels'], { 'endpointslice.kubernetes.io/skip-mirror': 'true' });
    assert.deepEqual(ep['subsets'], [
      { addresses: [{ ip: advertise }], ports: [{ name: 'https', port: server.port, protocol: 'TCP' }] },
    ]);
    const slice = await eventually(slicePath);
    assert.deepEqual(meta(slice)['labels'], { 'kubernetes.io/service-name': 'kubernetes' });
    assert.equal(meta(slice)['generation'], 1);
    assert.equal(slice['addressType'], 'IPv4');
    assert.deepEqual(slice['endpoints'], [{ addresses: [advertise], conditions: { ready: true } }]);
    assert.deepEqual(slice['ports'], [{ name: 'https', protocol: 'TCP', port: server.port }]);
    const table = await server.request('GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', {
      accept: kubectlTable,
    });
    const t = table.json<{ rows: { cells: unknown[] }[] }>();
    assert.deepEqual(t.rows[0]?.cells.slice(0, 4), ['kubernetes', 'IPv4', String(server.port), advertise]);
  },
);

test(
  'deleted Endpoints, Service and EndpointSlice come back; a changed address is repaired',
  { skip: noAddress },
  async () => {
    const before = await eventually(endpointsPath);
    const del = await server.request('DELETE', endpointsPath);
    assert.equal(del.status, 200, del.text);
    const again = await eventually(endpointsPath, (o) => meta(o)['uid'] !== meta(before)['uid']);
    assert.deepEqual(again['subsets'], before['subsets']);

    const svc = await eventually(servicePath);
    assert.equal((await server.request('DELETE', servicePath)).status, 200);
    const svc2 = await eventually(servicePath, (o) => meta(o)['uid'] !== meta(svc)['uid']);
    assert.equal((svc2['spec'] as Json)['clusterIP'], '10.96.0.1');

    const slice = await eventually(slicePath);
    assert.equal((await server.request('DELETE', slicePath)).status, 200);
    await eventually(slicePath, (o) => meta(o)['uid'] !== meta(slice)['uid']);

    const current = await eventually(endpointsPath);
    const changed = {
      ...current,
      metadata: { ...meta(current), labels: {} },
      subsets: [
        { addresses: [{ ip: '10.9.9.9' }], ports: [{ name: 'https', port: server.port, protocol: 'TCP' }] },
      ],
    };
    const put = await server.request('PUT', endpointsPath, { body: changed });
    assert.equal(put.status, 200, put.text);
    const repaired = await eventually(
      endpointsPath,
      (o) => JSON.stringify(o['subsets']).includes(String(advertise)) && meta(o)['labels'] !== undefined,
    );
    assert.deepEqual(meta(repaired)['labels'], { 'endpointslice.kubernetes.io/skip-mirror': 'true' });
    await eventually(slicePath, (o) => JSON.stringify(o['endpoints']).includes(String(advertise)));
  },
);
