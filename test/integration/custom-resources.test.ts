/**
 * Custom resources served from CRDs (apiextensions-apiserver v0.27's behaviour): names
 * accepted and Established conditions, endpoints per served version (namespaced and
 * cluster-scoped), discovery (legacy and aggregated, AM-15), printer columns, status and scale
 * subresources, `None` conversion between versions, terminating CRDs and the cleanup finalizer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { adminClient, startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { waitFor } from '../support/poll.js';

type Obj = Record<string, unknown>;
const crdsPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

function crontabCRD(overrides: Obj = {}): Obj {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: {
        plural: 'crontabs',
        singular: 'crontab',
        kind: 'CronTab',
        shortNames: ['ct'],
        categories: ['all'],
      },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: {
                    cronSpec: { type: 'string' },
                    image: { type: 'string' },
                    replicas: { type: 'integer', minimum: 0, maximum: 10 },
                    mode: { type: 'string', enum: ['auto', 'manual'], default: 'auto' },
                  },
                },
                status: {
                  type: 'object',
                  properties: { replicas: { type: 'integer' }, labelSelector: { type: 'string' } },
                },
              },
            },
          },
          subresources: {
            status: {},
            scale: {
              specReplicasPath: '.spec.replicas',
              statusReplicasPath: '.status.replicas',
              labelSelectorPath: '.status.labelSelector',
            },
          },
          additionalPrinterColumns: [
            { name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' },
            { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
        },
        {
          name: 'v1beta1',
          served: true,
          storage: false,
          deprecated: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
      ...overrides,
    },
  };
}

function crontab(name: string, spec: Obj = { cronSpec: '* * * * */5', image: 'my-cron', replicas: 1 }): Obj {
  return { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name }, spec };
}

async function establish(server: TestServer, crd: Obj): Promise<Obj> {
  const created = await server.request('POST', crdsPath, { body: crd });
  assert.equal(created.status, 201, created.text);
  const name = (crd['metadata'] as Obj)['name'] as string;
  return waitFor(`${name} Established`, async () => {
    const r = await server.request('GET', `${crdsPath}/${name}`);
    const conditions = ((r.json()['status'] as Obj | undefined)?.['conditions'] ?? []) as Obj[];
    return conditions.some((c) => c['type'] === 'Established' && c['status'] === 'True')
      ? r.json()
      : undefined;
  });
}

