/**
 * The alpha group-versions of the seed items, served only with --runtime-config and their
 * feature gate: networking.k8s.io/v1alpha1 IPAddress (MultiCIDRServiceAllocator, NW-03) and
 * ClusterCIDR (MultiCIDRRangeAllocator), and resource.k8s.io/v1alpha2 ResourceClass, ResourceClaim
 * (+status), ResourceClaimTemplate and PodSchedulingContext (+status) (DynamicResourceAllocation,
 * AM-14): discovery as the reference server's (v1.28.7 with alpha gates on; these kinds and their
 * storage versions are the same as v1.27's), defaults, validation messages, immutability, status
 * subresources and Table columns.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { v127Gates } from '../../src/machinery/features.js';
import type { RegistryResource } from '../../src/registry/resource.js';
import { resourceV1alpha2Resources } from '../../src/registry/resources/dra/index.js';
import { networkingV1alpha1Resources } from '../../src/registry/resources/networking/index.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const net = '/apis/networking.k8s.io/v1alpha1';
const dra = '/apis/resource.k8s.io/v1alpha2';
const claims = `${dra}/namespaces/default/resourceclaims`;
const table = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const mergePatch = 'application/merge-patch+json';
const refDir = join(process.cwd(), '../shared/reference/kube-apiserver-v1.28.7/alpha-gates-on/discovery');

/** Gates the server knows; MultiCIDRRangeAllocator may not be one of v1.27's listed gates yet. */
const gates = Object.fromEntries(
  ['MultiCIDRServiceAllocator', 'MultiCIDRRangeAllocator', 'DynamicResourceAllocation']
    .filter((g) => v127Gates[g] !== undefined)
    .map((g) => [g, true]),
);

let server: TestServer;
before(async () => {
  server = await startTestServer({
    controllers: false,
    runtimeConfig: 'networking.k8s.io/v1alpha1=true,resource.k8s.io/v1alpha2=true',
    featureGates: gates,
  });
  // Until the composition root serves them (or, for ClusterCIDR, knows its gate), register the
  // resources here: each one the server does not answer for.
  const add = async (base: string, resources: readonly RegistryResource[]): Promise<void> => {
    for (const r of resources) {
      const path = r.info.namespaced
        ? `${base}/namespaces/default/${r.info.resource}`
        : `${base}/${r.info.resource}`;
      if ((await server.request('GET', path)).status === 404) server.resources.add(r);
    }
  };
  await add(net, networkingV1alpha1Resources);
  await add(dra, resourceV1alpha2Resources);
});
after(() => server.stop());

type Json = Record<string, unknown>;
const at = (o: unknown, ...path: (string | number)[]): unknown =>
  path.reduce<unknown>((v, k) => (v as Record<string | number, unknown> | undefined)?.[k], o);

function readRef(file: string): { resources: Json[] } | undefined {
  const p = join(refDir, file);
  return existsSync(p) ? (JSON.parse(readFileSync(p, 'utf8')) as { resources: Json[] }) : undefined;
}

for (const [base, file] of [
  [net, 'apis_networking.k8s.io_v1alpha1.json'],
  [dra, 'apis_resource.k8s.io_v1alpha2.json'],
] as const) {
  test(`${base} discovery entries equal the reference server`, async (t) => {
    const r = await server.request('GET', base);
    assert.equal(r.status, 200, r.text);
    const ref = readRef(file);
    if (ref === undefined) {
      t.skip(`reference discovery not found under ${refDir}`);
      return;
    }
    // v1.27 and v1.28 serve these kinds alike (same storage versions, hence the same hashes).
    assert.deepEqual(r.json<{ resources: Json[] }>().resources, ref.resources);
  });
}

const parentRef = { group: '', resource: 'services', namespace: 'default', name: 'web' };
const ipAddress = (name: string, spec: Json): Json => ({
  apiVersion: 'networking.k8s.io/v1alpha1',
  kind: 'IPAddress',
  metadata: { name },
  spec,
});

