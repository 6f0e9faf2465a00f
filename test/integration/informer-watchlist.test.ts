/**
 * AM-02 / AM-21 (Client): nanokube's informer syncs through one WatchList request when the
 * server's `WatchList` gate is on, falls back to LIST+WATCH after the 422 when it is off, and, in
 * every mode and across switches between them, never misses an event under a concurrent writer:
 * at the end every informer's store equals the server's list and its handlers saw each object's
 * last state; deletions found by a relist come with the last known state. @kubernetes/client-node's
 * informer (LIST+WATCH) keeps working against a server with the gate on.
 */
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api, KubeConfig, makeInformer } from '@kubernetes/client-node';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { Http2Transport } from '../../src/client/http2-transport.js';
import { objectKey, resourceVersionOf } from '../../src/client/object-meta.js';
import { RestClient } from '../../src/client/rest-client.js';
import { SharedInformer } from '../../src/client/shared-informer.js';
import type { WatchListMode } from '../../src/client/shared-informer.js';
import type { PoolStats } from '../../src/client/session-pool.js';
import type { Transport, TransportRequest, TransportResponse } from '../../src/client/transport.js';
import type { JsonObject } from '../../src/util/json.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

async function until(cond: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`timed out waiting for ${what}`);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const goneLine = `${JSON.stringify({
  type: 'ERROR',
  object: {
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    reason: 'Expired',
    code: 410,
    message: 'too old resource version (forced by the test)',
  },
})}\n`;

const refusalBody = JSON.stringify({
  kind: 'Status',
  apiVersion: 'v1',
  status: 'Failure',
  reason: 'Invalid',
  code: 422,
  message: 'refused by the test',
});

/**
 * The client's HTTP/2 transport, recording every request, able to end every open watch with a
 * 410 ERROR event (the informer must relist, as after a compaction) and to refuse WatchList
 * requests with a 422 as a server with the gate off would.
 */
class ChaosTransport implements Transport {
  readonly requests: string[] = [];
  /** Answer WatchList requests with 422 without asking the server. */
  refuseWatchList = false;
  readonly #inner: Http2Transport;
  readonly #expire = new Set<() => void>();

