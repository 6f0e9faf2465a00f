/**
 * AM-21: the watch correctness rules of kube-apiserver v1.27, each a test.
 *  - a watch without resourceVersion starts "now": the current state, then later changes only;
 *  - a list, get or watch at a resourceVersion ahead of the store waits up to 3 s, then 504
 *    "Too large resource version" with retryAfterSeconds 1 (storage.NewTooLargeResourceVersionError);
 *  - a watch from a compacted resourceVersion gets one ERROR event, 410 Expired
 *    "too old resource version: X (Y)";
 *  - no event is lost or duplicated across a compaction.
 */
import assert from 'node:assert/strict';
import type { ClientHttp2Session } from 'node:http2';
import { after, before, describe, it } from 'node:test';
import { StatusError } from '../../src/machinery/errors.js';
import { FeatureGates } from '../../src/machinery/features.js';
import type { KubeObject } from '../../src/machinery/object.js';
import { serverUser } from '../../src/machinery/user.js';
import { GenericStore } from '../../src/registry/generic/store.js';
import { openWatch } from '../../src/registry/generic/watch.js';
import type { WatchEvent } from '../../src/registry/generic/watch.js';
import { configMapsResource } from '../../src/registry/resources/core/configmaps.js';
import { createMemoryKv } from '../../src/storage/kv/memory/memory-kv.js';
import type { KvStore } from '../../src/storage/kv/types.js';
import { KvObjectStore } from '../../src/storage/object-store.js';
import { adminSession, collectWatch, until } from '../support/h2-watch.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

interface Meta {
  name?: string;
  resourceVersion?: string;
}
interface Line {
  readonly type: string;
  readonly object: { metadata: Meta };
}
interface StatusBody {
  code?: number;
  reason?: string;
  message?: string;
  details?: { retryAfterSeconds?: number; causes?: { reason?: string; message?: string }[] };
}

const cm = (name: string, v = '0'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { v },
});

describe('AM-21 watch rules over HTTP', () => {
  let server: TestServer;
  let session: ClientHttp2Session;
  before(async () => {
    server = await startTestServer({ controllers: false });
    session = adminSession(server);
    await server.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'rules' } },
    });
  });
  after(async () => {
    session.close();
    await server.stop();
  });
  const base = '/api/v1/namespaces/rules/configmaps';

  it('a watch without resourceVersion starts now: the current state, then only later changes', async () => {
    await server.request('POST', base, { body: cm('gone') });
    await server.request('PATCH', `${base}/gone`, {
      body: { data: { v: '1' } },
      contentType: 'application/merge-patch+json',
    });
    await server.request('DELETE', `${base}/gone`);
    const kept = (await server.request('POST', base, { body: cm('kept') })).json<{ metadata: Meta }>();
    const w = collectWatch<Line>(session, `${base}?watch=1`);
    assert.equal(await w.status, 200);
    await until(() => w.lines.length >= 1);
    const late = (await server.request('POST', base, { body: cm('late') })).json<{ metadata: Meta }>();
    await until(() => w.lines.length >= 2);
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(
      w.lines.map(
        (l) => `${l.type} ${l.object.metadata.name ?? ''} ${l.object.metadata.resourceVersion ?? ''}`,
      ),
      [`ADDED kept ${kept.metadata.resourceVersion!}`, `ADDED late ${late.metadata.resourceVersion!}`],
      'no history of "gone", the newest write is in the state',
    );
    w.stream.close();
    await server.request('DELETE', `${base}/kept`);
    await server.request('DELETE', `${base}/late`);
  });

  it('list, get and watch at a resourceVersion ahead of the store wait 3 s, then 504 with a retry hint', async () => {
    const current = Number(
      (await server.request('GET', base)).json<{ metadata: Meta }>().metadata.resourceVersion,
    );
    const far = current + 1_000_000;
    await server.request('POST', base, { body: cm('there') });
    const paths = [
      `${base}?resourceVersion=${far}&resourceVersionMatch=NotOlderThan`,
      `${base}/there?resourceVersion=${far}`,
      `${base}?watch=1&resourceVersion=${far}`,
    ];
    const started = Date.now();
    const answers = await Promise.all(paths.map((p) => server.request('GET', p)));
    assert.ok(Date.now() - started >= 2900, 'waited about 3 s');
    for (const r of answers) {
      assert.equal(r.status, 504);
      assert.equal(r.headers['retry-after'], '1');
      const s = r.json<StatusBody>();
      assert.equal(s.reason, 'Timeout');
      assert.match(
        s.message ?? '',
        new RegExp(`^Timeout: Too large resource version: ${far}, current: \\d+$`),
      );
      assert.equal(s.details?.retryAfterSeconds, 1);
      assert.deepEqual(s.details?.causes, [
        { reason: 'ResourceVersionTooLarge', message: 'Too large resource version' },
      ]);
    }
  });

  it('a resourceVersion reached while waiting is served', async () => {
    const current = Number(
      (await server.request('GET', base)).json<{ metadata: Meta }>().metadata.resourceVersion,
    );
    const pending = server.request(
      'GET',
      `${base}?resourceVersion=${current + 1}&resourceVersionMatch=NotOlderThan`,
    );
    await new Promise((r) => setTimeout(r, 200));
    await server.request('POST', base, { body: cm('arrives') });
    const r = await pending;
    assert.equal(r.status, 200);
    const list = r.json<{ metadata: Meta; items: { metadata: Meta }[] }>();
    assert.ok(Number(list.metadata.resourceVersion) >= current + 1);
    assert.ok(list.items.some((i) => i.metadata.name === 'arrives'));
  });
});

