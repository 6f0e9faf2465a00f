/**
 * The watch cache over HTTP. Lists at resourceVersion "0" (and NotOlderThan) are answered
 * from it, whole (v1.27's cache does not page); a most-recent ("") list without a limit too, once
 * the cache has caught up with storage (consistent reads from cache); "" with a limit and Exact
 * read storage; a get at "0" comes from the cache.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

interface ListBody {
  metadata: { resourceVersion?: string; continue?: string };
  items: { metadata: { name: string } }[];
}

describe('#8 watch cache', () => {
  let server: TestServer;
  const base = '/api/v1/namespaces/wc/configmaps';
  before(async () => {
    server = await startTestServer({ controllers: false });
    await server.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'wc' } },
    });
    for (let i = 0; i < 5; i++) {
      await server.request('POST', base, {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}` } },
      });
    }
  });
  after(async () => {
    await server.stop();
  });

  it('lists at resourceVersion 0 and NotOlderThan come whole from the cache; "" pages from storage', async () => {
    const latest = (await server.request('GET', `${base}?limit=2`)).json<ListBody>();
    assert.equal(latest.items.length, 2);
    assert.ok(latest.metadata.continue !== undefined);
    // The cache starts on first use; once filled it answers.
    let cached: ListBody | undefined;
    for (let i = 0; i < 100; i++) {
      cached = (await server.request('GET', `${base}?resourceVersion=0&limit=2`)).json<ListBody>();
      if (cached.metadata.continue === undefined) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.deepEqual(
      cached?.items.map((i) => i.metadata.name),
      ['c0', 'c1', 'c2', 'c3', 'c4'],
    );
    assert.equal(cached?.metadata.continue, undefined);
    const rv = latest.metadata.resourceVersion!;
    const notOlder = (
      await server.request('GET', `${base}?resourceVersion=${rv}&resourceVersionMatch=NotOlderThan&limit=2`)
    ).json<ListBody>();
    assert.equal(notOlder.items.length, 5);
    assert.ok(Number(notOlder.metadata.resourceVersion) >= Number(rv));
    const exact = (
      await server.request('GET', `${base}?resourceVersion=${rv}&resourceVersionMatch=Exact&limit=2`)
    ).json<ListBody>();
    assert.equal(exact.items.length, 2, 'Exact reads storage, in pages');
    const got = await server.request('GET', `${base}/c3?resourceVersion=0`);
    assert.equal(got.status, 200);
    const missing = await server.request('GET', `${base}/nope?resourceVersion=0`);
    assert.equal(missing.status, 404);
  });

  it('a most-recent list without a limit, served from the cache, sees every write acknowledged before it', async () => {
    // Other resources' writes move storage's revision too: the cache must catch up with them.
    for (let i = 0; i < 20; i++) {
      const name = `rw${i}`;
      const created = await server.request('POST', base, {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } },
      });
      assert.equal(created.status, 201);
      const createdRV = Number(
        (created.json() as { metadata: { resourceVersion: string } }).metadata.resourceVersion,
      );
      await server.request('POST', '/api/v1/namespaces/wc/secrets', {
        body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: `s${i}` } },
      });
      const list = (await server.request('GET', base)).json<ListBody>();
      assert.ok(
        list.items.some((item) => item.metadata.name === name),
        `${name} in the list`,
      );
      assert.ok(
        Number(list.metadata.resourceVersion) > createdRV,
        'the list is at least as new as the Secret',
      );
      assert.equal(list.metadata.continue, undefined);
    }
    const deleted = await server.request('DELETE', `${base}/rw0`);
    assert.equal(deleted.status, 200);
    const list = (await server.request('GET', base)).json<ListBody>();
    assert.ok(!list.items.some((item) => item.metadata.name === 'rw0'));
  });
});