describe('custom resources', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ controllers: false });
  });
  after(async () => {
    await server.stop();
  });

  it('accepts the names and establishes the CRD', async () => {
    const crd = await establish(server, crontabCRD());
    const status = crd['status'] as Obj;
    assert.deepEqual(status['acceptedNames'], {
      plural: 'crontabs',
      singular: 'crontab',
      shortNames: ['ct'],
      kind: 'CronTab',
      listKind: 'CronTabList',
      categories: ['all'],
    });
    const conditions = status['conditions'] as Obj[];
    const byType: Record<string, Obj> = Object.fromEntries(conditions.map((c) => [String(c['type']), c]));
    assert.equal((byType['NamesAccepted'] as Obj)['reason'], 'NoConflicts');
    assert.equal((byType['NamesAccepted'] as Obj)['message'], 'no conflicts found');
    assert.equal((byType['Established'] as Obj)['reason'], 'InitialNamesAccepted');
    assert.deepEqual(status['storedVersions'], ['v1']);
  });

  it('serves the custom resources: create, get, list, status and generation', async () => {
    const path = '/apis/stable.example.com/v1/namespaces/default/crontabs';
    const created = await server.request('POST', path, {
      body: { ...crontab('c1'), status: { replicas: 9 } },
    });
    assert.equal(created.status, 201, created.text);
    const obj = created.json();
    assert.equal((obj['metadata'] as Obj)['generation'], 1);
    assert.equal(obj['status'], undefined, 'status is dropped on create with the status subresource');
    const got = await server.request('GET', `${path}/c1`);
    assert.equal(got.status, 200);
    assert.equal((got.json()['spec'] as Obj)['image'], 'my-cron');
    const list = await server.request('GET', path);
    assert.equal(list.json()['kind'], 'CronTabList');
    assert.equal(list.json()['apiVersion'], 'stable.example.com/v1');
    const all = await server.request('GET', '/apis/stable.example.com/v1/crontabs');
    assert.equal((all.json()['items'] as Obj[]).length, 1);
    // The status subresource writes status only.
    const current = got.json();
    const st = await server.request('PUT', `${path}/c1/status`, {
      body: { ...current, spec: { image: 'ignored' }, status: { replicas: 2, labelSelector: 'a=b' } },
    });
    assert.equal(st.status, 200, st.text);
    assert.deepEqual(st.json()['status'], { replicas: 2, labelSelector: 'a=b' });
    assert.equal((st.json()['spec'] as Obj)['image'], 'my-cron');
    assert.equal((st.json()['metadata'] as Obj)['generation'], 1);
    // A spec change bumps the generation.
    const patched = await server.request('PATCH', `${path}/c1`, {
      body: { spec: { image: 'new' } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal((patched.json()['metadata'] as Obj)['generation'], 2);
    assert.deepEqual(patched.json()['status'], { replicas: 2, labelSelector: 'a=b' });
  });

  it('validates against the schema, prunes unknown fields and defaults (fieldValidation)', async () => {
    const path = '/apis/stable.example.com/v1/namespaces/default/crontabs';
    const bad = await server.request('POST', path, {
      body: crontab('bad', { replicas: 'x', mode: 'sometimes' }),
    });
    assert.equal(bad.status, 422, bad.text);
    // kube-openapi reports properties in Go map order: compare the causes as a set.
    const causes = ((bad.json()['details'] as Obj)['causes'] as Obj[]).map(
      (c) => `${String(c['field'])}: ${String(c['message'])}`,
    );
    assert.deepEqual(causes.sort(), [
      '.spec.replicas: Invalid value: 0: .spec.replicas accessor error: x is of the type string, expected int64',
      'spec.mode: Unsupported value: "sometimes": supported values: "auto", "manual"',
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    ]);
    const big = await server.request('POST', path, { body: crontab('big', { replicas: 11 }) });
    assert.equal(big.status, 422, big.text);
    assert.match(
      String(big.json()['message']),
      /spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10/,
    );
    const warned = await server.request('POST', path, {
      body: { ...crontab('pruned', { image: 'x', extra: 1 }), top: true },
    });
    assert.equal(warned.status, 201, warned.text);
    assert.deepEqual(warned.warnings, ['unknown field "spec.extra"', 'unknown field "top"']);
    assert.deepEqual(warned.json()['spec'], { image: 'x', mode: 'auto' });
    assert.equal(warned.json()['top'], undefined);
    const strict = await server.request('POST', `${path}?fieldValidation=Strict`, {
      body: crontab('strict', { image: 'x', extra: 1 }),
    });
    assert.equal(strict.status, 400, strict.text);
    assert.equal(
      strict.json()['message'],
      'CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.extra"',
    );
    const del = await server.request('DELETE', `${path}/pruned`);
    assert.equal(del.status, 200, del.text);
  });

  it('serves the scale subresource from the CRD paths', async () => {
    const path = '/apis/stable.example.com/v1/namespaces/default/crontabs/c1/scale';
    const scale = await server.request('GET', path);
    assert.equal(scale.status, 200, scale.text);
    assert.equal(scale.json()['kind'], 'Scale');
    assert.deepEqual(scale.json()['spec'], { replicas: 1 });
    assert.deepEqual(scale.json()['status'], { replicas: 2, selector: 'a=b' });
    const put = await server.request('PATCH', path, {
      body: { spec: { replicas: 5 } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(put.status, 200, put.text);
    const obj = await server.request('GET', '/apis/stable.example.com/v1/namespaces/default/crontabs/c1');
    assert.equal((obj.json()['spec'] as Obj)['replicas'], 5);
  });

  it('prints the additional printer columns in Table output', async () => {
    const r = await server.request('GET', '/apis/stable.example.com/v1/namespaces/default/crontabs', {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
    assert.equal(r.status, 200, r.text);
    const table = r.json();
    const columns = (table['columnDefinitions'] as Obj[]).map((c) => [c['name'], c['type']]);
    assert.deepEqual(columns, [
      ['Name', 'string'],
      ['Spec', 'string'],
      ['Replicas', 'integer'],
      ['Age', 'date'],
    ]);
    const cells = ((table['rows'] as Obj[])[0]!['cells'] as unknown[]).slice(0, 3);
    assert.deepEqual(cells, ['c1', '* * * * */5', 5]);
  });

  it('serves every served version with None conversion', async () => {
    const r = await server.request('GET', '/apis/stable.example.com/v1beta1/namespaces/default/crontabs/c1');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json()['apiVersion'], 'stable.example.com/v1beta1');
    assert.deepEqual(r.warnings, ['stable.example.com/v1beta1 CronTab is deprecated']);
    const created = await server.request(
      'POST',
      '/apis/stable.example.com/v1beta1/namespaces/default/crontabs',
      {
        body: {
          apiVersion: 'stable.example.com/v1beta1',
          kind: 'CronTab',
          metadata: { name: 'c2' },
          spec: {},
        },
      },
    );
    assert.equal(created.status, 201, created.text);
    const asV1 = await server.request('GET', '/apis/stable.example.com/v1/namespaces/default/crontabs/c2');
    assert.equal(asV1.json()['apiVersion'], 'stable.example.com/v1');
  });

  it('lists the group in legacy and aggregated discovery (AM-15)', async () => {
    const groups = await server.request('GET', '/apis');
    const group = (groups.json()['groups'] as Obj[]).find((g) => g['name'] === 'stable.example.com');
    assert.ok(group, 'group listed');
    const resources = await server.request('GET', '/apis/stable.example.com/v1');
    const crontabs = (resources.json()['resources'] as Obj[]).find((r) => r['name'] === 'crontabs');
    assert.deepEqual(crontabs?.['shortNames'], ['ct']);
    assert.deepEqual(crontabs?.['categories'], ['all']);
    assert.equal(crontabs?.['kind'], 'CronTab');
    assert.equal(crontabs?.['namespaced'], true);
    const names = (resources.json()['resources'] as Obj[]).map((r) => r['name']);
    assert.deepEqual(names.sort(), ['crontabs', 'crontabs/scale', 'crontabs/status']);
    const aggregated = await server.request('GET', '/apis', {
      accept: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList',
    });
    assert.ok(aggregated.text.includes('"stable.example.com"'), 'aggregated discovery lists the group');
  });

  it('publishes the versions in OpenAPI v2 and v3 (kubectl explain)', async () => {
    const index = await server.request('GET', '/openapi/v3');
    const paths = index.json()['paths'] as Obj;
    assert.ok(paths['apis/stable.example.com/v1'], 'v3 index lists the group-version');
    const doc = await server.request('GET', '/openapi/v3/apis/stable.example.com/v1');
    assert.equal(doc.status, 200, doc.text);
    const schemas = (doc.json()['components'] as Obj)['schemas'] as Obj;
    const kind = schemas['com.example.stable.v1.CronTab'] as Obj;
    assert.ok(kind, Object.keys(schemas).join(', '));
    assert.deepEqual(kind['x-kubernetes-group-version-kind'], [
      { group: 'stable.example.com', kind: 'CronTab', version: 'v1' },
    ]);
    const spec = (kind['properties'] as Obj)['spec'] as Obj;
    assert.equal(((spec['properties'] as Obj)['replicas'] as Obj)['type'], 'integer');
    assert.ok(schemas['com.example.stable.v1.CronTabList']);
    assert.ok(
      (doc.json()['paths'] as Obj)['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}'],
    );
    const v2 = await server.request('GET', '/openapi/v2');
    const defs = v2.json()['definitions'] as Obj;
    assert.ok(defs['com.example.stable.v1.CronTab'], 'v2 definitions');
  });

  it('refuses a conflicting plural and reports it in NamesAccepted', async () => {
    const crd = crontabCRD({
      names: { plural: 'crontabs2', singular: 'crontab', kind: 'CronTab2', listKind: 'CronTab2List' },
      versions: [
        { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
      ],
    });
    (crd['metadata'] as Obj)['name'] = 'crontabs2.stable.example.com';
    const created = await server.request('POST', crdsPath, { body: crd });
    assert.equal(created.status, 201, created.text);
    const cond = await waitFor('NamesAccepted False', async () => {
      const r = await server.request('GET', `${crdsPath}/crontabs2.stable.example.com`);
      const conditions = ((r.json()['status'] as Obj | undefined)?.['conditions'] ?? []) as Obj[];
      return conditions.find((c) => c['type'] === 'NamesAccepted' && c['status'] === 'False');
    });
    assert.equal(cond['reason'], 'SingularConflict');
    assert.equal(cond['message'], '"crontab" is already in use');
    // Never established: deleting it completes at once ("NeverEstablished").
    const del = await server.request('DELETE', `${crdsPath}/crontabs2.stable.example.com`);
    assert.equal(del.status, 200, del.text);
    await waitFor('crontabs2 gone', async () => {
      const r = await server.request('GET', `${crdsPath}/crontabs2.stable.example.com`);
      return r.status === 404;
    });
  });

  it('serves cluster-scoped custom resources', async () => {
    await establish(server, {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'clusterthings.example.org' },
      spec: {
        group: 'example.org',
        scope: 'Cluster',
        names: { plural: 'clusterthings', singular: 'clusterthing', kind: 'ClusterThing' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        ],
      },
    });
    const created = await server.request('POST', '/apis/example.org/v1/clusterthings', {
      body: { apiVersion: 'example.org/v1', kind: 'ClusterThing', metadata: { name: 't1' }, data: { x: 1 } },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal((created.json()['metadata'] as Obj)['namespace'], undefined);
    const table = await server.request('GET', '/apis/example.org/v1/clusterthings', {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
    assert.deepEqual(
      (table.json()['columnDefinitions'] as Obj[]).map((c) => c['name']),
      ['Name', 'Age'],
    );
  });

  it('deleting a CRD deletes its custom resources, then the CRD (customresourcecleanup)', async () => {
    const del = await server.request('DELETE', `${crdsPath}/crontabs.stable.example.com`);
    assert.equal(del.status, 200, del.text);
    const marked = del.json();
    assert.ok((marked['metadata'] as Obj)['deletionTimestamp']);
    assert.deepEqual((marked['metadata'] as Obj)['finalizers'], [
      'customresourcecleanup.apiextensions.k8s.io',
    ]);
    await waitFor('the CRD gone', async () => {
      const r = await server.request('GET', `${crdsPath}/crontabs.stable.example.com`);
      return r.status === 404;
    });
    await waitFor('the endpoints gone', async () => {
      const r = await server.request('GET', '/apis/stable.example.com/v1/namespaces/default/crontabs');
      return r.status === 404;
    });
    // Recreated, the CRD serves no leftovers.
    await establish(server, crontabCRD());
    const list = await server.request('GET', '/apis/stable.example.com/v1/crontabs');
    assert.deepEqual(list.json()['items'], []);
  });
});

describe('custom resources with webhook conversion', () => {
  let server: TestServer;
  let webhook: Server;
  let calls = 0;
  let url = '';
  before(async () => {
    server = await startTestServer({ controllers: false });
    // The webhook serves with the test server's certificate (valid for 127.0.0.1, signed by its CA).
    webhook = createServer({ key: server.pki.servingKey, cert: server.pki.servingCert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        calls++;
        const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          request: { uid: string; desiredAPIVersion: string; objects: Obj[] };
        };
        const to = review.request.desiredAPIVersion;
        const convertedObjects = review.request.objects.map((o) => {
          const spec = { ...(o['spec'] as Obj) };
          if (to.endsWith('/v2')) spec['size'] = JSON.stringify(spec['size'] ?? '');
          else spec['size'] = Number(spec['size'] ?? 0);
          return { ...o, apiVersion: to, spec };
        });
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            apiVersion: 'apiextensions.k8s.io/v1',
            kind: 'ConversionReview',
            response: { uid: review.request.uid, convertedObjects, result: { status: 'Success' } },
          }),
        );
      });
    });
    await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', r));
    url = `https://127.0.0.1:${(webhook.address() as AddressInfo).port}/convert`;
    const schema = (sizeType: string): Obj => ({
      openAPIV3Schema: {
        type: 'object',
        properties: { spec: { type: 'object', properties: { size: { type: sizeType } } } },
      },
    });
    await establish(server, {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.conv.example.com' },
      spec: {
        group: 'conv.example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [
          { name: 'v1', served: true, storage: true, schema: schema('integer') },
          { name: 'v2', served: true, storage: false, schema: schema('string') },
        ],
        conversion: {
          strategy: 'Webhook',
          webhook: {
            conversionReviewVersions: ['v1'],
            clientConfig: { url, caBundle: Buffer.from(server.pki.caCert).toString('base64') },
          },
        },
      },
    });
  });
  after(async () => {
    await server.stop();
    await new Promise((r) => webhook.close(r));
  });

  const v1 = '/apis/conv.example.com/v1/namespaces/default/widgets';
  const v2 = '/apis/conv.example.com/v2/namespaces/default/widgets';

  it('creates at one version, stores at the storage version, reads at either', async () => {
    const created = await server.request('POST', v2, {
      body: {
        apiVersion: 'conv.example.com/v2',
        kind: 'Widget',
        metadata: { name: 'w1' },
        spec: { size: '7' },
      },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json()['apiVersion'], 'conv.example.com/v2');
    assert.deepEqual(created.json()['spec'], { size: '7' });
    const stored = await server.request('GET', `${v1}/w1`);
    assert.deepEqual(stored.json()['spec'], { size: 7 });
    const list = await server.request('GET', v2);
    assert.deepEqual(
      (list.json()['items'] as Obj[]).map((i) => i['spec']),
      [{ size: '7' }],
    );
    assert.ok(calls >= 3, `webhook called ${calls} times`);
  });

  it('watches at a converted version', async () => {
    const list = await server.request('GET', v2);
    const rv = (list.json()['metadata'] as Obj)['resourceVersion'] as string;
    const client = adminClient(server);
    const abort = new AbortController();
    const events: Obj[] = [];
    const watching = (async () => {
      for await (const ev of client.watch(`${v2}?watch=1&resourceVersion=${rv}`, abort.signal)) {
        events.push(ev.object);
        if (events.length === 1) abort.abort();
      }
    })().catch((err: unknown) => {
      if (!abort.signal.aborted) throw err;
    });
    await new Promise((r) => setTimeout(r, 100));
    const patched = await server.request('PATCH', `${v1}/w1`, {
      body: { spec: { size: 9 } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(patched.status, 200, patched.text);
    await watching;
    client.close();
    assert.equal(events[0]?.['apiVersion'], 'conv.example.com/v2');
    assert.deepEqual(events[0]?.['spec'], { size: '9' });
  });

  it('a failing webhook is an InternalError naming it', async () => {
    await new Promise((r) => webhook.close(r));
    webhook.closeAllConnections();
    const r = await server.request('GET', `${v2}/w1`);
    assert.equal(r.status, 500, r.text);
    assert.match(
      String(r.json()['message']),
      /^Internal error occurred: conversion webhook for conv\.example\.com\/v1, Kind=Widget failed: Post "https:\/\/127\.0\.0\.1:\d+\/convert\?timeout=30s": .+/,
    );
  });
});

describe('x-kubernetes-validations on custom resources (AM-03, AM-05, AM-09)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ controllers: false });
  });
  after(async () => {
    await server.stop();
  });

  const ruled = (validations: Obj[]): Obj => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'scalers.cel.example.com' },
    spec: {
      group: 'cel.example.com',
      scope: 'Namespaced',
      names: { plural: 'scalers', singular: 'scaler', kind: 'Scaler' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  'x-kubernetes-validations': validations,
                  properties: {
                    min: { type: 'integer' },
                    max: { type: 'integer' },
                    name: { type: 'string', maxLength: 20 },
                    tags: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 10 } },
                  },
                },
              },
            },
          },
        },
      ],
    },
  });
  const path = '/apis/cel.example.com/v1/namespaces/default/scalers';
  const scaler = (name: string, spec: Obj): Obj => ({
    apiVersion: 'cel.example.com/v1',
    kind: 'Scaler',
    metadata: { name },
    spec,
  });

  it('refuses a CRD whose rule does not compile, with the compiler error', async () => {
    const r = await server.request('POST', crdsPath, { body: ruled([{ rule: 'self.min < ' }]) });
    assert.equal(r.status, 422, r.text);
    assert.match(String(r.json()['message']), /compilation failed: ERROR: <input>:1:12: Syntax error/);
  });

  it('refuses a rule whose estimated cost exceeds the per-rule budget (AM-03)', async () => {
    const crd = ruled([{ rule: 'true' }]);
    const spec = (
      (((crd['spec'] as Obj)['versions'] as Obj[])[0]!['schema'] as Obj)['openAPIV3Schema'] as Obj
    )['properties'] as Obj;
    spec['items'] = {
      type: 'array',
      items: { type: 'string' },
      'x-kubernetes-validations': [{ rule: 'self.all(x, self.all(y, self.all(z, x + y + z != "")))' }],
    };
    const r = await server.request('POST', crdsPath, { body: crd });
    assert.equal(r.status, 422, r.text);
    assert.match(String(r.json()['message']), /estimated rule cost exceeds budget by factor of/);
  });

  it('validates custom resources: message, messageExpression and transition rules (AM-05)', async () => {
    await establish(
      server,
      ruled([
        { rule: 'self.min <= self.max', message: 'min must not exceed max' },
        {
          rule: "self.name.startsWith('s-')",
          messageExpression: "'name ' + self.name + ' lacks the s- prefix'",
        },
        { rule: 'self.max >= oldSelf.max', message: 'max may only grow' },
        { rule: 'self.tags.all(t, t.size() > 1)' },
      ]),
    );
    const ok = await server.request('POST', path, {
      body: scaler('a', { min: 1, max: 5, name: 's-a', tags: ['ab'] }),
    });
    assert.equal(ok.status, 201, ok.text);
    const bad = await server.request('POST', path, {
      body: scaler('b', { min: 9, max: 5, name: 'b', tags: ['x'] }),
    });
    assert.equal(bad.status, 422, bad.text);
    assert.equal(
      bad.json()['message'],
      'Scaler.cel.example.com "b" is invalid: [spec: Invalid value: "object": min must not exceed max, spec: Invalid value: "object": name b lacks the s- prefix, spec: Invalid value: "object": failed rule: self.tags.all(t, t.size() > 1)]',
    );
    const shrink = await server.request('PATCH', `${path}/a`, {
      body: { spec: { max: 2 } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(shrink.status, 422, shrink.text);
    assert.equal(
      shrink.json()['message'],
      'Scaler.cel.example.com "a" is invalid: spec: Invalid value: "object": max may only grow',
    );
  });

  it('a rule failing at run time is a field error, never an internal error (AM-09)', async () => {
    const crd = ruled([{ rule: 'self.tags[size(self.tags)] != ""' }]);
    const meta = crd['metadata'] as Obj;
    meta['name'] = 'indexers.cel.example.com';
    const spec = crd['spec'] as Obj;
    spec['names'] = { plural: 'indexers', singular: 'indexer', kind: 'Indexer' };
    await establish(server, crd);
    const r = await server.request('POST', '/apis/cel.example.com/v1/namespaces/default/indexers', {
      body: {
        apiVersion: 'cel.example.com/v1',
        kind: 'Indexer',
        metadata: { name: 'i' },
        spec: { tags: ['a'] },
      },
    });
    assert.equal(r.status, 422, r.text);
    assert.equal(
      r.json()['message'],
      // cel-go's attribute qualification error (interpreter/attributes.go).
      'Indexer.cel.example.com "i" is invalid: spec: Invalid value: "object": index out of bounds: 1 evaluating rule: self.tags[size(self.tags)] != ""',
    );
  });

  it('does not run rules over an object with blocking errors', async () => {
    const r = await server.request('POST', path, {
      body: scaler('c', { min: 1, max: 5, name: 'x'.repeat(21) }),
    });
    assert.equal(r.status, 422, r.text);
    assert.match(
      String(r.json()['message']),
      /<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation/,
    );
  });
});

describe('custom resources across a restart', () => {
  it('a restarted server serves the CRDs it stored, with their objects', async () => {
    const first = await startTestServer({ controllers: false });
    await establish(first, crontabCRD());
    const path = '/apis/stable.example.com/v1/namespaces/default/crontabs';
    const created = await first.request('POST', path, { body: crontab('kept') });
    assert.equal(created.status, 201, created.text);
    await first.stop({ keep: true });
    const second = await startTestServer({ controllers: false, dataDir: first.dataDir });
    try {
      const got = await waitFor('served again', async () => {
        const r = await second.request('GET', `${path}/kept`);
        return r.status === 200 ? r : undefined;
      });
      assert.equal((got.json()['spec'] as Obj)['image'], 'my-cron');
    } finally {
      await second.stop();
    }
  });
});

describe('server-side field validation of custom resources (upstream field_validation.go [Conformance])', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ controllers: false });
  });
  after(async () => {
    await server.stop();
  });

  const ports = {
    type: 'array',
    'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
    'x-kubernetes-list-type': 'map',
    items: {
      type: 'object',
      required: ['containerPort', 'protocol'],
      properties: {
        containerPort: { format: 'int32', type: 'integer' },
        hostIP: { type: 'string' },
        hostPort: { format: 'int32', type: 'integer' },
        name: { type: 'string' },
        protocol: { type: 'string' },
      },
    },
  };
  const cronSpec = { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' };
  let n = 0;
  /** A cluster-scoped CRD in the shape of upstream's fixture, with the given spec schema. */
  async function noxu(spec: Obj | undefined): Promise<string> {
    n++;
    const plural = `noxus${n}`;
    const schema =
      spec === undefined
        ? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }
        : { type: 'object', properties: { spec } };
    await establish(server, {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `${plural}.mygroup.example.com` },
      spec: {
        group: 'mygroup.example.com',
        scope: 'Cluster',
        names: { plural, singular: `noxu${n}`, kind: `WishIHadChosenNoxu${n}`, listKind: `NoxuItemList${n}` },
        versions: [
          { name: 'v1beta1', served: true, storage: true, schema: { openAPIV3Schema: schema } },
          { name: 'v1', served: true, storage: false, schema: { openAPIV3Schema: schema } },
        ],
      },
    });
    return plural;
  }
  const apply = (plural: string, yaml: string) =>
    server.request(
      'PATCH',
      `/apis/mygroup.example.com/v1beta1/${plural}/mytest?fieldManager=field_validation_mgr&fieldValidation=Strict`,
      { raw: yaml, contentType: 'application/apply-patch+yaml' },
    );
  const body = (plural: string, n2: string, extra: { meta?: string; top?: string; spec: string }): string =>
    `
apiVersion: mygroup.example.com/v1beta1
kind: WishIHadChosenNoxu${n2}
metadata:
  name: mytest${extra.meta ?? ''}
  finalizers:
  - test-finalizer
${extra.top ?? ''}spec:
${extra.spec}  cronSpec: "* * * * */5"
  ports:
  - name: x
    containerPort: 80
    protocol: TCP`;

  it('should create/apply a valid CR for CRD with validation schema', async () => {
    const plural = await noxu({ type: 'object', properties: { foo: { type: 'string' }, cronSpec, ports } });
    const r = await apply(plural, body(plural, String(n), { spec: '  foo: foo1\n' }));
    assert.equal(r.status, 201, r.text);
  });

  it('should create/apply a CR with unknown fields for CRD with no validation schema', async () => {
    const plural = await noxu(undefined);
    const r = await apply(plural, body(plural, String(n), { spec: '  unknown: uk1\n' }));
    assert.equal(r.status, 201, r.text);
  });

  it('should create/apply an invalid CR with extra properties for CRD with validation schema', async () => {
    const plural = await noxu({ type: 'object', properties: { foo: { type: 'string' }, cronSpec, ports } });
    const r = await apply(
      plural,
      body(plural, String(n), { top: 'unknownField: unknown\n', spec: '  foo: foo1\n' }),
    );
    assert.ok(r.text.includes('.unknownField: field not declared in schema'), r.text);
  });

  it('should detect unknown metadata fields in both the root and embedded object of a CR', async () => {
    const plural = await noxu({
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
      properties: {
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: {
            metadata: { type: 'object', properties: { name: { type: 'string' } } },
            spec: { type: 'object' },
          },
        },
        foo: { type: 'string' },
        cronSpec,
        ports,
      },
    });
    const r = await apply(
      plural,
      body(plural, String(n), {
        meta: '\n  unknownMeta: unknown',
        spec: '  template:\n    apiversion: foo/v1\n    kind: Sub\n    metadata:\n        unknownSubMeta: unknown\n        name: subobject\n        namespace: default\n  foo: foo1\n',
      }),
    );
    assert.ok(
      r.text.includes('.spec.template.metadata.unknownSubMeta: field not declared in schema') ||
        r.text.includes('.metadata.unknownMeta: field not declared in schema'),
      r.text,
    );
  });

  it('should detect duplicates in a CR when preserving unknown fields', async () => {
    const plural = await noxu({
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
      properties: { foo: { type: 'string' }, cronSpec, ports },
    });
    const r = await apply(
      plural,
      body(plural, String(n), { spec: '  unknown: uk1\n  foo: foo1\n  foo: foo2\n' }),
    );
    assert.ok(r.text.includes('line 11: key \\"foo\\" already set in map'), r.text);
  });
});

