/**
 * AM-02: WatchList (KEP-3157) — `watch=1&sendInitialEvents=true&
 * resourceVersionMatch=NotOlderThan` streams the state as ADDED events, one BOOKMARK annotated
 * `k8s.io/initial-events-end: "true"` (when bookmarks are allowed, as v1.27's cacher), then the
 * changes after that state, with no gap or duplicate. Gate `WatchList`: alpha, off by default.
 */
import assert from 'node:assert/strict';
import type { ClientHttp2Session } from 'node:http2';
import { after, before, describe, it } from 'node:test';
import { joinsKept } from '../../src/apiserver/handlers/watch.js';
import { adminSession, collectWatch, until } from '../support/h2-watch.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

interface Meta {
  name?: string;
  resourceVersion?: string;
  annotations?: Record<string, string>;
  labels?: Record<string, string>;
}
interface Line {
  readonly type: string;
  readonly object: {
    kind?: string;
    apiVersion?: string;
    code?: number;
    reason?: string;
    message?: string;
    details?: { retryAfterSeconds?: number };
    metadata: Meta;
    data?: Record<string, string>;
  };
}

const watchList = 'watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan';

const cm = (name: string, labels: Record<string, string> = {}, v = '0'): unknown => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, labels },
  data: { v },
});

const summary = (lines: readonly Line[]): string[] =>
  lines.map((l) => `${l.type} ${l.object.metadata.name ?? ''}`);

describe('AM-02 WatchList gate off (v1.27 default)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ controllers: false });
  });
  after(async () => {
    await server.stop();
  });

  it('refuses sendInitialEvents with upstream’s 422', async () => {
    const r = await server.request('GET', `/api/v1/namespaces/default/configmaps?${watchList}`);
    assert.equal(r.status, 422);
    assert.equal(
      r.json()['message'],
      'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
    );
  });
});

