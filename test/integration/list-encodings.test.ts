/**
 * Lists answered from the watch cache reuse the JSON they wrote for an unchanged object
 * (src/storage/cacher/encoded-items.ts, #28). What a client sees must not change: every answer
 * below is the same as a fresh encoding of the current state, through updates, patches, deletes,
 * pages, the other representations (metadata-only, Table) and the other served version of a
 * resource. The suite runs with NANOKUBE_VERIFY_ENCODED_ITEMS=1 (npm test), so every reused text
 * is also checked against its object.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../support/poll.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const ns = 'list-encodings';
const cms = `/api/v1/namespaces/${ns}/configmaps`;

interface Item {
  readonly kind?: string;
  readonly metadata: { readonly name: string; readonly resourceVersion: string };
  readonly data?: Record<string, string>;
}

describe('#28 lists from the watch cache reuse encodings and stay exact', () => {
  let s: TestServer;
  const list = async (path: string): Promise<Item[]> => {
    const r = await s.request('GET', path);
    assert.equal(r.status, 200, r.text);
    return r.json<{ items: Item[] }>().items;
  };
  const walk = async (limit: number): Promise<Item[]> => {
    const out: Item[] = [];
    let cont = '';
    do {
      const r = await s.request(
        'GET',
        `${cms}?limit=${limit}${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`,
      );
      assert.equal(r.status, 200, r.text);
      const page = r.json<{ items: Item[]; metadata: { continue?: string } }>();
      out.push(...page.items);
      cont = page.metadata.continue ?? '';
    } while (cont !== '');
    return out;
  };
  const values = (items: Item[]): string[] => items.map((i) => `${i.metadata.name}=${i.data?.['v'] ?? ''}`);

  before(async () => {
    s = await startTestServer({ controllers: false });
    const r = await s.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
    });
    assert.equal(r.status, 201, r.text);
    for (let i = 0; i < 30; i++) {
      const c = await s.request('POST', cms, {
        body: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: `cm-${String(i).padStart(2, '0')}` },
          data: { v: '0' },
        },
      });
      assert.equal(c.status, 201, c.text);
    }
  });
  after(() => s.close());

  it('a repeated list answers the same bytes, and pages agree with it', async () => {
    const one = await s.request('GET', cms);
    const two = await s.request('GET', cms);
    assert.equal(two.text, one.text);
    assert.deepEqual(await walk(7), one.json<{ items: Item[] }>().items);
    assert.deepEqual(await walk(7), one.json<{ items: Item[] }>().items);
  });

  it('an update, a patch and a delete show in the next list', async () => {
    await list(cms);
    const got = await s.request('GET', `${cms}/cm-03`);
    const cm = got.json<Item & Record<string, unknown>>();
    const put = await s.request('PUT', `${cms}/cm-03`, { body: { ...cm, data: { v: 'put' } } });
    assert.equal(put.status, 200, put.text);
    const patch = await s.request('PATCH', `${cms}/cm-05`, {
      body: { data: { v: 'patched' } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(patch.status, 200, patch.text);
    const del = await s.request('DELETE', `${cms}/cm-07`);
    assert.equal(del.status, 200, del.text);
    const want = Array.from({ length: 30 }, (_, i) => i)
      .filter((i) => i !== 7)
      .map((i) => `cm-${String(i).padStart(2, '0')}=${i === 3 ? 'put' : i === 5 ? 'patched' : '0'}`);
    assert.deepEqual(values(await list(cms)), want);
    assert.deepEqual(values(await walk(4)), want);
    const rvs = (await list(cms)).map((i) => i.metadata.resourceVersion);
    assert.equal(rvs[3], put.json<Item>().metadata.resourceVersion);
    assert.equal(rvs[5], patch.json<Item>().metadata.resourceVersion);
  });

  it('metadata-only and Table answers of a listed collection are their own', async () => {
    await list(cms);
    const meta = await s.request('GET', cms, {
      headers: { accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io' },
    });
    assert.equal(meta.status, 200, meta.text);
    const m = meta.json<{ kind: string; items: Item[] }>();
    assert.equal(m.kind, 'PartialObjectMetadataList');
    assert.equal(m.items[0]?.kind, 'PartialObjectMetadata');
    assert.equal(m.items[0]?.data, undefined);
    const table = await s.request('GET', `${cms}?limit=5`, {
      headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    });
    assert.equal(table.status, 200, table.text);
    assert.equal(table.json<{ kind: string; rows: unknown[] }>().rows.length, 5);
    // And the object form again, after them.
    assert.equal((await list(cms))[0]?.data?.['v'], '0');
  });

  it('each served version of a resource lists in its own shape', async () => {
    const hpas = `/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers`;
    const hpasV1 = `/apis/autoscaling/v1/namespaces/${ns}/horizontalpodautoscalers`;
    const c = await s.request('POST', hpas, {
      body: {
        apiVersion: 'autoscaling/v2',
        kind: 'HorizontalPodAutoscaler',
        metadata: { name: 'web' },
        spec: {
          scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
          minReplicas: 1,
          maxReplicas: 3,
          metrics: [
            {
              type: 'Resource',
              resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } },
            },
          ],
        },
      },
    });
    assert.equal(c.status, 201, c.text);
    for (let round = 0; round < 2; round++) {
      const v2 = await s.request('GET', hpas);
      const v2Spec = v2.json<{ items: { spec: Record<string, unknown> }[] }>().items[0]?.spec;
      assert.ok(v2Spec !== undefined && 'metrics' in v2Spec, v2.text);
      const v1 = await s.request('GET', hpasV1);
      const v1Spec = v1.json<{ items: { spec: Record<string, unknown> }[] }>().items[0]?.spec;
      assert.equal(v1Spec?.['targetCPUUtilizationPercentage'], 50, v1.text);
      assert.ok(v1Spec !== undefined && !('metrics' in v1Spec));
    }
  });
  it("custom resources' list items keep apiVersion and kind, as upstream's UnstructuredList writes them", async () => {
    const crd = await s.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      body: {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'widgets.example.com' },
        spec: {
          group: 'example.com',
          scope: 'Namespaced',
          names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              schema: {
                openAPIV3Schema: {
                  type: 'object',
                  properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
                },
              },
            },
          ],
        },
      },
    });
    assert.equal(crd.status, 201, crd.text);
    const widgets = `/apis/example.com/v1/namespaces/${ns}/widgets`;
    // The CRD's resource is served once its names are accepted.
    const created = await waitFor('the widgets resource to be served', async () => {
      const r = await s.request('POST', widgets, {
        body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { a: 1 } },
      });
      return r.status === 404 ? undefined : r;
    });
    assert.equal(created.status, 201, created.text);
    for (let round = 0; round < 2; round++) {
      const r = await s.request('GET', widgets);
      assert.equal(r.status, 200, r.text);
      const l = r.json<{ kind: string; items: { apiVersion?: string; kind?: string }[] }>();
      assert.equal(l.kind, 'WidgetList');
      assert.equal(l.items[0]?.apiVersion, 'example.com/v1', r.text);
      assert.equal(l.items[0]?.kind, 'Widget', r.text);
    }
    // Built-in kinds' items still leave them out.
    assert.equal((await list(cms))[0]?.kind, undefined);
  });
});
