import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '../util/clock.js';
import type { JsonObject } from '../util/json.js';
import { ApiError } from './api-error.js';
import { SharedInformerFactory } from './informer-factory.js';
import { SharedInformer, stripManagedFields } from './shared-informer.js';
import { FakeListWatch, list, obj } from './testing/fake-list-watch.js';
import { recorder, until } from './testing/recorder.js';

const path = '/api/v1/configmaps';

function informer(api: FakeListWatch, o: { onError?: (err: unknown) => void } = {}): SharedInformer {
  return new SharedInformer({
    client: api,
    path,
    initialBackoffMs: 1,
    maxBackoffMs: 5,
    watchTimeoutSeconds: 30,
    ...o,
  });
}

describe('SharedInformer', () => {
  it('lists into its store, then applies watch events and follows bookmarks', async () => {
    const api = new FakeListWatch();
    api.answer(list('10', [obj('ns', 'a', '5'), obj('ns', 'b', '6')]));
    const inf = informer(api);
    const r = recorder();
    inf.addEventHandler(r.handler);
    const abort = new AbortController();
    const done = inf.run(abort.signal);
    assert.equal(await inf.synced, true);
    assert.equal(inf.hasSynced(), true);
    assert.deepEqual(r.log, ['add a@5', 'add b@6']);
    assert.deepEqual(inf.store.get('ns/a'), obj('ns', 'a', '5'));
    assert.equal(inf.store.size, 2);

    const w0 = await api.nthWatch(0);
    assert.match(w0.path, /\?watch=1&allowWatchBookmarks=true&resourceVersion=10&timeoutSeconds=30$/);
    w0.push({ type: 'MODIFIED', object: obj('ns', 'a', '11') });
    w0.push({ type: 'ADDED', object: obj('ns', 'c', '12') });
    w0.push({ type: 'DELETED', object: obj('ns', 'b', '13') });
    w0.push({ type: 'DELETED', object: obj('ns', 'never-seen', '14') });
    w0.push({ type: 'BOOKMARK', object: { kind: 'ConfigMap', metadata: { resourceVersion: '20' } } });
    await until(() => inf.lastResourceVersion() === '20', 'the bookmark');
    assert.deepEqual(r.log.slice(2), ['update a@5->11', 'add c@12', 'delete b@13']);
    assert.deepEqual(r.deleted, [[obj('ns', 'b', '13'), false]]);
    assert.deepEqual(inf.store.keys().sort(), ['ns/a', 'ns/c']);

    // The server ends the watch (its timeout): resumed from the bookmark, without a relist.
    w0.end();
    const w1 = await api.nthWatch(1);
    assert.match(w1.path, /resourceVersion=20&/);
    assert.equal(api.requests.length, 1);
    abort.abort();
    await done;
    assert.equal(w1.closed, true);
  });

  it('#9 a transform (stripManagedFields) applies to listed and watched objects before the store', async () => {
    const api = new FakeListWatch();
    const managed = (o: ReturnType<typeof obj>) => ({
      ...o,
      metadata: { ...(o['metadata'] as JsonObject), managedFields: [{ manager: 'm', operation: 'Update' }] },
    });
    api.answer(list('10', [managed(obj('ns', 'a', '5'))]));
    const inf = new SharedInformer({
      client: api,
      path,
      watchTimeoutSeconds: 30,
      transform: stripManagedFields,
    });
    const abort = new AbortController();
    const done = inf.run(abort.signal);
    assert.equal(await inf.synced, true);
    assert.deepEqual(inf.store.get('ns/a'), obj('ns', 'a', '5'));
    const w0 = await api.nthWatch(0);
    w0.push({ type: 'MODIFIED', object: managed(obj('ns', 'a', '11')) });
    await until(() => inf.lastResourceVersion() === '11', 'the event');
    assert.deepEqual(inf.store.get('ns/a'), obj('ns', 'a', '11'));
    abort.abort();
    await done;
  });

  it('relists after a 410 ERROR event; objects gone meanwhile reach onDelete in their last known state', async () => {
    const api = new FakeListWatch();
    api.answer(list('10', [obj('ns', 'a', '5'), obj('ns', 'b', '6'), obj('', 'cluster', '7')]));
    const inf = informer(api);
    const r = recorder();
    inf.addEventHandler(r.handler);
    const abort = new AbortController();
    const done = inf.run(abort.signal);
    const w0 = await api.nthWatch(0);
    w0.push({ type: 'MODIFIED', object: obj('ns', 'a', '11', { data: { k: 'last' } }) });
    w0.push({
      type: 'ERROR',
      object: { kind: 'Status', status: 'Failure', reason: 'Expired', code: 410, message: 'too old' },
    });
    // The relist: a was deleted, b changed, cluster unchanged, d is new.
    api.answer(list('30', [obj('ns', 'b', '25'), obj('', 'cluster', '7'), obj('ns', 'd', '28')]));
    const w1 = await api.nthWatch(1);
    assert.match(w1.path, /resourceVersion=30&/);
    assert.equal(api.requests.length, 2);
    assert.equal(api.requests[1], `${path}?limit=500`);
    assert.deepEqual(r.log.slice(3), [
      'update a@5->11',
      'add d@28',
      'update b@6->25',
      'delete a@11 (final state unknown)',
    ]);
    assert.deepEqual(r.deleted, [[obj('ns', 'a', '11', { data: { k: 'last' } }), true]]);
    assert.deepEqual(inf.store.keys().sort(), ['cluster', 'ns/b', 'ns/d']);
    abort.abort();
    await done;
  });

  it('relists after a failed watch or list, reporting the errors, and after a 410 answer', async () => {
    const api = new FakeListWatch();
    const errors: unknown[] = [];
    api.answer(list('10', [obj('ns', 'a', '5')]));
    const inf = informer(api, { onError: (e) => errors.push(e) });
    const r = recorder();
    inf.addEventHandler(r.handler);
    const abort = new AbortController();
    const done = inf.run(abort.signal);
    (await api.nthWatch(0)).fail(new Error('connection reset'));
    api.answer(new Error('connection refused'), list('12', []));
    const w1 = await api.nthWatch(1);
    assert.deepEqual(
      errors.map((e) => (e as Error).message),
      ['connection reset', 'connection refused'],
    );
    assert.deepEqual(r.log, ['add a@5', 'delete a@5 (final state unknown)']);
    // A 410 refusing the watch itself: relist at once, not reported.
    api.answer(list('14', [obj('ns', 'e', '13')]));
    w1.fail(new ApiError(410, JSON.stringify({ kind: 'Status', code: 410, reason: 'Expired' })));
    await api.nthWatch(2);
    assert.equal(errors.length, 2);
    assert.deepEqual(r.log.slice(2), ['add e@13']);
    abort.abort();
    await done;
  });

  it('lists in pages, falling back to one full list when the continue token expires', async () => {
    const api = new FakeListWatch();
    api.answer(
      list('10', [obj('ns', 'a', '1')], 'tok1'),
      list('10', [obj('ns', 'b', '2')], 'tok2'),
      new ApiError(410, '{"kind":"Status","code":410,"reason":"Expired"}'),
      list('11', [obj('ns', 'a', '1'), obj('ns', 'b', '2'), obj('ns', 'c', '3')]),
    );
    const inf = new SharedInformer({ client: api, path: `${path}?labelSelector=x%3Dy`, pageSize: 1 });
    const abort = new AbortController();
    const done = inf.run(abort.signal);
    await inf.synced;
    assert.deepEqual(api.requests, [
      `${path}?labelSelector=x%3Dy&limit=1`,
      `${path}?labelSelector=x%3Dy&limit=1&continue=tok1`,
      `${path}?labelSelector=x%3Dy&limit=1&continue=tok2`,
      `${path}?labelSelector=x%3Dy`,
    ]);
    assert.equal(inf.store.size, 3);
    assert.equal(inf.lastResourceVersion(), '11');
    // List items get the kind and apiVersion their list implies.
    assert.deepEqual(inf.store.get('ns/c'), obj('ns', 'c', '3'));
    abort.abort();
    await done;
  });

  it('replays the store to a handler added after sync; removed handlers hear nothing more', async () => {
    const api = new FakeListWatch();
    api.answer(list('10', [obj('ns', 'a', '5')]));
    const errors: unknown[] = [];
    const inf = informer(api, { onError: (e) => errors.push(e) });
    const abort = new AbortController();
    const done = inf.run(abort.signal);
    await inf.synced;
    const early = recorder();
    const late = recorder();
    const reg = inf.addEventHandler(late.handler);
    inf.addEventHandler({
      onAdd: () => {
        throw new Error('handler bug');
      },
    });
    inf.addEventHandler(early.handler);
    assert.deepEqual(late.log, ['add a@5']);
    reg.remove();
    const w0 = await api.nthWatch(0);
    w0.push({ type: 'ADDED', object: obj('ns', 'b', '11') });
    await until(() => early.log.length === 2, 'the event');
    assert.deepEqual(late.log, ['add a@5']);
    // A throwing handler is reported and does not keep the others from hearing.
    assert.deepEqual(
      errors.map((e) => (e as Error).message),
      ['handler bug', 'handler bug'],
    );
    abort.abort();
    await done;
  });

  it('synced resolves false when stopped before a list succeeded', async () => {
    const api = new FakeListWatch();
    const inf = informer(api);
    const abort = new AbortController();
    const done = inf.run(abort.signal);
    abort.abort();
    await done;
    assert.equal(await inf.synced, false);
    assert.equal(inf.hasSynced(), false);
  });
});

