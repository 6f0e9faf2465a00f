/**
 * Custom resources written before their CRD's storage version changed keep the old version in
 * storage; read or patched at the new storage version they come back as that version (None
 * conversion relabels them), as the upstream "mutate custom resource with different stored
 * version" spec patches one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../support/poll.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const schema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };

describe('custom resources across a storage version change', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ controllers: false, nodes: 0, storage: 'memory' });
  });
  after(async () => {
    await s.stop();
  });

  it('an object stored at v1 reads and patches as v2 once v2 is the storage version', async () => {
    const versions = (storage: 'v1' | 'v2'): unknown[] => [
      { name: 'v1', served: true, storage: storage === 'v1', schema },
      { name: 'v2', served: true, storage: storage === 'v2', schema },
    ];
    const created = await s.request('POST', crdPath, {
      body: {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'things.example.com' },
        spec: {
          group: 'example.com',
          scope: 'Namespaced',
          names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList' },
          versions: versions('v1'),
        },
      },
    });
    assert.equal(created.status, 201, created.text);
    const base = '/apis/example.com';
    await waitFor('v1 served', async () =>
      (await s.request('GET', `${base}/v1/namespaces/default/things`)).status === 200 ? true : undefined,
    );
    const cr = await s.request('POST', `${base}/v1/namespaces/default/things`, {
      body: { apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 'a' }, x: 1 },
    });
    assert.equal(cr.status, 201, cr.text);
    const patched = await s.request('PATCH', `${crdPath}/things.example.com`, {
      body: [{ op: 'replace', path: '/spec/versions', value: versions('v2') }],
      contentType: 'application/json-patch+json',
    });
    assert.equal(patched.status, 200, patched.text);
    const got = await waitFor('the object read at v2 as v2 after the switch', async () => {
      const crd = await s.request('GET', `${crdPath}/things.example.com`);
      const stored = crd.json<{ status?: { storedVersions?: string[] } }>().status?.storedVersions ?? [];
      if (!stored.includes('v2')) return undefined;
      const r = await s.request('GET', `${base}/v2/namespaces/default/things/a`);
      return r.status === 200 ? r.json<{ apiVersion: string }>() : undefined;
    });
    assert.equal(got.apiVersion, 'example.com/v2');
    const p = await s.request('PATCH', `${base}/v2/namespaces/default/things/a`, {
      body: [{ op: 'add', path: '/dummy', value: 'test' }],
      contentType: 'application/json-patch+json',
    });
    assert.equal(p.status, 200, p.text);
    assert.equal(p.json<{ apiVersion: string; dummy: string }>().apiVersion, 'example.com/v2');
  });
});
