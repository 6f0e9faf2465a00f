/**
 * Integration: lists and watches on real SQLite — chunking with consistent snapshots,
 * resourceVersion rules, selectors, Table and PartialObjectMetadata (section 4).
 */
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

interface ListBody {
  kind: string;
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
  items: { metadata: { name: string; resourceVersion: string }; kind?: string }[];
}

const cm = (name: string, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, labels },
  data: { k: name },
});

/** Opens a watch and collects events until `count` arrived or the timeout passed. */
function watchEvents(
  s: TestServer,
  path: string,
  count: number,
  timeoutMs = 3000,
): Promise<{ type: string; object: Record<string, unknown> }[]> {
  return new Promise((resolve, reject) => {
    const events: { type: string; object: Record<string, unknown> }[] = [];
    let buf = '';
    const req = request(
      { host: '127.0.0.1', port: s.port, path, ca: s.pki.caCert, cert: s.pki.adminCert, key: s.pki.adminKey },
      (res) => {
        res.setEncoding('utf8');
        res.on('end', () => resolve(events));
        res.on('data', (chunk: string) => {
          buf += chunk;
          let nl;
          while ((nl = buf.indexOf('\n')) >= 0) {
            events.push(JSON.parse(buf.slice(0, nl)) as { type: string; object: Record<string, unknown> });
            buf = buf.slice(nl + 1);
            if (events.length >= count) {
              req.destroy();
              resolve(events);
            }
          }
        });
      },
    );
    req.on('error', (err) => (events.length >= count ? undefined : reject(err)));
    setTimeout(() => {
      req.destroy();
      resolve(events);
    }, timeoutMs).unref();
    req.end();
  });
}

