/**
 * `--watch-cache` and `--watch-cache-sizes` (kube-apiserver v1.27's etcd options): Events have no
 * watch cache by default, as upstream's DefaultWatchCacheSizes, and are still listed and watched
 * with the same resourceVersion rules, from storage; sizes turn caches on and off per resource.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { adminSession, collectWatch, until } from '../support/h2-watch.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

interface WatchLine {
  readonly type: string;
  readonly object: { readonly metadata?: { readonly name?: string; readonly resourceVersion?: string } };
}

/** The resources `watch_cache_capacity` reports: those with a watch cache. */
async function cachedResources(server: TestServer): Promise<Set<string>> {
  const r = await server.request('GET', '/metrics');
  assert.equal(r.status, 200);
  const out = new Set<string>();
  for (const m of r.text.matchAll(/^watch_cache_capacity\{([^}]*)\} /gm)) {
    const labels = Object.fromEntries([...m[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1]!, l[2]!]));
    out.add(labels['group'] ? `${labels['resource']}.${labels['group']}` : labels['resource']!);
  }
  return out;
}

const event = (name: string, message: string) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name },
  involvedObject: { kind: 'Pod', namespace: 'default', name: 'p', apiVersion: 'v1' },
  reason: 'Testing',
  message,
  type: 'Normal',
  source: { component: 'watch-cache-sizes-test' },
});

describe('default watch caches: Events uncached (upstream DefaultWatchCacheSizes)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ controllers: false });
  });
  after(() => server.stop());

  test('every built-in resource but Events has a watch cache', async () => {
    const cached = await cachedResources(server);
    assert.ok(
      cached.has('pods') && cached.has('configmaps') && cached.has('deployments.apps'),
      [...cached].join(),
    );
    assert.ok(!cached.has('events'), [...cached].join());
    assert.ok(!cached.has('events.events.k8s.io'), [...cached].join());
  });

  test('Events are listed and watched from storage with the same resourceVersion rules', async () => {
    const path = '/api/v1/namespaces/default/events';
    const created = await server.request('POST', path, { body: event('e-1', 'first') });
    assert.equal(created.status, 201, created.text);
    // resourceVersion 0 ("any") and a consistent list both see it.
    for (const q of ['?resourceVersion=0', '']) {
      const list = await server.request('GET', `${path}${q}`);
      assert.equal(list.status, 200);
      const names = (list.json().items as { metadata: { name: string } }[]).map((i) => i.metadata.name);
      assert.deepEqual(names, ['e-1'], q);
    }
    const listRv = (await server.request('GET', path)).json<{ metadata: { resourceVersion: string } }>()
      .metadata.resourceVersion;
    const session = adminSession(server);
    try {
      // No resourceVersion: the state as ADDED, then changes; from the list's: only changes.
      const fromNow = collectWatch<WatchLine>(session, `${path}?watch=1`);
      const fromList = collectWatch<WatchLine>(session, `${path}?watch=1&resourceVersion=${listRv}`);
      // events.k8s.io/v1 serves the same objects.
      const v1 = collectWatch<WatchLine>(
        session,
        '/apis/events.k8s.io/v1/namespaces/default/events?watch=1&resourceVersion=0',
      );
      assert.equal(await fromNow.status, 200);
      assert.equal(await fromList.status, 200);
      assert.equal(await v1.status, 200);
      await until(() => fromNow.lines.length === 1 && v1.lines.length === 1);
      assert.equal(fromNow.lines[0]!.type, 'ADDED');
      assert.equal(v1.lines[0]!.type, 'ADDED');
      const patched = await server.request('PATCH', `${path}/e-1`, {
        body: { message: 'second' },
        contentType: 'application/merge-patch+json',
      });
      assert.equal(patched.status, 200, patched.text);
      assert.equal((await server.request('POST', path, { body: event('e-2', 'other') })).status, 201);
      await until(() => fromNow.lines.length === 3 && fromList.lines.length === 2 && v1.lines.length === 3);
      assert.deepEqual(
        fromList.lines.map((l) => [l.type, l.object.metadata?.name]),
        [
          ['MODIFIED', 'e-1'],
          ['ADDED', 'e-2'],
        ],
      );
      assert.deepEqual(
        fromNow.lines.map((l) => l.type),
        ['ADDED', 'MODIFIED', 'ADDED'],
      );
      const patchedRv = patched.json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion;
      assert.equal(fromList.lines[0]!.object.metadata?.resourceVersion, patchedRv);
      // A get at resourceVersion 0 is answered too.
      assert.equal((await server.request('GET', `${path}/e-1?resourceVersion=0`)).status, 200);
    } finally {
      session.destroy();
    }
  });
});

describe('--watch-cache-sizes and --watch-cache=false', () => {
  test('sizes turn Events on and ConfigMaps off; --watch-cache=false leaves no cache', async () => {
    const sized = await startTestServer({
      controllers: false,
      watchCacheSizes: ['events#100', 'configmaps#0'],
    });
    try {
      const cached = await cachedResources(sized);
      assert.ok(
        cached.has('events') && !cached.has('configmaps') && cached.has('secrets'),
        [...cached].join(),
      );
      // The uncached ConfigMaps still answer a watch from a list's resourceVersion.
      const path = '/api/v1/namespaces/default/configmaps';
      const rv = (await sized.request('GET', path)).json<{ metadata: { resourceVersion: string } }>().metadata
        .resourceVersion;
      const session = adminSession(sized);
      try {
        const w = collectWatch<WatchLine>(session, `${path}?watch=1&resourceVersion=${rv}`);
        assert.equal(await w.status, 200);
        const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } };
        assert.equal((await sized.request('POST', path, { body })).status, 201);
        await until(() => w.lines.length === 1);
        assert.equal(w.lines[0]!.type, 'ADDED');
      } finally {
        session.destroy();
      }
    } finally {
      await sized.stop();
    }
    const off = await startTestServer({ controllers: false, watchCache: false });
    try {
      assert.deepEqual([...(await cachedResources(off))], []);
      assert.equal((await off.request('GET', '/api/v1/pods?resourceVersion=0')).status, 200);
    } finally {
      await off.stop();
    }
  });
});
