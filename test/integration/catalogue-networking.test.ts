/**
 * Networking.k8s.io/v1 Ingress (with /status), IngressClass and NetworkPolicy are served
 * as kube-apiserver v1.27 does: discovery as the reference server's, defaults, validation messages
 * (including v1.27's matching class annotation), the deprecated-annotation warning,
 * generation tracking, the status subresource and Table columns.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { networkingV1Resources } from '../../src/registry/resources/networking/index.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const group = 'networking.k8s.io';
const base = `/apis/${group}/v1`;
const ingresses = `${base}/namespaces/default/ingresses`;
const policies = `${base}/namespaces/default/networkpolicies`;
const classes = `${base}/ingressclasses`;
const table = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const mergePatch = 'application/merge-patch+json';
const refFile = join(
  process.cwd(),
  '../shared/reference/kube-apiserver-v1.28.7/default/discovery/apis_networking.k8s.io_v1.json',
);

let server: TestServer;
before(async () => {
  server = await startTestServer({ controllers: false });
  // Until the composition root serves the group, register it here (the same resources).
  if ((await server.request('GET', base)).status === 404) {
    for (const r of networkingV1Resources) server.resources.add(r);
  }
});
after(() => server.stop());

type Json = Record<string, unknown>;
const at = (o: unknown, ...path: (string | number)[]): unknown =>
  path.reduce<unknown>((v, k) => (v as Record<string | number, unknown> | undefined)?.[k], o);

const backend = { service: { name: 'web', port: { number: 80 } } };

function ingress(name: string, spec: Json, annotations?: Record<string, string>): Json {
  return {
    apiVersion: `${group}/v1`,
    kind: 'Ingress',
    metadata: { name, ...(annotations === undefined ? {} : { annotations }) },
    spec,
  };
}

test('discovery entries equal the reference server (v1.27: no networkpolicies/status)', async (t) => {
  const r = await server.request('GET', base);
  assert.equal(r.status, 200, r.text);
  const got = r.json<{ resources: Json[] }>().resources;
  if (!existsSync(refFile)) {
    t.skip(`reference discovery not found at ${refFile}`);
    return;
  }
  const ref = (JSON.parse(readFileSync(refFile, 'utf8')) as { resources: Json[] }).resources;
  assert.deepEqual(got, ref);
  const groups = (await server.request('GET', '/apis')).json<{ groups: { name: string }[] }>().groups;
  assert.ok(groups.some((g) => g.name === group));
});

test('Ingress lifecycle: create, get, list, update, patch, status, delete', async () => {
  const created = await server.request('POST', ingresses, {
    body: {
      ...ingress('web', {
        ingressClassName: 'nginx',
        rules: [{ host: 'web.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend }] } }],
      }),
      status: { loadBalancer: { ingress: [{ ip: '10.0.0.1' }] } },
    },
  });
  assert.equal(created.status, 201, created.text);
  assert.deepEqual(created.warnings, []);
  const obj = created.json();
  assert.equal(at(obj, 'metadata', 'generation'), 1);
  assert.deepEqual(obj['status'], { loadBalancer: {} });
  assert.equal(at(obj, 'spec', 'rules', 0, 'http', 'paths', 0, 'pathType'), 'Prefix');

  const got = await server.request('GET', `${ingresses}/web`);
  assert.equal(got.status, 200);
  const list = await server.request('GET', ingresses);
  assert.deepEqual(
    list.json<{ items: Json[] }>().items.map((i) => at(i, 'metadata', 'name')),
    ['web'],
  );

  // A label change keeps the generation; a spec change bumps it; status is ignored on the main resource.
  const labelled = await server.request('PATCH', `${ingresses}/web`, {
    contentType: mergePatch,
    body: {
      metadata: { labels: { app: 'web' } },
      status: { loadBalancer: { ingress: [{ ip: '1.1.1.1' }] } },
    },
  });
  assert.equal(labelled.status, 200, labelled.text);
  assert.equal(at(labelled.json(), 'metadata', 'generation'), 1);
  assert.deepEqual(labelled.json()['status'], { loadBalancer: {} });
  const updated = got.json();
  (updated['spec'] as Json)['tls'] = [{ hosts: ['web.example.com'], secretName: 'web-tls' }];
  delete (updated['metadata'] as Json)['resourceVersion'];
  const put = await server.request('PUT', `${ingresses}/web`, { body: updated });
  assert.equal(put.status, 200, put.text);
  assert.equal(at(put.json(), 'metadata', 'generation'), 2);

  // /status writes the load balancer; the spec sent with it is ignored.
  const status = await server.request('PATCH', `${ingresses}/web/status`, {
    contentType: mergePatch,
    body: {
      spec: { ingressClassName: 'other' },
      status: { loadBalancer: { ingress: [{ ip: '10.0.0.2' }, { hostname: 'lb.example.com' }] } },
    },
  });
  assert.equal(status.status, 200, status.text);
  assert.equal(at(status.json(), 'spec', 'ingressClassName'), 'nginx');
  assert.equal(at(status.json(), 'metadata', 'generation'), 2);
  assert.deepEqual(at(status.json(), 'status', 'loadBalancer', 'ingress'), [
    { ip: '10.0.0.2' },
    { hostname: 'lb.example.com' },
  ]);
  const badStatus = await server.request('PUT', `${ingresses}/web/status`, {
    body: { ...status.json(), status: { loadBalancer: { ingress: [{ ip: '10.0.0.300' }] } } },
  });
  assert.equal(badStatus.status, 422, badStatus.text);
  assert.equal(
    badStatus.json()['message'],
    'Ingress.networking.k8s.io "web" is invalid: status.loadBalancer.ingress[0].ip: Invalid value: "10.0.0.300": must be a valid IP address',
  );

  const rows = await server.request('GET', ingresses, { accept: table });
  assert.equal(rows.status, 200, rows.text);
  const doc = rows.json<{ columnDefinitions: Json[]; rows: { cells: unknown[] }[] }>();
  assert.deepEqual(
    doc.columnDefinitions.map((c) => c['name']),
    ['Name', 'Class', 'Hosts', 'Address', 'Ports', 'Age'],
  );
  assert.deepEqual(doc.rows[0]?.cells.slice(0, 5), [
    'web',
    'nginx',
    'web.example.com',
    '10.0.0.2,lb.example.com',
    '80, 443',
  ]);

  const deleted = await server.request('DELETE', `${ingresses}/web`);
  assert.equal(deleted.status, 200, deleted.text);
  assert.equal((await server.request('GET', `${ingresses}/web`)).status, 404);
});

test('Ingress class annotation: allowed when it matches ingressClassName, warned when alone', async () => {
  const annotations = { 'kubernetes.io/ingress.class': 'nginx' };
  const both = await server.request('POST', ingresses, {
    body: ingress('both', { ingressClassName: 'nginx', defaultBackend: backend }, annotations),
  });
  assert.equal(both.status, 201, both.text);
  assert.deepEqual(both.warnings, []);
  const differ = await server.request('POST', ingresses, {
    body: ingress('differ', { ingressClassName: 'other', defaultBackend: backend }, annotations),
  });
  assert.equal(differ.status, 422, differ.text);
  assert.equal(
    differ.json()['message'],
    'Ingress.networking.k8s.io "differ" is invalid: annotations.kubernetes.io/ingress.class: Invalid value: "nginx": must match `ingressClassName` when both are specified',
  );
  const alone = await server.request('POST', ingresses, {
    body: ingress('alone', { defaultBackend: backend }, annotations),
  });
  assert.equal(alone.status, 201, alone.text);
  assert.deepEqual(alone.warnings, [
    `annotation "kubernetes.io/ingress.class" is deprecated, please use 'spec.ingressClassName' instead`,
  ]);
});

test('Ingress validation errors as the Status message lists them', async () => {
  const r = await server.request('POST', ingresses, {
    body: ingress('bad', {
      rules: [
        { host: '10.0.0.1', http: { paths: [{ path: 'x', pathType: 'Exact', backend }] } },
        { host: 'a.com', http: { paths: [{ path: '/', backend: { service: { name: 'web', port: {} } } }] } },
      ],
    }),
  });
  assert.equal(r.status, 422, r.text);
  assert.equal(
    r.json()['message'],
    'Ingress.networking.k8s.io "bad" is invalid: [spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address, spec.rules[0].http.paths[0].path: Invalid value: "x": must be an absolute path, spec.rules[1].http.paths[0].pathType: Required value: pathType must be specified]',
  );
  const empty = await server.request('POST', ingresses, { body: ingress('empty', {}) });
  assert.equal(empty.status, 422, empty.text);
  assert.equal(
    empty.json()['message'],
    'Ingress.networking.k8s.io "empty" is invalid: spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified',
  );
});

test('IngressClass: cluster-scoped, scope defaulted, controller immutable, Table', async () => {
  const created = await server.request('POST', classes, {
    body: {
      apiVersion: `${group}/v1`,
      kind: 'IngressClass',
      metadata: { name: 'external' },
      spec: {
        controller: 'example.com/ingress-controller',
        parameters: { apiGroup: 'k8s.example.com', kind: 'IngressParameters', name: 'external-lb' },
      },
    },
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(at(created.json(), 'spec', 'parameters', 'scope'), 'Cluster');
  assert.equal(at(created.json(), 'metadata', 'namespace'), undefined);
  assert.equal(at(created.json(), 'metadata', 'generation'), 1);

  const changed = await server.request('PATCH', `${classes}/external`, {
    contentType: mergePatch,
    body: { spec: { controller: 'example.com/other' } },
  });
  assert.equal(changed.status, 422, changed.text);
  assert.equal(
    changed.json()['message'],
    'IngressClass.networking.k8s.io "external" is invalid: spec.controller: Invalid value: "example.com/other": field is immutable',
  );
  const bad = await server.request('POST', classes, {
    body: {
      apiVersion: `${group}/v1`,
      kind: 'IngressClass',
      metadata: { name: 'bad' },
      spec: { controller: 'nginx', parameters: { kind: 'K', name: 'n', scope: 'Namespace' } },
    },
  });
  assert.equal(bad.status, 422, bad.text);
  assert.equal(
    bad.json()['message'],
    `IngressClass.networking.k8s.io "bad" is invalid: [spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo"), spec.parameters.namespace: Required value: \`parameters.scope\` is set to 'Namespace']`,
  );

  const rows = await server.request('GET', classes, { accept: table });
  const doc = rows.json<{ columnDefinitions: Json[]; rows: { cells: unknown[] }[] }>();
  assert.deepEqual(
    doc.columnDefinitions.map((c) => c['name']),
    ['Name', 'Controller', 'Parameters', 'Age'],
  );
  assert.deepEqual(doc.rows[0]?.cells.slice(0, 3), [
    'external',
    'example.com/ingress-controller',
    'IngressParameters.k8s.example.com/external-lb',
  ]);
});

test('NetworkPolicy: defaults, validation, generation and Table', async () => {
  const created = await server.request('POST', policies, {
    body: {
      apiVersion: `${group}/v1`,
      kind: 'NetworkPolicy',
      metadata: { name: 'db' },
      spec: {
        podSelector: { matchLabels: { role: 'db' } },
        ingress: [
          {
            from: [{ ipBlock: { cidr: '172.17.0.0/16', except: ['172.17.1.0/24'] } }],
            ports: [{ port: 6379 }],
          },
        ],
        egress: [{ to: [{ namespaceSelector: {} }], ports: [{ port: 53, protocol: 'UDP' }] }],
      },
    },
  });
  assert.equal(created.status, 201, created.text);
  const obj = created.json();
  assert.deepEqual(at(obj, 'spec', 'policyTypes'), ['Ingress', 'Egress']);
  assert.deepEqual(at(obj, 'spec', 'ingress', 0, 'ports'), [{ protocol: 'TCP', port: 6379 }]);
  assert.equal(at(obj, 'metadata', 'generation'), 1);
  assert.deepEqual(obj['status'], {}, 'v1.27 NetworkPolicy has a (zero) status struct');

  const patched = await server.request('PATCH', `${policies}/db`, {
    contentType: mergePatch,
    body: { spec: { podSelector: { matchLabels: { role: 'cache' } } } },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(at(patched.json(), 'metadata', 'generation'), 2);

  const bad = await server.request('POST', policies, {
    body: {
      apiVersion: `${group}/v1`,
      kind: 'NetworkPolicy',
      metadata: { name: 'bad' },
      spec: {
        podSelector: {},
        ingress: [
          {
            from: [{}, { ipBlock: { cidr: '10.0.0.0/16', except: ['10.1.0.0/24'] } }],
            ports: [{ port: 90, endPort: 80 }],
          },
        ],
        policyTypes: ['Ingress', 'Egress', 'Other'],
      },
    },
  });
  assert.equal(bad.status, 422, bad.text);
  assert.equal(
    bad.json()['message'],
    'NetworkPolicy.networking.k8s.io "bad" is invalid: [spec.ingress[0].ports[0].endPort: Invalid value: 90: must be greater than or equal to `port`, spec.ingress[0].from[0]: Required value: must specify a peer, spec.ingress[0].from[1].ipBlock.except[0]: Invalid value: "10.1.0.0/24": must be a strict subset of `cidr`, spec.policyTypes: Invalid value: []networking.PolicyType{"Ingress", "Egress", "Other"}: may not specify more than two policyTypes]',
  );

  const rows = await server.request('GET', policies, { accept: table });
  const doc = rows.json<{ columnDefinitions: Json[]; rows: { cells: unknown[] }[] }>();
  assert.deepEqual(
    doc.columnDefinitions.map((c) => c['name']),
    ['Name', 'Pod-Selector', 'Age'],
  );
  assert.deepEqual(doc.rows[0]?.cells.slice(0, 2), ['db', 'role=cache']);
  assert.equal((await server.request('GET', `${policies}/db/status`)).status, 404);
  assert.equal((await server.request('DELETE', `${policies}/db`)).status, 200);
});