describe('CRD behaviours of upstream custom_resource_definition.go [Conformance]', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ controllers: false });
  });
  after(async () => {
    await server.stop();
  });

  it('custom resource defaulting for requests and from storage works', async () => {
    const schema = (props: Obj): Obj => ({
      openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: props } } },
    });
    const crd = await establish(server, {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'defaults.d.example.com' },
      spec: {
        group: 'd.example.com',
        scope: 'Cluster',
        names: { plural: 'defaults', singular: 'default', kind: 'Default' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: schema({ a: { type: 'string', default: 'A' }, b: { type: 'string' } }),
          },
        ],
      },
    });
    const path = '/apis/d.example.com/v1/defaults';
    const created = await server.request('POST', path, {
      body: { apiVersion: 'd.example.com/v1', kind: 'Default', metadata: { name: 'x' }, spec: {} },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.json()['spec'], { a: 'A' }, 'defaulted on the request');
    // A default added later applies to what is read from storage.
    const versions = (crd['spec'] as Obj)['versions'] as Obj[];
    versions[0]!['schema'] = schema({
      a: { type: 'string', default: 'A' },
      b: { type: 'string', default: 'B' },
    });
    const updated = await server.request('PUT', `${crdsPath}/defaults.d.example.com`, { body: crd });
    assert.equal(updated.status, 200, updated.text);
    const read = await waitFor('b defaulted from storage', async () => {
      const r = await server.request('GET', `${path}/x`);
      return (r.json()['spec'] as Obj | undefined)?.['b'] === 'B' ? r.json() : undefined;
    });
    assert.deepEqual(read['spec'], { a: 'A', b: 'B' });
  });

  it('listing custom resource definition objects works: list by label, deletecollection', async () => {
    const make = (i: number): Obj => ({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `items${i}.l.example.com`, labels: { e2e: 'list-test' } },
      spec: {
        group: 'l.example.com',
        scope: 'Namespaced',
        names: { plural: `items${i}`, singular: `item${i}`, kind: `Item${i}` },
        versions: [
          { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
        ],
      },
    });
    for (const i of [1, 2, 3]) await establish(server, make(i));
    const listed = await server.request('GET', `${crdsPath}?labelSelector=e2e%3Dlist-test`);
    assert.equal((listed.json()['items'] as Obj[]).length, 3);
    const del = await server.request('DELETE', `${crdsPath}?labelSelector=e2e%3Dlist-test`);
    assert.equal(del.status, 200, del.text);
    await waitFor('all gone', async () => {
      const r = await server.request('GET', `${crdsPath}?labelSelector=e2e%3Dlist-test`);
      return (r.json()['items'] as Obj[]).length === 0;
    });
  });

  it('getting/updating/patching custom resource definition status sub-resource works', async () => {
    const got = await server.request('GET', `${crdsPath}/defaults.d.example.com/status`);
    assert.equal(got.status, 200, got.text);
    const patched = await server.request('PATCH', `${crdsPath}/defaults.d.example.com/status`, {
      body: {
        status: {
          conditions: [
            { type: 'StatusUpdated', status: 'True', reason: 'E2E', message: 'Set from an e2e test' },
          ],
        },
      },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(patched.status, 200, patched.text);
    const conditions = (patched.json()['status'] as Obj)['conditions'] as Obj[];
    assert.ok(conditions.some((c) => c['type'] === 'StatusUpdated' && c['reason'] === 'E2E'));
  });
});