for (const [label, watchCache] of [
  ['storage', false],
  ['a watch cache of 10 events', { capacity: 10 }],
] as const) {
  describe(`AM-21 watch rules across compaction (${label})`, () => {
    let kv: KvStore;
    let store: GenericStore;
    const user = serverUser;
    before(() => {
      kv = createMemoryKv();
      store = new GenericStore({
        resource: configMapsResource,
        storage: new KvObjectStore(kv),
        features: new FeatureGates(),
        watchCache,
      });
    });
    after(async () => {
      await kv.close();
    });

    async function collect(it: AsyncIterator<WatchEvent>, n: number): Promise<WatchEvent[]> {
      const out: WatchEvent[] = [];
      while (out.length < n) {
        const r = await it.next();
        if (r.done === true) break;
        out.push(r.value);
      }
      return out;
    }
    const rvOf = (ev: WatchEvent): number => Number((ev.object as KubeObject).metadata.resourceVersion);

    it('no event lost or duplicated across a compaction; a resume from before it is 410 Expired', async () => {
      const created = await store.create('ns', cm('x'), { dryRun: false, user });
      const r0 = created.object.metadata.resourceVersion!;
      const abort = new AbortController();
      const live = (
        await openWatch(store, 'ns', { resourceVersion: r0, signal: abort.signal }, new FeatureGates())
      )[Symbol.asyncIterator]();
      const bump = async (from: number, to: number): Promise<void> => {
        for (let i = from; i < to; i++) {
          await store.update('ns', 'x', () => cm('x', String(i)), { dryRun: false, user });
        }
      };
      await bump(1, 31);
      const first = await collect(live, 30);
      const middle = rvOf(first[29]!);
      await kv.compact(await kv.currentRevision());
      await bump(31, 61);
      const second = await collect(live, 30);
      const all = [...first, ...second];
      assert.deepEqual(
        all.map((e) => `${e.type} ${(e.object['data'] as Record<string, string> | undefined)?.['v'] ?? ''}`),
        Array.from({ length: 60 }, (_, i) => `MODIFIED ${i + 1}`),
      );
      for (let i = 1; i < all.length; i++) assert.ok(rvOf(all[i]!) > rvOf(all[i - 1]!));
      // Resuming from the compacted revision itself continues without a gap or a duplicate.
      const resumed = (
        await openWatch(
          store,
          'ns',
          { resourceVersion: String(middle), signal: abort.signal },
          new FeatureGates(),
        )
      )[Symbol.asyncIterator]();
      const rest = await collect(resumed, 30);
      assert.deepEqual(rest.map(rvOf), second.map(rvOf));
      // From before the compaction: one ERROR event, 410 Expired.
      const old = await openWatch(
        store,
        'ns',
        { resourceVersion: r0, signal: abort.signal },
        new FeatureGates(),
      );
      const events = await collect(old[Symbol.asyncIterator](), 2);
      assert.equal(events.length, 1);
      const status = events[0]!.object as StatusBody & { kind?: string; status?: string };
      assert.equal(events[0]!.type, 'ERROR');
      assert.equal(status.kind, 'Status');
      assert.equal(status.status, 'Failure');
      assert.equal(status.code, 410);
      assert.equal(status.reason, 'Expired');
      assert.equal(status.message, `too old resource version: ${r0} (${middle})`);
      abort.abort();
    });

    it('#28 a continued list of a compacted revision is 410 Expired (pages may come from the cache)', async () => {
      for (const name of ['p1', 'p2']) await store.create('pages', cm(name), { dryRun: false, user });
      const first = await store.list('pages', { limit: 1 });
      assert.deepEqual(
        first.items.map((o) => o.metadata.name),
        ['p1'],
      );
      const token = first.continue ?? '';
      assert.notEqual(token, '');
      // A write outside the resource (the resource's state at the token's revision is still the
      // current one), then compaction past the token's revision.
      await kv.create('/registry/other/x', new TextEncoder().encode('{}'));
      await kv.compact(await kv.currentRevision());
      await assert.rejects(store.list('pages', { limit: 1, continue: token }), (err: unknown) => {
        assert.ok(err instanceof StatusError);
        assert.equal(err.status.code, 410);
        assert.equal(err.status.reason, 'Expired');
        return true;
      });
    });
  });
}