describe('AM-02 WatchList gate on', () => {
  let server: TestServer;
  let session: ClientHttp2Session;
  let ns = 0;
  before(async () => {
    server = await startTestServer({ controllers: false, featureGates: { WatchList: true } });
    session = adminSession(server);
  });
  after(async () => {
    session.close();
    await server.stop();
  });

  async function namespace(objects: number): Promise<{ name: string; rvs: string[] }> {
    const name = `wl-${ns++}`;
    await server.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
    });
    const rvs: string[] = [];
    for (let i = 0; i < objects; i++) {
      const r = await server.request('POST', `/api/v1/namespaces/${name}/configmaps`, {
        body: cm(`c${i}`, { parity: i % 2 === 0 ? 'even' : 'odd' }),
      });
      assert.equal(r.status, 201);
      rvs.push(r.json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion);
    }
    return { name, rvs };
  }

  function open(path: string): ReturnType<typeof collectWatch<Line>> {
    return collectWatch<Line>(session, path);
  }

  it('streams the state, then one annotated BOOKMARK with its resourceVersion, then changes', async () => {
    const { name, rvs } = await namespace(5);
    const w = open(`/api/v1/namespaces/${name}/configmaps?${watchList}&allowWatchBookmarks=true`);
    assert.equal(await w.status, 200);
    await until(() => w.lines.length >= 6);
    assert.deepEqual(summary(w.lines), [
      'ADDED c0',
      'ADDED c1',
      'ADDED c2',
      'ADDED c3',
      'ADDED c4',
      'BOOKMARK ',
    ]);
    const bookmark = w.lines[5]!;
    assert.equal(bookmark.object.kind, 'ConfigMap');
    assert.equal(bookmark.object.apiVersion, 'v1');
    assert.deepEqual(bookmark.object.metadata.annotations, { 'k8s.io/initial-events-end': 'true' });
    const stateRv = Number(bookmark.object.metadata.resourceVersion);
    assert.ok(stateRv >= Number(rvs[4]), 'the state is at least as new as the last write');
    const r = await server.request('POST', `/api/v1/namespaces/${name}/configmaps`, { body: cm('late') });
    await until(() => w.lines.length >= 7);
    assert.deepEqual(summary(w.lines.slice(6)), ['ADDED late']);
    assert.equal(
      w.lines[6]!.object.metadata.resourceVersion,
      r.json<{ metadata: Meta }>().metadata.resourceVersion,
    );
    assert.ok(Number(w.lines[6]!.object.metadata.resourceVersion) > stateRv);
    assert.equal(
      w.lines.filter((l) => l.type === 'BOOKMARK').length,
      1,
      'exactly one initial-events-end bookmark',
    );
    w.stream.close();
  });

  it('without allowWatchBookmarks no BOOKMARK is sent (v1.27)', async () => {
    const { name } = await namespace(3);
    const w = open(`/api/v1/namespaces/${name}/configmaps?${watchList}`);
    assert.equal(await w.status, 200);
    await until(() => w.lines.length >= 3);
    await server.request('POST', `/api/v1/namespaces/${name}/configmaps`, { body: cm('late') });
    await until(() => w.lines.length >= 4);
    assert.deepEqual(summary(w.lines), ['ADDED c0', 'ADDED c1', 'ADDED c2', 'ADDED late']);
    w.stream.close();
  });

  it('label and field selectors apply to the initial events', async () => {
    const { name } = await namespace(5);
    const odd = open(
      `/api/v1/namespaces/${name}/configmaps?${watchList}&allowWatchBookmarks=true&labelSelector=parity%3Dodd`,
    );
    const one = open(
      `/api/v1/namespaces/${name}/configmaps?${watchList}&allowWatchBookmarks=true&fieldSelector=metadata.name%3Dc2`,
    );
    await until(() => odd.lines.length >= 3 && one.lines.length >= 2);
    assert.deepEqual(summary(odd.lines), ['ADDED c1', 'ADDED c3', 'BOOKMARK ']);
    assert.deepEqual(summary(one.lines), ['ADDED c2', 'BOOKMARK ']);
    odd.stream.close();
    one.stream.close();
  });

  it('resourceVersion "0" and a specific resourceVersion give a state at least that new', async () => {
    const { name, rvs } = await namespace(4);
    const zero = open(
      `/api/v1/namespaces/${name}/configmaps?${watchList}&allowWatchBookmarks=true&resourceVersion=0`,
    );
    const old = open(
      `/api/v1/namespaces/${name}/configmaps?${watchList}&allowWatchBookmarks=true&resourceVersion=${rvs[1]!}`,
    );
    await until(() => zero.lines.length >= 5 && old.lines.length >= 5);
    for (const w of [zero, old]) {
      assert.deepEqual(summary(w.lines), ['ADDED c0', 'ADDED c1', 'ADDED c2', 'ADDED c3', 'BOOKMARK ']);
      assert.ok(Number(w.lines[4]!.object.metadata.resourceVersion) >= Number(rvs[3]));
    }
    zero.stream.close();
    old.stream.close();
  });

  it('sendInitialEvents=false with NotOlderThan is a plain watch from the resourceVersion', async () => {
    const { name, rvs } = await namespace(3);
    const w = open(
      `/api/v1/namespaces/${name}/configmaps?watch=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&resourceVersion=${rvs[0]!}`,
    );
    assert.equal(await w.status, 200);
    await until(() => w.lines.length >= 2);
    assert.deepEqual(summary(w.lines), ['ADDED c1', 'ADDED c2']);
    const now = open(
      `/api/v1/namespaces/${name}/configmaps?watch=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan`,
    );
    assert.equal(await now.status, 200);
    await server.request('POST', `/api/v1/namespaces/${name}/configmaps`, { body: cm('late') });
    await until(() => now.lines.length >= 1);
    assert.deepEqual(
      summary(now.lines),
      ['ADDED late'],
      'no state for "": starts at the most recent revision',
    );
    w.stream.close();
    now.stream.close();
  });

  it('a resourceVersion ahead of the store: waits for it, or sends upstream’s 504 as an ERROR event', async () => {
    const { name } = await namespace(1);
    const list = (await server.request('GET', `/api/v1/namespaces/${name}/configmaps`)).json<{
      metadata: Meta;
    }>();
    const current = Number(list.metadata.resourceVersion);
    // Reached while waiting: the state includes the write that got there.
    const soon = open(
      `/api/v1/namespaces/${name}/configmaps?${watchList}&allowWatchBookmarks=true&resourceVersion=${current + 1}`,
    );
    await new Promise((r) => setTimeout(r, 300));
    await server.request('POST', `/api/v1/namespaces/${name}/configmaps`, { body: cm('arrived') });
    await until(() => soon.lines.length >= 3);
    assert.deepEqual(summary(soon.lines), ['ADDED arrived', 'ADDED c0', 'BOOKMARK ']);
    soon.stream.close();
    // Never reached: after 3 s, one ERROR event (upstream's cacher answers with newErrWatcher).
    const far = current + 1_000_000;
    const started = Date.now();
    const w = open(`/api/v1/namespaces/${name}/configmaps?${watchList}&resourceVersion=${far}`);
    assert.equal(await w.status, 200);
    await w.ended;
    assert.ok(Date.now() - started >= 2900, 'waited about 3 s');
    assert.equal(w.lines.length, 1);
    const ev = w.lines[0]!;
    assert.equal(ev.type, 'ERROR');
    assert.equal(ev.object.code, 504);
    assert.equal(ev.object.reason, 'Timeout');
    assert.match(
      ev.object.message ?? '',
      new RegExp(`^Timeout: Too large resource version: ${far}, current: \\d+$`),
    );
    assert.equal(ev.object.details?.retryAfterSeconds, 1);
  });

  it('no event is lost or duplicated with a concurrent writer', async () => {
    const { name } = await namespace(20);
    const base = `/api/v1/namespaces/${name}/configmaps`;
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const target = `c${i % 20}`;
        if (i % 7 === 3) {
          await server.request('DELETE', `${base}/${target}`);
          await server.request('POST', base, { body: cm(target, {}, String(i)) });
        } else {
          await server.request('PATCH', `${base}/${target}`, {
            body: { data: { v: String(i) } },
            contentType: 'application/merge-patch+json',
          });
        }
      }
    })();
    await new Promise((r) => setTimeout(r, 100));
    const watchers = Array.from({ length: 4 }, () => open(`${base}?${watchList}&allowWatchBookmarks=true`));
    await new Promise((r) => setTimeout(r, 500));
    writing = false;
    await writer;
    const final = (await server.request('GET', base)).json<{
      metadata: Meta;
      items: { metadata: Meta; data: Record<string, string> }[];
    }>();
    const finalRv = Number(final.metadata.resourceVersion);
    for (const w of watchers) {
      await until(() => w.lines.some((l) => Number(l.object.metadata.resourceVersion) >= finalRv));
      const end = w.lines.findIndex((l) => l.type === 'BOOKMARK');
      assert.ok(end >= 0);
      const stateRv = Number(w.lines[end]!.object.metadata.resourceVersion);
      const seen = new Map<string, string>();
      for (const l of w.lines.slice(0, end)) {
        assert.equal(l.type, 'ADDED');
        assert.ok(Number(l.object.metadata.resourceVersion) <= stateRv);
        seen.set(l.object.metadata.name!, l.object.data?.['v'] ?? '');
      }
      let last = stateRv;
      for (const l of w.lines.slice(end + 1)) {
        const rv = Number(l.object.metadata.resourceVersion);
        assert.ok(rv > last, `events after the state come in order without duplicates (${rv} > ${last})`);
        last = rv;
        if (l.type === 'DELETED') seen.delete(l.object.metadata.name!);
        else seen.set(l.object.metadata.name!, l.object.data?.['v'] ?? '');
      }
      assert.deepEqual(
        [...seen.entries()].sort(),
        final.items.map((i) => [i.metadata.name!, i.data['v'] ?? '']).sort(),
        'replaying the stream gives the final state',
      );
      w.stream.close();
    }
  });
  it('keeps no event bytes once WatchLists larger than a chunk have synced', async () => {
    // Objects over a watch's 256 KiB chunk: after the first write each watch catches up outside
    // the flush rounds, and those writes' joined bytes must not wait for a round to be let go
    // (16 informers of 100 MiB of Secrets once left 145 MiB held after syncing).
    const name = `wl-${ns++}`;
    await server.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
    });
    const big = 'x'.repeat(300 * 1024);
    for (let i = 0; i < 8; i++) {
      const r = await server.request('POST', `/api/v1/namespaces/${name}/configmaps`, {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `big${i}` }, data: { v: big } },
      });
      assert.equal(r.status, 201);
    }
    const watchers = Array.from({ length: 3 }, () =>
      open(`/api/v1/namespaces/${name}/configmaps?${watchList}&allowWatchBookmarks=true`),
    );
    for (const w of watchers) {
      assert.equal(await w.status, 200);
      await until(() => w.lines.some((l) => l.type === 'BOOKMARK'));
      const added = w.lines.filter((l) => l.type === 'ADDED');
      assert.deepEqual(
        added.map((l) => l.object.metadata.name),
        Array.from({ length: 8 }, (_, i) => `big${i}`),
      );
      assert.ok(added.every((l) => l.object.data?.['v'] === big));
    }
    assert.equal(joinsKept(), 0, 'no joined event bytes kept outside a flush round');
    for (const w of watchers) w.stream.close();
  });
});