  constructor(server: TestServer) {
    this.#inner = new Http2Transport({
      origin: `https://127.0.0.1:${server.port}`,
      ca: server.pki.caCert,
      cert: server.pki.adminCert,
      key: server.pki.adminKey,
    });
  }

  /** Ends every open watch with a 410 ERROR event. */
  expireWatches(): void {
    for (const f of [...this.#expire]) f();
  }

  async send(request: TransportRequest): Promise<TransportResponse> {
    this.requests.push(request.path);
    if (this.refuseWatchList && request.path.includes('sendInitialEvents=true')) {
      return {
        status: 422,
        body: (async function* () {
          await Promise.resolve();
          yield Buffer.from(refusalBody);
        })(),
        cancel: () => undefined,
      };
    }
    const response = await this.#inner.send(request);
    if (!request.path.includes('watch=1') || response.status !== 200) return response;
    let expired: () => void = () => undefined;
    const expiry = new Promise<'expired'>((resolve) => {
      expired = () => resolve('expired');
    });
    this.#expire.add(expired);
    const expireSet = this.#expire;
    async function* body(): AsyncGenerator<Uint8Array> {
      const it = response.body[Symbol.asyncIterator]();
      let atLineStart = true;
      try {
        for (;;) {
          const next = await Promise.race([it.next(), expiry]);
          if (next === 'expired') {
            response.cancel();
            yield Buffer.from(atLineStart ? goneLine : `\n${goneLine}`);
            return;
          }
          if (next.done === true) return;
          const chunk = next.value;
          if (chunk.byteLength > 0) atLineStart = chunk[chunk.byteLength - 1] === 10;
          yield chunk;
        }
      } finally {
        expireSet.delete(expired);
        response.cancel();
      }
    }
    return { status: response.status, body: body(), cancel: () => response.cancel() };
  }

  stats(): PoolStats {
    return this.#inner.stats();
  }

  close(): void {
    this.#inner.close();
  }

  watchLists(): string[] {
    return this.requests.filter((p) => p.includes('sendInitialEvents=true'));
  }

  lists(): string[] {
    return this.requests.filter((p) => !p.includes('watch=1'));
  }
}

/**
 * A handler keeping its own picture of the collection from what it is told, and recording any
 * call that contradicts it: an add of a known key, an update or delete whose old state is not the
 * one last handed over (by resourceVersion: a relist swaps in a fresh copy of an unchanged object
 * without telling, as client-go does for handlers without a resync period), an update going back
 * in resourceVersion.
 */
class Mirror {
  readonly view = new Map<string, JsonObject>();
  readonly violations: string[] = [];
  readonly unknownDeletes: JsonObject[] = [];

  readonly handler = {
    onAdd: (obj: JsonObject): void => {
      const key = objectKey(obj);
      if (this.view.has(key)) this.violations.push(`add of known ${key}`);
      this.view.set(key, obj);
    },
    onUpdate: (old: JsonObject, obj: JsonObject): void => {
      const key = objectKey(obj);
      const had = this.view.get(key);
      if (had === undefined || resourceVersionOf(had) !== resourceVersionOf(old)) {
        this.violations.push(`update of ${key}: not from the last state handed over`);
      }
      if (Number(resourceVersionOf(obj)) < Number(resourceVersionOf(old))) {
        this.violations.push(
          `update of ${key} went back ${resourceVersionOf(old)} → ${resourceVersionOf(obj)}`,
        );
      }
      this.view.set(key, obj);
    },
    onDelete: (lastKnown: JsonObject, finalStateUnknown: boolean): void => {
      const key = objectKey(lastKnown);
      const had = this.view.get(key);
      if (had === undefined) this.violations.push(`delete of unknown ${key}`);
      else if (finalStateUnknown && !isDeepStrictEqual(had, lastKnown)) {
        this.violations.push(`relist delete of ${key} without the last known state`);
      }
      if (finalStateUnknown) this.unknownDeletes.push(lastKnown);
      this.view.delete(key);
    },
  };
}

interface Item {
  readonly metadata: { name: string; namespace: string; resourceVersion: string };
  readonly data?: Record<string, string>;
}

function summary(objs: Iterable<JsonObject | Item>): string[] {
  const out: string[] = [];
  for (const o of objs) {
    const meta = (o as Item).metadata;
    out.push(`${meta.name}@${meta.resourceVersion}:${(o as Item).data?.['v'] ?? ''}`);
  }
  return out.sort();
}

/** One informer of the test with its transport and its handler's mirror. */
class Subject {
  readonly transport: ChaosTransport;
  readonly client: RestClient;
  readonly informer: SharedInformer;
  readonly mirror = new Mirror();
  readonly errors: unknown[] = [];
  #abort = new AbortController();
  #done: Promise<void> = Promise.resolve();

  constructor(server: TestServer, path: string, mode: WatchListMode) {
    this.transport = new ChaosTransport(server);
    this.client = new RestClient({ transport: this.transport });
    this.informer = new SharedInformer({
      client: this.client,
      path,
      useWatchList: mode,
      initialBackoffMs: 10,
      maxBackoffMs: 50,
      onError: (e) => this.errors.push(e),
    });
    this.informer.addEventHandler(this.mirror.handler);
  }

  start(): void {
    this.#abort = new AbortController();
    this.#done = this.informer.run(this.#abort.signal);
  }

  async stop(): Promise<void> {
    this.#abort.abort();
    await this.#done;
  }

  close(): void {
    this.client.close();
  }
}

const cm = (name: string, v: string): unknown => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { v },
});

async function createNamespace(server: TestServer, name: string): Promise<void> {
  const r = await server.request('POST', '/api/v1/namespaces', {
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
  });
  assert.equal(r.status, 201, r.text);
}