test('IPAddress: canonical IP names, parentRef rules, immutable parentRef, table', async () => {
  const created = await server.request('POST', `${net}/ipaddresses`, {
    body: ipAddress('2001:db8::1', { parentRef }),
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(at(created.json(), 'metadata', 'generation'), undefined);

  const bad = await server.request('POST', `${net}/ipaddresses`, {
    body: ipAddress('10.01.0.1', { parentRef }),
  });
  assert.equal(bad.status, 422);
  assert.equal(
    bad.json()['message'],
    'IPAddress.networking.k8s.io "10.01.0.1" is invalid: metadata.name: Invalid value: "10.01.0.1": ParseAddr("10.01.0.1"): IPv4 field has octet with leading zero',
  );
  const nonCanonical = await server.request('POST', `${net}/ipaddresses`, {
    body: ipAddress('2001:db8:0:0::2', {}),
  });
  assert.equal(nonCanonical.status, 422);
  assert.equal(
    nonCanonical.json()['message'],
    'IPAddress.networking.k8s.io "2001:db8:0:0::2" is invalid: [metadata.name: Invalid value: "2001:db8:0:0::2": not a valid ip in canonical format, spec.parentRef: Required value]',
  );

  const moved = await server.request('PATCH', `${net}/ipaddresses/2001:db8::1`, {
    body: { spec: { parentRef: { name: 'db' } } },
    contentType: mergePatch,
  });
  assert.equal(moved.status, 422);
  assert.match(
    String(moved.json()['message']),
    /spec\.parentRef: Invalid value: networking\.ParentReference\{.*Name:"db".*\}: field is immutable/,
  );
  const labelled = await server.request('PATCH', `${net}/ipaddresses/2001:db8::1`, {
    body: { metadata: { labels: { a: 'b' } } },
    contentType: mergePatch,
  });
  assert.equal(labelled.status, 200, labelled.text);

  const t = await server.request('GET', `${net}/ipaddresses`, { accept: table });
  assert.equal(t.status, 200, t.text);
  assert.deepEqual(
    t.json<{ columnDefinitions: { name: string }[] }>().columnDefinitions.map((c) => c.name),
    ['Name', 'ParentRef'],
  );
  const row = t.json<{ rows: { cells: unknown[] }[] }>().rows[0];
  assert.deepEqual(row?.cells.slice(0, 2), ['2001:db8::1', 'services/default/web']);
});

test('ClusterCIDR: DNS-1123 label names, CIDR/perNodeHostBits rules, immutable spec, table', async () => {
  const cc = (name: string, spec: Json): Json => ({
    apiVersion: 'networking.k8s.io/v1alpha1',
    kind: 'ClusterCIDR',
    metadata: { name },
    spec,
  });
  const created = await server.request('POST', `${net}/clustercidrs`, {
    body: cc('pods', { perNodeHostBits: 8, ipv4: '10.0.0.0/16' }),
  });
  assert.equal(created.status, 201, created.text);
  assert.deepEqual(created.json()['spec'], { perNodeHostBits: 8, ipv4: '10.0.0.0/16', ipv6: '' });

  const bad = await server.request('POST', `${net}/clustercidrs`, {
    body: cc('a.b', { perNodeHostBits: 2 }),
  });
  assert.equal(bad.status, 422);
  const causes = at(bad.json(), 'details', 'causes') as { field: string }[];
  assert.deepEqual(
    causes.map((c) => c.field),
    ['metadata.name', 'spec'],
  );

  const changed = await server.request('PATCH', `${net}/clustercidrs/pods`, {
    body: { spec: { ipv6: 'fd00::/64' } },
    contentType: mergePatch,
  });
  assert.equal(changed.status, 422);
  assert.equal(
    changed.json()['message'],
    'ClusterCIDR.networking.k8s.io "pods" is invalid: spec.ipv6: Invalid value: "fd00::/64": field is immutable',
  );

  const t = await server.request('GET', `${net}/clustercidrs`, { accept: table });
  const row = t.json<{ rows: { cells: unknown[] }[] }>().rows[0];
  assert.deepEqual(row?.cells.slice(0, 4), ['pods', '8', '10.0.0.0/16', '<none>']);
});

test('ResourceClass and ResourceClaim: defaults, status reset, immutable spec, /status rules, table', async () => {
  const rc = await server.request('POST', `${dra}/resourceclasses`, {
    body: {
      apiVersion: 'resource.k8s.io/v1alpha2',
      kind: 'ResourceClass',
      metadata: { name: 'gpu' },
      driverName: 'gpu.example.com',
    },
  });
  assert.equal(rc.status, 201, rc.text);
  const badClass = await server.request('POST', `${dra}/resourceclasses`, {
    body: {
      apiVersion: 'resource.k8s.io/v1alpha2',
      kind: 'ResourceClass',
      metadata: { name: 'bad' },
      driverName: 'Bad_Driver',
    },
  });
  assert.equal(badClass.status, 422);
  assert.deepEqual(
    (at(badClass.json(), 'details', 'causes') as { field: string }[]).map((c) => c.field),
    ['driverName'],
  );

  const created = await server.request('POST', claims, {
    body: {
      apiVersion: 'resource.k8s.io/v1alpha2',
      kind: 'ResourceClaim',
      metadata: { name: 'c' },
      spec: { resourceClassName: 'gpu' },
      status: { driverName: 'gpu.example.com', allocation: {} },
    },
  });
  assert.equal(created.status, 201, created.text);
  assert.deepEqual(created.json()['spec'], {
    resourceClassName: 'gpu',
    allocationMode: 'WaitForFirstConsumer',
  });
  assert.deepEqual(created.json()['status'], {});

  const respec = await server.request('PATCH', `${claims}/c`, {
    body: { spec: { allocationMode: 'Immediate' } },
    contentType: mergePatch,
  });
  assert.equal(respec.status, 422);
  assert.match(
    String(respec.json()['message']),
    /spec: Invalid value: resource\.ResourceClaimSpec\{ResourceClassName:"gpu", .*AllocationMode:"Immediate"\}: field is immutable/,
  );

  const badStatus = await server.request('PATCH', `${claims}/c/status`, {
    body: { status: { reservedFor: [{ resource: 'pods', name: 'p', uid: 'u1' }] } },
    contentType: mergePatch,
  });
  assert.equal(badStatus.status, 422);
  assert.equal(
    badStatus.json()['message'],
    'ResourceClaim.resource.k8s.io "c" is invalid: status.reservedFor: Forbidden: may not be specified when `allocated` is not set',
  );
  const allocated = await server.request('PATCH', `${claims}/c/status`, {
    body: {
      spec: { allocationMode: 'Immediate' },
      status: {
        driverName: 'gpu.example.com',
        allocation: { shareable: true },
        reservedFor: [{ resource: 'pods', name: 'p', uid: 'u1' }],
      },
    },
    contentType: mergePatch,
  });
  assert.equal(allocated.status, 200, allocated.text);
  assert.equal(at(allocated.json(), 'spec', 'allocationMode'), 'WaitForFirstConsumer');
  assert.equal(at(allocated.json(), 'status', 'driverName'), 'gpu.example.com');

  const t = await server.request('GET', claims, { accept: table });
  assert.deepEqual(
    t.json<{ columnDefinitions: { name: string }[] }>().columnDefinitions.map((c) => c.name),
    ['Name', 'ResourceClassName', 'AllocationMode', 'State', 'Age'],
  );
  const row = t.json<{ rows: { cells: unknown[] }[] }>().rows[0];
  assert.deepEqual(row?.cells.slice(0, 4), ['c', 'gpu', 'WaitForFirstConsumer', 'allocated,reserved']);
});

test('ResourceClaimTemplate and PodSchedulingContext', async () => {
  const tmpl = await server.request('POST', `${dra}/namespaces/default/resourceclaimtemplates`, {
    body: {
      apiVersion: 'resource.k8s.io/v1alpha2',
      kind: 'ResourceClaimTemplate',
      metadata: { name: 't' },
      spec: { metadata: { labels: { a: 'b' } }, spec: { resourceClassName: 'gpu' } },
    },
  });
  assert.equal(tmpl.status, 201, tmpl.text);
  assert.equal(at(tmpl.json(), 'spec', 'spec', 'allocationMode'), 'WaitForFirstConsumer');
  const badTmpl = await server.request('POST', `${dra}/namespaces/default/resourceclaimtemplates`, {
    body: {
      apiVersion: 'resource.k8s.io/v1alpha2',
      kind: 'ResourceClaimTemplate',
      metadata: { name: 't2' },
      spec: { metadata: { name: 'x' }, spec: { resourceClassName: 'gpu' } },
    },
  });
  assert.equal(badTmpl.status, 422);
  assert.equal(
    badTmpl.json()['message'],
    'ResourceClaimTemplate.resource.k8s.io "t2" is invalid: spec.metadata.name: Forbidden: cannot be set for a template',
  );

  const psc = `${dra}/namespaces/default/podschedulingcontexts`;
  const created = await server.request('POST', psc, {
    body: {
      apiVersion: 'resource.k8s.io/v1alpha2',
      kind: 'PodSchedulingContext',
      metadata: { name: 'pod' },
      spec: { selectedNode: 'n1', potentialNodes: ['n1', 'n2'] },
    },
  });
  assert.equal(created.status, 201, created.text);
  assert.deepEqual(created.json()['status'], {});
  const dup = await server.request('PATCH', `${psc}/pod/status`, {
    body: { status: { resourceClaims: [{ name: 'gpu' }, { name: 'gpu' }] } },
    contentType: mergePatch,
  });
  assert.equal(dup.status, 422);
  assert.equal(
    dup.json()['message'],
    'PodSchedulingContext.resource.k8s.io "pod" is invalid: status.claims[1]: Duplicate value: "gpu"',
  );
  const ok = await server.request('PATCH', `${psc}/pod/status`, {
    body: { status: { resourceClaims: [{ name: 'gpu', unsuitableNodes: ['n2'] }] } },
    contentType: mergePatch,
  });
  assert.equal(ok.status, 200, ok.text);
  const t = await server.request('GET', psc, { accept: table });
  const row = t.json<{ rows: { cells: unknown[] }[] }>().rows[0];
  assert.deepEqual(row?.cells.slice(0, 2), ['pod', 'n1']);
});
