/**
 * Apiextensions.k8s.io/v1 CustomResourceDefinition and apiregistration.k8s.io/v1
 * APIService (+status) are stored and validated as kube-apiserver v1.27 does: discovery as the
 * reference server's, defaults, validation messages, status strategies and Table columns. Serving
 * the custom resources a CRD defines is not part of this test.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { apiextensionsV1Resources } from '../../src/registry/resources/apiextensions/index.js';
import { apiregistrationV1Resources } from '../../src/registry/resources/apiregistration/index.js';
import { waitFor } from '../support/poll.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const crdBase = '/apis/apiextensions.k8s.io/v1';
const crds = `${crdBase}/customresourcedefinitions`;
const regBase = '/apis/apiregistration.k8s.io/v1';
const apiservices = `${regBase}/apiservices`;
const table = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const mergePatch = 'application/merge-patch+json';
const refDir = join(process.cwd(), '../shared/reference/kube-apiserver-v1.28.7/default/discovery');

let server: TestServer;
before(async () => {
  server = await startTestServer({ controllers: false });
  // Until the composition root serves the groups, register them here (the same resources).
  if ((await server.request('GET', crdBase)).status === 404) {
    for (const r of apiextensionsV1Resources) server.resources.add(r);
  }
  if ((await server.request('GET', regBase)).status === 404) {
    for (const r of apiregistrationV1Resources) server.resources.add(r);
  }
});
after(() => server.stop());

type Json = Record<string, unknown>;
const at = (o: unknown, ...path: (string | number)[]): unknown =>
  path.reduce<unknown>((v, k) => (v as Record<string | number, unknown> | undefined)?.[k], o);

const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object' } } } };

function crd(name: string, spec: Json): Json {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name },
    spec,
  };
}

const widgets = crd('widgets.example.com', {
  group: 'example.com',
  scope: 'Namespaced',
  names: { plural: 'widgets', kind: 'Widget', shortNames: ['wd'] },
  versions: [{ name: 'v1', served: true, storage: true, schema, subresources: { status: {} } }],
});

for (const [base, file] of [
  [crdBase, 'apis_apiextensions.k8s.io_v1.json'],
  [regBase, 'apis_apiregistration.k8s.io_v1.json'],
] as const) {
  test(`discovery of ${base} equals the reference server`, async (t) => {
    const r = await server.request('GET', base);
    assert.equal(r.status, 200, r.text);
    const refFile = join(refDir, file);
    if (!existsSync(refFile)) {
      t.skip(`reference discovery not found at ${refFile}`);
      return;
    }
    const ref = (JSON.parse(readFileSync(refFile, 'utf8')) as { resources: Json[] }).resources;
    assert.deepEqual(r.json<{ resources: Json[] }>().resources, ref);
  });
}

test('CRD lifecycle: defaults, stored versions, generation, status, Table, delete', async () => {
  const created = await server.request('POST', crds, { body: widgets });
  assert.equal(created.status, 201, created.text);
  const obj = created.json();
  assert.deepEqual(at(obj, 'spec', 'names'), {
    plural: 'widgets',
    singular: 'widget',
    shortNames: ['wd'],
    kind: 'Widget',
    listKind: 'WidgetList',
  });
  assert.deepEqual(at(obj, 'spec', 'conversion'), { strategy: 'None' });
  assert.equal(at(obj, 'metadata', 'generation'), 1);
  assert.deepEqual(at(obj, 'status', 'storedVersions'), ['v1']);
  assert.deepEqual(at(obj, 'status', 'acceptedNames'), { kind: '', plural: '' });

  // Updates need a resourceVersion.
  const unconditional = { ...obj, metadata: { ...(obj['metadata'] as Json), resourceVersion: undefined } };
  const noRv = await server.request('PUT', `${crds}/widgets.example.com`, { body: unconditional });
  assert.equal(noRv.status, 422, noRv.text);

  // A new storage version joins storedVersions and bumps the generation.
  const patched = await server.request('PATCH', `${crds}/widgets.example.com`, {
    contentType: 'application/json-patch+json',
    body: [
      { op: 'replace', path: '/spec/versions/0/storage', value: false },
      {
        op: 'add',
        path: '/spec/versions/-',
        value: { name: 'v2', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
      },
    ],
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(at(patched.json(), 'metadata', 'generation'), 2);
  assert.deepEqual(at(patched.json(), 'status', 'storedVersions'), ['v1', 'v2']);

  const immutable = await server.request('PATCH', `${crds}/widgets.example.com`, {
    contentType: mergePatch,
    body: { spec: { group: 'example.org' } },
  });
  assert.equal(immutable.status, 422, immutable.text);
  assert.equal(
    immutable.json()['message'],
    'CustomResourceDefinition.apiextensions.k8s.io "widgets.example.com" is invalid: spec.group: Invalid value: "example.org": field is immutable',
  );

  // /status writes conditions and accepted names; the spec sent with it is ignored.
  const status = await server.request('PATCH', `${crds}/widgets.example.com/status`, {
    contentType: mergePatch,
    body: {
      spec: { scope: 'Cluster' },
      status: {
        acceptedNames: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        conditions: [
          {
            type: 'Established',
            status: 'True',
            reason: 'InitialNamesAccepted',
            message: 'the initial names have been accepted',
          },
        ],
      },
    },
  });
  assert.equal(status.status, 200, status.text);
  assert.equal(at(status.json(), 'spec', 'scope'), 'Namespaced');
  assert.equal(at(status.json(), 'status', 'acceptedNames', 'kind'), 'Widget');
  assert.equal(at(status.json(), 'metadata', 'generation'), 2);

  const rows = await server.request('GET', crds, { accept: table });
  assert.equal(rows.status, 200, rows.text);
  const doc = rows.json<{ columnDefinitions: Json[]; rows: { cells: unknown[] }[] }>();
  assert.deepEqual(
    doc.columnDefinitions.map((c) => c['name']),
    ['Name', 'Created At'],
  );
  assert.equal(doc.rows[0]?.cells[0], 'widgets.example.com');
  assert.match(String(doc.rows[0]?.cells[1]), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

  // Marked Terminating with the cleanup finalizer; gone once the finalizer controller is done.
  const deleted = await server.request('DELETE', `${crds}/widgets.example.com`);
  assert.equal(deleted.status, 200, deleted.text);
  assert.deepEqual(at(deleted.json(), 'metadata', 'finalizers'), [
    'customresourcecleanup.apiextensions.k8s.io',
  ]);
  await waitFor(
    'the CRD deleted',
    async () => (await server.request('GET', `${crds}/widgets.example.com`)).status === 404,
  );
});

test('CRD validation errors as the Status message lists them', async () => {
  const bad = await server.request('POST', crds, {
    body: crd('things.example.com', {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'gadgets', kind: 'Gadget' },
      versions: [{ name: 'v1', served: true, storage: true }],
    }),
  });
  assert.equal(bad.status, 422, bad.text);
  assert.equal(
    bad.json()['message'],
    'CustomResourceDefinition.apiextensions.k8s.io "things.example.com" is invalid: [metadata.name: Invalid value: "things.example.com": must be spec.names.plural+"."+spec.group, spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required]',
  );
  const pruning = await server.request('POST', crds, {
    body: crd('gadgets.example.com', {
      group: 'example.com',
      scope: 'Cluster',
      names: { plural: 'gadgets', kind: 'Gadget' },
      preserveUnknownFields: true,
      versions: [{ name: 'v1', served: true, storage: true, schema }],
    }),
  });
  assert.equal(pruning.status, 422, pruning.text);
  assert.equal(
    pruning.json()['message'],
    'CustomResourceDefinition.apiextensions.k8s.io "gadgets.example.com" is invalid: spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
  );
});

test('APIService: local ones are Available, services are listed, status subresource, Table', async () => {
  const local = await server.request('POST', apiservices, {
    body: {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1alpha1.example.com' },
      spec: { group: 'example.com', version: 'v1alpha1', groupPriorityMinimum: 1000, versionPriority: 15 },
    },
  });
  assert.equal(local.status, 201, local.text);
  assert.deepEqual(
    (at(local.json(), 'status', 'conditions') as Json[]).map((c) => [
      c['type'],
      c['status'],
      c['reason'],
      c['message'],
    ]),
    [['Available', 'True', 'Local', 'Local APIServices are always available']],
  );
  const remote = await server.request('POST', apiservices, {
    body: {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1beta1.metrics.k8s.io' },
      spec: {
        group: 'metrics.k8s.io',
        version: 'v1beta1',
        groupPriorityMinimum: 100,
        versionPriority: 100,
        insecureSkipTLSVerify: true,
        service: { namespace: 'kube-system', name: 'metrics-server' },
      },
    },
  });
  assert.equal(remote.status, 201, remote.text);
  assert.equal(at(remote.json(), 'spec', 'service', 'port'), 443);
  assert.deepEqual(remote.json()['status'], {});

  const status = await server.request('PATCH', `${apiservices}/v1beta1.metrics.k8s.io/status`, {
    contentType: mergePatch,
    body: {
      spec: { versionPriority: 5 },
      status: {
        conditions: [
          {
            type: 'Available',
            status: 'False',
            reason: 'ServiceNotFound',
            message: 'service/metrics-server in "kube-system" is not present',
            lastTransitionTime: '2024-01-01T00:00:00Z',
          },
        ],
      },
    },
  });
  assert.equal(status.status, 200, status.text);
  assert.equal(at(status.json(), 'spec', 'versionPriority'), 100);

  const rows = await server.request('GET', apiservices, { accept: table });
  assert.equal(rows.status, 200, rows.text);
  const doc = rows.json<{ columnDefinitions: Json[]; rows: { cells: unknown[] }[] }>();
  assert.deepEqual(
    doc.columnDefinitions.map((c) => c['name']),
    ['Name', 'Service', 'Available', 'Age'],
  );
  const byName = new Map(doc.rows.map((r) => [r.cells[0], r.cells.slice(1, 3)]));
  assert.deepEqual(byName.get('v1alpha1.example.com'), ['Local', 'True']);
  assert.deepEqual(byName.get('v1beta1.metrics.k8s.io'), [
    'kube-system/metrics-server',
    'False (ServiceNotFound)',
  ]);
  // Wired by the composition root (when it is): kube-apiserver's own local APIServices.
  if (byName.has('v1.')) {
    assert.deepEqual(byName.get('v1.'), ['Local', 'True']);
    const core = await server.request('GET', `${apiservices}/v1.`);
    assert.deepEqual(core.json()['spec'], { version: 'v1', groupPriorityMinimum: 18000, versionPriority: 1 });
    assert.deepEqual(byName.get('v1.apps'), ['Local', 'True']);
  }

  const bad = await server.request('POST', apiservices, {
    body: {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1.wrong' },
      spec: { group: 'example.com', version: 'v1', groupPriorityMinimum: 0, versionPriority: 1 },
    },
  });
  assert.equal(bad.status, 422, bad.text);
  assert.equal(
    bad.json()['message'],
    'APIService.apiregistration.k8s.io "v1.wrong" is invalid: [metadata.name: Invalid value: "v1.wrong": must be `spec.version+"."+spec.group`: "v1.example.com", spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000]',
  );
});