describe('AM-02 informer WatchList: gate on', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ controllers: false, featureGates: { WatchList: true } });
  });
  after(async () => {
    await server.stop();
  });

  it('syncs through one WatchList request, no LIST, and follows changes on that stream', async () => {
    await createNamespace(server, 'wl-sync');
    const base = '/api/v1/namespaces/wl-sync/configmaps';
    for (let i = 0; i < 5; i++) {
      assert.equal((await server.request('POST', base, { body: cm(`c${i}`, String(i)) })).status, 201);
    }
    const s = new Subject(server, base, 'auto');
    s.start();
    try {
      assert.equal(await s.informer.synced, true);
      assert.equal(s.transport.requests.length, 1);
      const [first] = s.transport.requests;
      assert.match(
        first ?? '',
        /^\/api\/v1\/namespaces\/wl-sync\/configmaps\?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=\d+$/,
      );
      assert.deepEqual(s.transport.lists(), [], 'no LIST request');
      const list = (await server.request('GET', base)).json<{ items: Item[] }>();
      assert.deepEqual(summary(s.informer.store.list()), summary(list.items));
      assert.deepEqual(summary(s.mirror.view.values()), summary(list.items));
      const late = await server.request('POST', base, { body: cm('late', 'x') });
      const rv = late.json<Item>().metadata.resourceVersion;
      await until(() => s.informer.store.get('wl-sync/late') !== undefined, 'the live event');
      assert.equal(resourceVersionOf(s.informer.store.get('wl-sync/late') ?? {}), rv);
      assert.equal(s.transport.requests.length, 1, 'the same stream carried the change');
      assert.deepEqual(s.errors, []);
    } finally {
      await s.stop();
      s.close();
    }
  });

  it(
    'never misses an event with a concurrent writer while informers switch modes, relist and restart',
    { timeout: 60_000 },
    async () => {
      const ns = 'wl-chaos';
      await createNamespace(server, ns);
      const base = `/api/v1/namespaces/${ns}/configmaps`;
      // An object every informer holds, deleted while they are stopped: each relist must report
      // it deleted with the state it had.
      const victim = await server.request('POST', base, { body: cm('victim', 'kept') });
      assert.equal(victim.status, 201);

      let writing = true;
      let writes = 0;
      const exists = new Set<string>();
      const writer = (async () => {
        for (let i = 0; writing; i++) {
          const name = `o${(i * 7) % 23}`;
          if (!exists.has(name)) {
            const r = await server.request('POST', base, { body: cm(name, String(i)) });
            assert.equal(r.status, 201, r.text);
            exists.add(name);
          } else if (i % 5 === 0) {
            const r = await server.request('DELETE', `${base}/${name}`);
            assert.equal(r.status, 200, r.text);
            exists.delete(name);
          } else {
            const r = await server.request('PATCH', `${base}/${name}`, {
              body: { data: { v: String(i) } },
              contentType: 'application/merge-patch+json',
            });
            assert.equal(r.status, 200, r.text);
          }
          writes++;
        }
      })();

      const subjects = {
        always: new Subject(server, base, 'always'),
        never: new Subject(server, base, 'never'),
        auto: new Subject(server, base, 'auto'),
      };
      const all = Object.values(subjects);
      try {
        await sleep(100);
        for (const s of all) s.start();
        for (const s of all) assert.equal(await s.informer.synced, true);
        await until(
          () => all.every((s) => s.informer.store.get(`${ns}/victim`) !== undefined),
          'the victim in every store',
        );
        await sleep(300);
        // Forced relists in each mode.
        for (const s of all) s.transport.expireWatches();
        await sleep(300);
        // The auto informer's server stops offering WatchList: it falls back, once, and stays.
        subjects.auto.transport.refuseWatchList = true;
        const autoWatchLists = subjects.auto.transport.watchLists().length;
        for (const s of all) s.transport.expireWatches();
        await sleep(300);
        for (const s of all) s.transport.expireWatches();
        await sleep(300);
        assert.equal(
          subjects.auto.transport.watchLists().length,
          autoWatchLists + 1,
          'one refused WatchList',
        );
        assert.equal(subjects.auto.informer.usesWatchList(), false);
        // Restart every informer; the victim is deleted while they are stopped.
        for (const s of all) await s.stop();
        const victimState = all.map((s) => s.informer.store.get(`${ns}/victim`));
        assert.equal((await server.request('DELETE', `${base}/victim`)).status, 200);
        await sleep(150);
        subjects.auto.transport.refuseWatchList = false;
        for (const s of all) s.start();
        await sleep(300);
        assert.equal(subjects.auto.informer.usesWatchList(), true, 'a new run asks for WatchList again');
        assert.equal(subjects.auto.transport.watchLists().length, autoWatchLists + 2);
        for (const s of all) s.transport.expireWatches();
        await sleep(300);
        writing = false;
        await writer;

        const final = (await server.request('GET', base)).json<{ items: Item[] }>();
        const want = summary(final.items);
        for (const [mode, s] of Object.entries(subjects)) {
          await until(
            () => JSON.stringify(summary(s.informer.store.list())) === JSON.stringify(want),
            `the ${mode} informer's store to equal the server's list`,
          );
          assert.deepEqual(summary(s.informer.store.list()), want, mode);
          assert.deepEqual(summary(s.mirror.view.values()), want, `${mode}: handlers saw every last state`);
          assert.deepEqual(s.mirror.violations, [], mode);
          const victimDeletes = s.mirror.unknownDeletes.filter((o) => objectKey(o) === `${ns}/victim`);
          assert.equal(victimDeletes.length, 1, `${mode}: the victim's deletion found by the relist`);
          assert.deepEqual(
            victimDeletes[0],
            victimState[all.indexOf(s)],
            `${mode}: with its last known state`,
          );
          assert.deepEqual(
            s.errors.filter((e) => !(e instanceof Error && /^watch: |JSON/.test(e.message))),
            [],
            `${mode}: no failures other than a cut line`,
          );
        }
        // The requests each mode made.
        assert.deepEqual(subjects.always.transport.lists(), [], 'always: never a LIST');
        assert.ok(subjects.always.transport.watchLists().length >= 4, 'always: every relist a WatchList');
        assert.deepEqual(subjects.never.transport.watchLists(), [], 'never: never a WatchList');
        assert.ok(subjects.never.transport.lists().length >= 4, 'never: every relist a LIST');
        assert.ok(subjects.auto.transport.lists().length >= 2, 'auto: LISTs after the refusal');
        assert.ok(writes > 50, `the writer kept writing (${writes} writes)`);
      } finally {
        writing = false;
        await writer.catch(() => undefined);
        for (const s of all) {
          await s.stop();
          s.close();
        }
      }
    },
  );

  it('@kubernetes/client-node’s informer (LIST+WATCH) works unchanged with the gate on', async () => {
    const ns = 'wl-client-node';
    await createNamespace(server, ns);
    await server.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: cm('before', '1') });
    const kc = new KubeConfig();
    kc.loadFromClusterAndUser(
      {
        name: 'nanokube',
        server: `https://127.0.0.1:${server.port}`,
        caData: Buffer.from(server.pki.caCert).toString('base64'),
        skipTLSVerify: false,
      },
      {
        name: 'admin',
        certData: Buffer.from(server.pki.adminCert).toString('base64'),
        keyData: Buffer.from(server.pki.adminKey).toString('base64'),
      },
    );
    const core = kc.makeApiClient(CoreV1Api);
    const informer = makeInformer<V1ConfigMap>(kc, `/api/v1/namespaces/${ns}/configmaps`, () =>
      core.listNamespacedConfigMap({ namespace: ns }),
    );
    const seen: string[] = [];
    informer.on('add', (o) => seen.push(`add ${o.metadata?.name ?? ''}`));
    informer.on('update', (o) => seen.push(`update ${o.metadata?.name ?? ''}=${o.data?.['v'] ?? ''}`));
    informer.on('delete', (o) => seen.push(`delete ${o.metadata?.name ?? ''}`));
    const errors: unknown[] = [];
    informer.on('error', (e) => errors.push(e));
    await informer.start();
    try {
      await until(() => seen.includes('add before'), 'the listed object');
      await server.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: cm('after', '1') });
      await server.request('PATCH', `/api/v1/namespaces/${ns}/configmaps/after`, {
        body: { data: { v: '2' } },
        contentType: 'application/merge-patch+json',
      });
      await server.request('DELETE', `/api/v1/namespaces/${ns}/configmaps/before`);
      await until(() => seen.includes('delete before'), 'the watch events');
      assert.deepEqual(seen, ['add before', 'add after', 'update after=2', 'delete before']);
      assert.deepEqual(
        informer.list(ns).map((o) => o.metadata?.name),
        ['after'],
      );
      assert.deepEqual(errors, []);
    } finally {
      await informer.stop();
    }
  });
});