describe('SharedInformerFactory', () => {
  it('gives one informer (one LIST+WATCH) per path to every handler, started with the factory', async () => {
    const api = new FakeListWatch();
    api.answer(list('10', [obj('', 'n1', '5')]), list('10', []));
    const factory = new SharedInformerFactory({ client: api, watchTimeoutSeconds: 30 });
    const a = recorder();
    const b = recorder();
    factory.informerFor('/api/v1/namespaces').addEventHandler(a.handler);
    factory.informerFor('/api/v1/namespaces').addEventHandler(b.handler);
    assert.equal(factory.informerFor('/api/v1/namespaces'), factory.informerFor('/api/v1/namespaces'));
    const abort = new AbortController();
    factory.start(abort.signal);
    // Asked for after the start: started at once.
    const late = factory.informerFor('/api/v1/serviceaccounts');
    assert.equal(await factory.waitForSync(), true);
    assert.equal(late.hasSynced(), true);
    assert.deepEqual(api.requests, ['/api/v1/namespaces?limit=500', '/api/v1/serviceaccounts?limit=500']);
    assert.deepEqual(a.log, ['add n1@5']);
    assert.deepEqual(b.log, ['add n1@5']);
    await api.nthWatch(1);
    assert.throws(() => factory.start(abort.signal), /already started/);
    abort.abort();
    await factory.stopped();
    assert.ok(api.watches.every((w) => w.closed));
  });
});