describe('lists and watches', () => {
  let s: TestServer;
  before(async () => {
    // No controllers: these lists must hold exactly what the test created.
    s = await startTestServer({ controllers: false });
    await s.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'l' } },
    });
    for (let i = 0; i < 7; i++) {
      const r = await s.request('POST', '/api/v1/namespaces/l/configmaps', {
        body: cm(`c${i}`, { parity: i % 2 === 0 ? 'even' : 'odd' }),
      });
      assert.equal(r.status, 201);
    }
  });
  after(() => s.stop());

  it('chunks with limit/continue over one consistent snapshot', async () => {
    const first = (await s.request('GET', '/api/v1/namespaces/l/configmaps?limit=3')).json<ListBody>();
    assert.equal(first.kind, 'ConfigMapList');
    assert.deepEqual(
      first.items.map((i) => i.metadata.name),
      ['c0', 'c1', 'c2'],
    );
    assert.equal(first.metadata.remainingItemCount, 4);
    assert.ok(first.metadata.continue);
    assert.equal(first.items[0]?.kind, undefined, 'list items carry no kind, as upstream');
    // A change after the first page is not visible in later pages.
    await s.request('DELETE', '/api/v1/namespaces/l/configmaps/c4');
    await s.request('POST', '/api/v1/namespaces/l/configmaps', { body: cm('c3a') });
    const second = (
      await s.request(
        'GET',
        `/api/v1/namespaces/l/configmaps?limit=3&continue=${encodeURIComponent(first.metadata.continue)}`,
      )
    ).json<ListBody>();
    assert.deepEqual(
      second.items.map((i) => i.metadata.name),
      ['c3', 'c4', 'c5'],
    );
    assert.equal(second.metadata.resourceVersion, first.metadata.resourceVersion);
    // Continued pages say how many remain too, as upstream's etcd3 store.
    assert.equal(second.metadata.remainingItemCount, 1);
    const third = (
      await s.request(
        'GET',
        `/api/v1/namespaces/l/configmaps?limit=3&continue=${encodeURIComponent(second.metadata.continue!)}`,
      )
    ).json<ListBody>();
    assert.deepEqual(
      third.items.map((i) => i.metadata.name),
      ['c6'],
    );
    assert.equal(third.metadata.continue, undefined);
    assert.equal(third.metadata.remainingItemCount, undefined);
    // Restore for later tests.
    await s.request('POST', '/api/v1/namespaces/l/configmaps', { body: cm('c4', { parity: 'even' }) });
    await s.request('DELETE', '/api/v1/namespaces/l/configmaps/c3a');
  });

  it('rejects a garbled continue token with 400', async () => {
    const r = await s.request('GET', '/api/v1/namespaces/l/configmaps?limit=1&continue=bogus');
    assert.equal(r.status, 400);
  });

  it('label selectors (all operators) and field selectors', async () => {
    const names = async (q: string): Promise<string[]> =>
      (await s.request('GET', `/api/v1/namespaces/l/configmaps?${q}`))
        .json<ListBody>()
        .items.map((i) => i.metadata.name);
    assert.deepEqual(await names('labelSelector=parity%3Dodd'), ['c1', 'c3', 'c5']);
    assert.deepEqual(await names('labelSelector=parity!%3Dodd'), ['c0', 'c2', 'c4', 'c6']);
    assert.deepEqual(await names('labelSelector=parity%20in%20(odd)'), ['c1', 'c3', 'c5']);
    assert.deepEqual(await names('labelSelector=parity%20notin%20(odd,even)'), []);
    assert.deepEqual(await names('labelSelector=!parity'), []);
    assert.deepEqual(await names('labelSelector=parity'), ['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6']);
    assert.deepEqual(await names('fieldSelector=metadata.name%3Dc2'), ['c2']);
    assert.deepEqual(
      await names('fieldSelector=metadata.name!%3Dc2,metadata.namespace%3Dl&labelSelector=parity%3Deven'),
      ['c0', 'c4', 'c6'],
    );
    const bad = await s.request('GET', '/api/v1/namespaces/l/configmaps?fieldSelector=spec.foo%3Dx');
    assert.equal(bad.status, 400);
    assert.equal(
      bad.json()['message'],
      '"spec.foo" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );
  });

  it('resourceVersionMatch validation answers 422 like upstream', async () => {
    const r = await s.request('GET', '/api/v1/namespaces/l/configmaps?resourceVersionMatch=Exact');
    assert.equal(r.status, 422);
    assert.equal(
      r.json()['message'],
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
    );
  });

  it('a resourceVersion from the future gets 504 Too large resource version', async () => {
    const r = await s.request(
      'GET',
      '/api/v1/namespaces/l/configmaps?resourceVersion=99999999&resourceVersionMatch=NotOlderThan',
    );
    assert.equal(r.status, 504);
    assert.match(
      String(r.json()['message']),
      /^Timeout: Too large resource version: 99999999, current: \d+$/,
    );
    assert.equal(r.headers['retry-after'], '1');
  });

  it('Exact list at an older resourceVersion sees the old state', async () => {
    const before = (await s.request('GET', '/api/v1/namespaces/l/configmaps')).json<ListBody>();
    await s.request('DELETE', '/api/v1/namespaces/l/configmaps/c0');
    const old = (
      await s.request(
        'GET',
        `/api/v1/namespaces/l/configmaps?resourceVersion=${before.metadata.resourceVersion}&resourceVersionMatch=Exact`,
      )
    ).json<ListBody>();
    assert.ok(old.items.some((i) => i.metadata.name === 'c0'));
    await s.request('POST', '/api/v1/namespaces/l/configmaps', { body: cm('c0', { parity: 'even' }) });
  });

  it('serves Table and PartialObjectMetadataList', async () => {
    const t = (
      await s.request('GET', '/api/v1/namespaces/l/configmaps?labelSelector=parity%3Dodd', {
        accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
      })
    ).json<{
      kind: string;
      columnDefinitions: { name: string }[];
      rows: { cells: unknown[]; object: { kind: string } }[];
    }>();
    assert.equal(t.kind, 'Table');
    assert.deepEqual(
      t.columnDefinitions.map((c) => c.name),
      ['Name', 'Data', 'Age'],
    );
    assert.equal(t.rows.length, 3);
    assert.equal(t.rows[0]?.cells[0], 'c1');
    assert.equal(t.rows[0]?.cells[1], 1);
    assert.equal(t.rows[0]?.object.kind, 'PartialObjectMetadata');
    const p = (
      await s.request('GET', '/api/v1/namespaces/l/configmaps', {
        accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io',
      })
    ).json<{ kind: string; items: { metadata: { name: string }; data?: unknown }[] }>();
    assert.equal(p.kind, 'PartialObjectMetadataList');
    assert.equal(p.items[0]?.data, undefined);
  });

  it('406 when no acceptable representation exists', async () => {
    const r = await s.request('GET', '/api/v1/namespaces/l/configmaps', { accept: 'text/html' });
    assert.equal(r.status, 406);
  });

  it('watch from a resourceVersion delivers ADDED, MODIFIED, DELETED in order', async () => {
    const list = (await s.request('GET', '/api/v1/namespaces/l/configmaps')).json<ListBody>();
    const pending = watchEvents(
      s,
      `/api/v1/namespaces/l/configmaps?watch=1&resourceVersion=${list.metadata.resourceVersion}`,
      3,
    );
    await s.request('POST', '/api/v1/namespaces/l/configmaps', { body: cm('w1') });
    await s.request('PATCH', '/api/v1/namespaces/l/configmaps/w1', {
      raw: '{"data":{"k":"changed"}}',
      contentType: 'application/merge-patch+json',
    });
    await s.request('DELETE', '/api/v1/namespaces/l/configmaps/w1');
    const events = await pending;
    assert.deepEqual(
      events.map((e) => e.type),
      ['ADDED', 'MODIFIED', 'DELETED'],
    );
    const rvs = events.map((e) =>
      Number((e.object['metadata'] as { resourceVersion: string }).resourceVersion),
    );
    assert.ok(rvs[0]! < rvs[1]! && rvs[1]! < rvs[2]!);
  });

  it('watch without resourceVersion starts with the current state; selectors turn changes into ADDED/DELETED', async () => {
    const events = watchEvents(s, '/api/v1/namespaces/l/configmaps?watch=true&labelSelector=parity%3Dodd', 5);
    await new Promise((r) => setTimeout(r, 150));
    await s.request('PATCH', '/api/v1/namespaces/l/configmaps/c1', {
      raw: '{"metadata":{"labels":{"parity":"even"}}}',
      contentType: 'application/strategic-merge-patch+json',
    });
    await s.request('PATCH', '/api/v1/namespaces/l/configmaps/c2', {
      raw: '{"metadata":{"labels":{"parity":"odd"}}}',
      contentType: 'application/merge-patch+json',
    });
    const got = await events;
    assert.deepEqual(
      got.map((e) => `${e.type}:${(e.object['metadata'] as { name: string }).name}`),
      ['ADDED:c1', 'ADDED:c3', 'ADDED:c5', 'DELETED:c1', 'ADDED:c2'],
    );
  });

  it('watch honours timeoutSeconds: the server ends the stream', async () => {
    const started = Date.now();
    const events = await watchEvents(
      s,
      '/api/v1/namespaces/l/configmaps?watch=1&timeoutSeconds=1&labelSelector=none%3Dx',
      1,
      5000,
    );
    assert.deepEqual(events, []);
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 900 && elapsed < 4500, `stream ended after ${elapsed} ms`);
  });

  it('dryRun=All validates and answers without persisting', async () => {
    const r = await s.request('POST', '/api/v1/namespaces/l/configmaps?dryRun=All', { body: cm('dry') });
    assert.equal(r.status, 201);
    assert.equal((await s.request('GET', '/api/v1/namespaces/l/configmaps/dry')).status, 404);
    const d = await s.request('DELETE', '/api/v1/namespaces/l/configmaps/c3?dryRun=All');
    assert.equal(d.status, 200);
    assert.equal((await s.request('GET', '/api/v1/namespaces/l/configmaps/c3')).status, 200);
  });

  it('delete answers Success Status for configmaps and the object for pods', async () => {
    const d = await s.request('DELETE', '/api/v1/namespaces/l/configmaps/c6');
    assert.equal(d.json()['status'], 'Success');
    assert.deepEqual(d.json()['details'], {
      name: 'c6',
      kind: 'configmaps',
      uid: (d.json()['details'] as { uid: string }).uid,
    });
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    };
    assert.equal((await s.request('POST', '/api/v1/namespaces/l/pods', { body: pod })).status, 201);
    const dp = await s.request('DELETE', '/api/v1/namespaces/l/pods/p');
    assert.equal(dp.json()['kind'], 'Pod');
    assert.equal(
      (await s.request('GET', '/api/v1/namespaces/l/pods/p')).status,
      404,
      'unscheduled pods go at once',
    );
  });

  it('finalizers keep a deleted object until they are removed', async () => {
    await s.request('POST', '/api/v1/namespaces/l/configmaps', {
      body: { ...cm('fin'), metadata: { name: 'fin', finalizers: ['example.com/hold'] } },
    });
    const d = await s.request('DELETE', '/api/v1/namespaces/l/configmaps/fin');
    assert.equal(d.status, 200);
    const held = (await s.request('GET', '/api/v1/namespaces/l/configmaps/fin')).json<{
      metadata: { deletionTimestamp?: string };
    }>();
    assert.ok(held.metadata.deletionTimestamp);
    const r = await s.request('PATCH', '/api/v1/namespaces/l/configmaps/fin', {
      raw: '{"metadata":{"finalizers":null}}',
      contentType: 'application/merge-patch+json',
    });
    assert.equal(r.status, 200);
    assert.equal((await s.request('GET', '/api/v1/namespaces/l/configmaps/fin')).status, 404);
  });

  it('delete preconditions: a wrong uid conflicts', async () => {
    const r = await s.request('DELETE', '/api/v1/namespaces/l/configmaps/c5', {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'nope' } },
    });
    assert.equal(r.status, 409);
    assert.match(
      String(r.json()['message']),
      // apiserver registry/rest/delete.go BeforeDelete (v1.27) names the kind.
      /^Operation cannot be fulfilled on ConfigMap "c5": the UID in the precondition \(nope\) does not match the UID in record \([0-9a-f-]{36}\)\. The object might have been deleted and then recreated$/,
    );
  });

  it('deletecollection with a selector deletes only matches', async () => {
    const r = await s.request('DELETE', '/api/v1/namespaces/l/configmaps?labelSelector=parity%3Deven');
    assert.equal(r.status, 200);
    const left = (await s.request('GET', '/api/v1/namespaces/l/configmaps')).json<ListBody>();
    assert.ok(left.items.every((i) => i.metadata.name !== 'c4'));
    assert.ok(left.items.some((i) => i.metadata.name === 'c5'));
  });
});
