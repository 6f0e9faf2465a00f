/**
 * AM-02 / AM-21: the informer's WatchList mode against a scripted server — initial events
 * collected aside until the initial-events-end BOOKMARK, then swapped in like a list (deletions
 * with the last known state), the same stream going on as the watch; the fallback to LIST+WATCH
 * on a refusal, remembered for the run.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonObject } from '../util/json.js';
import { ApiError } from './api-error.js';
import { SharedInformerFactory } from './informer-factory.js';
import { SharedInformer } from './shared-informer.js';
import type { SharedInformerOptions } from './shared-informer.js';
import { FakeListWatch, list, obj } from './testing/fake-list-watch.js';
import type { WatchChannel } from './testing/fake-list-watch.js';
import {
  defaultWatchListMode,
  isInitialEventsEndBookmark,
  isResourceVersionUnavailable,
  watchListQuery,
} from './watch-list.js';
import { recorder, until } from './testing/recorder.js';

const path = '/api/v1/configmaps';

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 20));

function informer(api: FakeListWatch, o: Partial<SharedInformerOptions> = {}): SharedInformer {
  return new SharedInformer({
    client: api,
    path,
    initialBackoffMs: 1,
    maxBackoffMs: 5,
    watchTimeoutSeconds: 30,
    ...o,
  });
}

function endBookmark(rv: string): { type: 'BOOKMARK'; object: JsonObject } {
  return {
    type: 'BOOKMARK',
    object: {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { resourceVersion: rv, annotations: { 'k8s.io/initial-events-end': 'true' } },
    },
  };
}

const refusal = (): ApiError =>
  new ApiError(
    422,
    JSON.stringify({
      kind: 'Status',
      code: 422,
      reason: 'Invalid',
      message:
        'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
    }),
  );

const isWatchList = (w: WatchChannel): boolean => w.path.includes('sendInitialEvents=true');

describe('AM-02 WatchList helpers', () => {
  it('builds the request, recognises the end bookmark and unavailable resourceVersions', () => {
    assert.equal(
      watchListQuery('', 30),
      'watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=30',
    );
    assert.match(watchListQuery('42', 30), /&resourceVersion=42&timeoutSeconds=30$/);
    assert.equal(isInitialEventsEndBookmark(endBookmark('1').object), true);
    assert.equal(isInitialEventsEndBookmark({ metadata: { resourceVersion: '1' } }), false);
    assert.equal(isResourceVersionUnavailable({ code: 410, reason: 'Expired' }), true);
    assert.equal(
      isResourceVersionUnavailable({
        code: 504,
        reason: 'Timeout',
        message: 'Timeout: Too large resource version: 9, current: 3',
      }),
      true,
    );
    assert.equal(isResourceVersionUnavailable({ code: 504, reason: 'Timeout', message: 'other' }), false);
    assert.equal(isResourceVersionUnavailable({ code: 500 }), false);
  });

  it('defaults to never, or auto with ENABLE_CLIENT_GO_WATCH_LIST_ALPHA (client-go v1.27)', () => {
    assert.equal(defaultWatchListMode({}), 'never');
    assert.equal(defaultWatchListMode({ ENABLE_CLIENT_GO_WATCH_LIST_ALPHA: '' }), 'never');
    assert.equal(defaultWatchListMode({ ENABLE_CLIENT_GO_WATCH_LIST_ALPHA: 'true' }), 'auto');
    const api = new FakeListWatch();
    if ((process.env['ENABLE_CLIENT_GO_WATCH_LIST_ALPHA'] ?? '') === '') {
      assert.equal(informer(api).usesWatchList(), false);
    }
    assert.equal(informer(api, { useWatchList: 'auto' }).usesWatchList(), true);
    assert.equal(informer(api, { useWatchList: 'never' }).usesWatchList(), false);
  });
});

describe('AM-02 AM-21 SharedInformer with WatchList', () => {
  it('syncs from one WatchList stream, without a LIST, and goes on watching with it', async () => {
    const api = new FakeListWatch();
    const inf = informer(api, { useWatchList: 'auto' });
    const r = recorder();
    inf.addEventHandler(r.handler);
    const abort = new AbortController();
    const done = inf.run(abort.signal);
    const w0 = await api.nthWatch(0);
    assert.equal(
      w0.path,
      `${path}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=30`,
    );
    w0.push({ type: 'ADDED', object: obj('ns', 'a', '5') });
    w0.push({ type: 'ADDED', object: obj('ns', 'b', '7') });
    await tick();
    assert.equal(inf.hasSynced(), false, 'nothing is applied before the bookmark');
    assert.equal(inf.store.size, 0);
    assert.deepEqual(r.log, []);
    w0.push(endBookmark('9'));
    assert.equal(await inf.synced, true);
    assert.deepEqual(r.log, ['add a@5', 'add b@7']);
    assert.equal(inf.lastResourceVersion(), '9');
    assert.deepEqual(inf.store.get('ns/a'), obj('ns', 'a', '5'));
    // Live events on the same stream.
    w0.push({ type: 'MODIFIED', object: obj('ns', 'a', '10') });
    w0.push({ type: 'DELETED', object: obj('ns', 'b', '11') });
    await until(() => inf.lastResourceVersion() === '11', 'the live events');
    assert.deepEqual(r.log.slice(2), ['update a@5->10', 'delete b@11']);
    assert.deepEqual(r.deleted, [[obj('ns', 'b', '11'), false]]);
    // The server ends it: a plain watch resumes from the last resourceVersion.
    w0.end();
    const w1 = await api.nthWatch(1);
    assert.match(w1.path, /\?watch=1&allowWatchBookmarks=true&resourceVersion=11&timeoutSeconds=30$/);
    assert.deepEqual(api.requests, [], 'no LIST request');
    abort.abort();
    await done;
    assert.equal(w1.closed, true);
  });

  it('a relist by WatchList swaps the state in at the bookmark; deletions carry the last known state', async () => {
    const api = new FakeListWatch();
    const inf = informer(api, { useWatchList: 'always' });
    const r = recorder();
    inf.addEventHandler(r.handler);
    const abort = new AbortController();
    const done = inf.run(abort.signal);
    const w0 = await api.nthWatch(0);
    for (const o of [obj('ns', 'a', '5'), obj('ns', 'b', '6'), obj('', 'cluster', '7')]) {
      w0.push({ type: 'ADDED', object: o });
    }
    w0.push(endBookmark('8'));
    await inf.synced;
    w0.push({ type: 'MODIFIED', object: obj('ns', 'b', '12', { data: { k: 'last' } }) });
    w0.push({
      type: 'ERROR',
      object: { kind: 'Status', status: 'Failure', reason: 'Expired', code: 410, message: 'too old' },
    });
    // The relist asks for a state at least as new as what the informer has.
    const w1 = await api.nthWatch(1);
    assert.match(w1.path, /sendInitialEvents=true&.*&resourceVersion=12&/);
    w1.push({ type: 'ADDED', object: obj('ns', 'a', '20') });
    w1.push({ type: 'ADDED', object: obj('', 'cluster', '7') });
    w1.push({ type: 'ADDED', object: obj('ns', 'd', '21') });
    await tick();
    assert.deepEqual(
      inf.store.keys().sort(),
      ['cluster', 'ns/a', 'ns/b'],
      'the old state until the bookmark',
    );
    w1.push(endBookmark('25'));
    await until(() => inf.lastResourceVersion() === '25', 'the bookmark');
    assert.deepEqual(r.log.slice(3), [
      'update b@6->12',
      'add d@21',
      'update a@5->20',
      'delete b@12 (final state unknown)',
    ]);
    assert.deepEqual(r.deleted, [[obj('ns', 'b', '12', { data: { k: 'last' } }), true]]);
    assert.deepEqual(inf.store.keys().sort(), ['cluster', 'ns/a', 'ns/d']);
    w1.push({ type: 'ADDED', object: obj('ns', 'e', '26') });
    await until(() => inf.store.get('ns/e') !== undefined, 'a live event after the relist');
    assert.deepEqual(api.requests, []);
    abort.abort();
    await done;
  });

  it('auto: a 422 refusal falls back to LIST+WATCH for the rest of the run; the next run asks again', async () => {
    const api = new FakeListWatch();
    const errors: unknown[] = [];
    const inf = informer(api, { useWatchList: 'auto', onError: (e) => errors.push(e) });
    const r = recorder();
    inf.addEventHandler(r.handler);
    let abort = new AbortController();
    let done = inf.run(abort.signal);
    (await api.nthWatch(0)).fail(refusal());
    api.answer(list('10', [obj('ns', 'a', '5')]));
    assert.equal(await inf.synced, true);
    assert.equal(inf.usesWatchList(), false);
    assert.deepEqual(api.requests, [`${path}?limit=500`]);
    const w1 = await api.nthWatch(1);
    assert.match(w1.path, /\?watch=1&allowWatchBookmarks=true&resourceVersion=10&/);
    // A relist in the same run does not ask for WatchList again.
    api.answer(list('20', [obj('ns', 'b', '15')]));
    w1.push({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired' } });
    const w2 = await api.nthWatch(2);
    assert.equal(isWatchList(w2), false);
    assert.equal(api.requests.length, 2);
    assert.deepEqual(r.log, ['add a@5', 'add b@15', 'delete a@5 (final state unknown)']);
    assert.deepEqual(errors, [], 'a refusal is not a failure');
    abort.abort();
    await done;

    // A new run tries WatchList again (from the store's resourceVersion).
    abort = new AbortController();
    done = inf.run(abort.signal);
    assert.equal(inf.usesWatchList(), true);
    const w3 = await api.nthWatch(3);
    assert.equal(isWatchList(w3), true);
    assert.match(w3.path, /&resourceVersion=20&/);
    w3.push({ type: 'ADDED', object: obj('ns', 'c', '30') });
    w3.push(endBookmark('31'));
    await until(() => inf.lastResourceVersion() === '31', 'the WatchList of the second run');
    assert.deepEqual(r.log.slice(3), ['add c@30', 'delete b@15 (final state unknown)']);
    assert.equal(api.requests.length, 2);
    abort.abort();
    await done;
  });

  it('always: a refusal is reported and retried after the backoff, never a LIST', async () => {
    const api = new FakeListWatch();
    const errors: unknown[] = [];
    const inf = informer(api, { useWatchList: 'always', onError: (e) => errors.push(e) });
    const abort = new AbortController();
    const done = inf.run(abort.signal);
    (await api.nthWatch(0)).fail(refusal());
    const w1 = await api.nthWatch(1);
    assert.equal(isWatchList(w1), true);
    assert.equal(errors.length, 1);
    assert.equal((errors[0] as ApiError).code, 422);
    w1.push(endBookmark('3'));
    assert.equal(await inf.synced, true);
    assert.deepEqual(api.requests, []);
    abort.abort();
    await done;
  });

  it('a stream that fails or ends before the bookmark leaves the store alone and is retried', async () => {
    const api = new FakeListWatch();
    const errors: unknown[] = [];
    const inf = informer(api, { useWatchList: 'auto', onError: (e) => errors.push(e) });
    const r = recorder();
    inf.addEventHandler(r.handler);
    const abort = new AbortController();
    const done = inf.run(abort.signal);
    const w0 = await api.nthWatch(0);
    w0.push({ type: 'ADDED', object: obj('ns', 'a', '5') });
    w0.fail(new Error('connection reset'));
    const w1 = await api.nthWatch(1);
    assert.equal(isWatchList(w1), true, 'not a refusal: WatchList again');
    w1.push({ type: 'ADDED', object: obj('ns', 'a', '5') });
    w1.end();
    const w2 = await api.nthWatch(2);
    assert.equal(isWatchList(w2), true);
    assert.equal(inf.hasSynced(), false);
    assert.deepEqual(r.log, []);
    assert.deepEqual(
      errors.map((e) => (e as Error).message),
      ['connection reset', `watch list of ${path} ended before its initial-events-end bookmark`],
    );
    w2.push({ type: 'ADDED', object: obj('ns', 'a', '5') });
    w2.push(endBookmark('6'));
    assert.equal(await inf.synced, true);
    assert.deepEqual(r.log, ['add a@5']);
    abort.abort();
    await done;
  });

  it('an unavailable resourceVersion (410, too large) is asked again as a consistent read', async () => {
    const api = new FakeListWatch();
    const errors: unknown[] = [];
    const inf = informer(api, { useWatchList: 'always', onError: (e) => errors.push(e) });
    const abort = new AbortController();
    const done = inf.run(abort.signal);
    const w0 = await api.nthWatch(0);
    w0.push(endBookmark('50'));
    await inf.synced;
    w0.push({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired' } });
    const w1 = await api.nthWatch(1);
    assert.match(w1.path, /&resourceVersion=50&/);
    w1.push({
      type: 'ERROR',
      object: {
        kind: 'Status',
        code: 504,
        reason: 'Timeout',
        message: 'Timeout: Too large resource version: 50, current: 3',
        details: { retryAfterSeconds: 1 },
      },
    });
    const w2 = await api.nthWatch(2);
    assert.equal(isWatchList(w2), true);
    assert.doesNotMatch(w2.path, /resourceVersion=\d/);
    w2.push(endBookmark('4'));
    await until(() => inf.lastResourceVersion() === '4', 'the consistent read');
    assert.deepEqual(errors, []);
    w2.push({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired' } });
    const w3 = await api.nthWatch(3);
    assert.match(w3.path, /&resourceVersion=4&/, 'the resourceVersion is used again once a sync worked');
    abort.abort();
    await done;
  });

  it('resyncs and indexes work the same after a WatchList sync', async () => {
    const api = new FakeListWatch();
    const inf = informer(api, { useWatchList: 'auto', resyncPeriodMs: 10 });
    inf.store.addIndex('byData', (o) => [String((o['data'] as { k?: string } | undefined)?.k)]);
    const r = recorder();
    inf.addEventHandler(r.handler);
    const abort = new AbortController();
    const done = inf.run(abort.signal);
    const w0 = await api.nthWatch(0);
    w0.push({ type: 'ADDED', object: obj('ns', 'a', '5', { data: { k: 'x' } }) });
    w0.push(endBookmark('6'));
    await inf.synced;
    assert.equal(inf.store.byIndex('byData', 'x').length, 1);
    await until(() => r.log.includes('update a@5->5'), 'a resync');
    abort.abort();
    await done;
  });

  it('the factory passes useWatchList to its informers', async () => {
    const api = new FakeListWatch();
    const factory = new SharedInformerFactory({ client: api, useWatchList: 'auto', watchTimeoutSeconds: 30 });
    const inf = factory.informerFor(path);
    const abort = new AbortController();
    factory.start(abort.signal);
    const w0 = await api.nthWatch(0);
    assert.equal(isWatchList(w0), true);
    w0.push(endBookmark('1'));
    assert.equal(await factory.waitForSync(), true);
    assert.equal(inf.hasSynced(), true);
    abort.abort();
    await factory.stopped();
  });
});