describe('SharedInformer resync', () => {
  it('calls onUpdate(obj, obj) for every stored object each period once synced', async () => {
    const api = new FakeListWatch();
    api.answer(list('10', [obj('ns', 'a', '5'), obj('ns', 'b', '6')]));
    const inf = new SharedInformer({ client: api, path, watchTimeoutSeconds: 30, resyncPeriodMs: 5 });
    const r = recorder();
    inf.addEventHandler(r.handler);
    const abort = new AbortController();
    const done = inf.run(abort.signal);
    await until(() => r.log.filter((l) => l === 'update a@5->5').length >= 2, 'two resyncs');
    assert.ok(r.log.includes('update b@6->6'));
    abort.abort();
    await done;
  });
});

describe('SharedInformer on a FakeClock', () => {
  it('#7 resyncs only when the fake clock passes the resync period', async () => {
    const clock = new FakeClock(0);
    const api = new FakeListWatch();
    api.answer(list('10', [obj('ns', 'a', '5')]));
    const inf = new SharedInformer({
      client: api,
      path,
      watchTimeoutSeconds: 30,
      resyncPeriodMs: 30_000,
      clock,
    });
    const r = recorder();
    inf.addEventHandler(r.handler);
    const abort = new AbortController();
    const done = inf.run(abort.signal);
    assert.equal(await inf.synced, true);
    await api.nthWatch(0);
    await new Promise((res) => setTimeout(res, 20));
    assert.deepEqual(r.log, ['add a@5']);
    clock.advance(29_999);
    await new Promise((res) => setImmediate(res));
    assert.deepEqual(r.log, ['add a@5']);
    clock.advance(1);
    await until(() => r.log.length === 2, 'the first resync');
    assert.deepEqual(r.log, ['add a@5', 'update a@5->5']);
    await until(() => clock.sleepers === 1, 'the next resync wait');
    clock.advance(30_000);
    await until(() => r.log.length === 3, 'the second resync');
    abort.abort();
    await done;
    assert.equal(clock.sleepers, 0);
  });

  it('#7 a broken watch is retried after the backoff on the fake clock', async () => {
    const clock = new FakeClock(0);
    const api = new FakeListWatch();
    api.answer(list('10', []), list('11', []));
    const inf = new SharedInformer({
      client: api,
      path,
      watchTimeoutSeconds: 30,
      initialBackoffMs: 800,
      clock,
    });
    const abort = new AbortController();
    const done = inf.run(abort.signal);
    (await api.nthWatch(0)).fail(new Error('connection reset'));
    await until(() => clock.sleepers === 1, 'the backoff');
    await new Promise((res) => setTimeout(res, 20));
    assert.equal(api.requests.length, 1); // no relist in real time
    clock.advance(799);
    await new Promise((res) => setImmediate(res));
    assert.equal(api.requests.length, 1);
    clock.advance(1);
    await api.nthWatch(1);
    assert.equal(api.requests.length, 2);
    abort.abort();
    await done;
  });
});