describe('AM-02 informer WatchList: gate off (v1.27 default)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ controllers: false });
  });
  after(async () => {
    await server.stop();
  });

  it('auto falls back to LIST+WATCH after the 422, once per run, and syncs', async () => {
    await createNamespace(server, 'wl-off');
    const base = '/api/v1/namespaces/wl-off/configmaps';
    for (let i = 0; i < 3; i++) await server.request('POST', base, { body: cm(`c${i}`, String(i)) });
    const s = new Subject(server, base, 'auto');
    s.start();
    try {
      assert.equal(await s.informer.synced, true);
      assert.equal(s.informer.usesWatchList(), false);
      const [first, second] = s.transport.requests;
      assert.match(first ?? '', /\?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&/);
      assert.equal(second, `${base}?limit=500`);
      const list = (await server.request('GET', base)).json<{ items: Item[] }>();
      assert.deepEqual(summary(s.informer.store.list()), summary(list.items));
      await until(() => s.transport.requests.length >= 3, 'the watch');
      assert.match(s.transport.requests[2] ?? '', /\?watch=1&allowWatchBookmarks=true&resourceVersion=\d+&/);
      // A forced relist lists again without asking for WatchList.
      await server.request('DELETE', `${base}/c0`);
      await until(() => s.informer.store.get('wl-off/c0') === undefined, 'the DELETED event');
      s.transport.expireWatches();
      await until(() => s.transport.lists().length >= 2, 'the relist');
      assert.equal(s.transport.watchLists().length, 1, 'one WatchList request, refused');
      assert.deepEqual(summary(s.mirror.view.values()), summary(s.informer.store.list()));
      assert.deepEqual(s.mirror.violations, []);
      assert.deepEqual(s.errors, [], 'the refusal is not reported as a failure');
    } finally {
      await s.stop();
      s.close();
    }
  });

  it('never (the default without ENABLE_CLIENT_GO_WATCH_LIST_ALPHA) only lists and watches', async () => {
    const base = '/api/v1/namespaces/default/configmaps';
    const s = new Subject(server, base, 'never');
    s.start();
    try {
      assert.equal(await s.informer.synced, true);
      assert.deepEqual(s.transport.watchLists(), []);
      assert.equal(s.transport.requests[0], `${base}?limit=500`);
    } finally {
      await s.stop();
      s.close();
    }
  });

  it('always reports the refusal and keeps asking, never listing', async () => {
    const base = '/api/v1/namespaces/default/configmaps';
    const s = new Subject(server, base, 'always');
    s.start();
    try {
      await until(() => s.errors.length >= 2, 'two refusals');
      assert.equal(s.informer.hasSynced(), false);
      assert.deepEqual(s.transport.lists(), []);
      assert.match(
        String(s.errors[0]),
        /API error 422: .*sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled/,
      );
    } finally {
      await s.stop();
      s.close();
    }
  });
});
