/**
 * Integration: a shared informer against a real in-process server, reached through a TCP proxy
 * the test can cut (seam 6). An object deleted while the informer's watch is down is
 * found missing by the relist and handed to onDelete in its last known state; the client's
 * HTTP/2 sessions reconnect by themselves once the way is open again.
 */
import assert from 'node:assert/strict';
import { createConnection, createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { SharedInformerFactory } from '../../src/client/informer-factory.js';
import { SharedInformer } from '../../src/client/shared-informer.js';
import type { ListWatchClient } from '../../src/client/shared-informer.js';
import { nameOf } from '../../src/client/object-meta.js';
import { RestClient } from '../../src/client/rest-client.js';
import type { JsonObject } from '../../src/util/json.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`timed out waiting for ${what}`);
}

/**
 * A TCP proxy to `port` that can drop every connection and refuse new ones for a while, or go
 * silent.
 */
class CuttableProxy {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  #down = false;
  #stalled = false;

  constructor(port: number) {
    this.#server = createServer((client) => {
      if (this.#down) {
        client.destroy();
        return;
      }
      const upstream = createConnection({ host: '127.0.0.1', port });
      for (const [a, b] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        this.#sockets.add(a);
        a.on('error', () => b.destroy());
        a.on('close', () => {
          this.#sockets.delete(a);
          b.destroy();
        });
        // Bytes are dropped while stalled: a connection gone silent, with no FIN or RST.
        a.on('data', (chunk: Buffer) => {
          if (!this.#stalled) b.write(chunk);
        });
      }
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((r) => this.#server.listen(0, '127.0.0.1', r));
    return (this.#server.address() as AddressInfo).port;
  }

  cut(): void {
    this.#down = true;
    for (const s of this.#sockets) s.destroy();
  }

  /** Keeps connections open but passes nothing through them. */
  stall(): void {
    this.#stalled = true;
  }

  restore(): void {
    this.#down = false;
    this.#stalled = false;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise((r) => this.#server.close(r));
  }
}

describe('shared informer over a connection that breaks', () => {
  let s: TestServer;
  let proxy: CuttableProxy;
  let proxyPort: number;
  before(async () => {
    s = await startTestServer({ controllers: false });
    proxy = new CuttableProxy(s.port);
    proxyPort = await proxy.listen();
  });
  after(async () => {
    await proxy.close();
    await s.stop();
  });

  it('an object deleted while the watch is down reaches onDelete in its last known state', async () => {
    const base = '/api/v1/namespaces/default/configmaps';
    const cm = (name: string, v: string): JsonObject => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name },
      data: { v },
    });
    for (const name of ['keep', 'doomed']) {
      assert.equal((await s.request('POST', base, { body: cm(name, '1') })).status, 201);
    }
    const client = new RestClient({
      server: `https://127.0.0.1:${proxyPort}`,
      ca: s.pki.caCert,
      cert: s.pki.adminCert,
      key: s.pki.adminKey,
    });
    const errors: string[] = [];
    const factory = new SharedInformerFactory({
      client,
      initialBackoffMs: 20,
      maxBackoffMs: 100,
      onError: (err) => errors.push(err instanceof Error ? err.message : String(err)),
    });
    const informer = factory.informerFor(base);
    const added: string[] = [];
    const deleted: { obj: JsonObject; finalStateUnknown: boolean }[] = [];
    informer.addEventHandler({
      onAdd: (o) => added.push(nameOf(o).name),
      onDelete: (obj, finalStateUnknown) => deleted.push({ obj, finalStateUnknown }),
    });
    const abort = new AbortController();
    factory.start(abort.signal);
    assert.equal(await factory.waitForSync(), true);
    assert.deepEqual(added.sort(), ['doomed', 'keep']);

    // The watch delivers an update: the store's last known state of `doomed` is v2.
    const body = (await s.request('GET', `${base}/doomed`)).json();
    body['data'] = { v: '2' };
    assert.equal((await s.request('PUT', `${base}/doomed`, { body })).status, 200);
    const stored = (name: string): unknown => informer.store.get(`default/${name}`)?.['data'];
    await until(() => JSON.stringify(stored('doomed')) === '{"v":"2"}', 'the update');

    // Cut the way: the watch breaks, relists fail. Meanwhile `doomed` goes and `born` comes.
    proxy.cut();
    await until(() => errors.length >= 2, 'the informer to notice');
    assert.equal((await s.request('DELETE', `${base}/doomed`)).status, 200);
    assert.equal((await s.request('POST', base, { body: cm('born', '1') })).status, 201);
    assert.equal(deleted.length, 0);

    // Open again: the relist finds `doomed` missing and `born` new.
    proxy.restore();
    await until(() => deleted.length === 1 && added.includes('born'), 'the relist');
    const [gone] = deleted;
    assert.equal(gone!.finalStateUnknown, true);
    assert.equal(nameOf(gone!.obj).name, 'doomed');
    assert.deepEqual(gone!.obj['data'], { v: '2' });
    assert.deepEqual(informer.store.keys().sort(), ['default/born', 'default/keep']);

    // Watching again after the relist: a plain deletion arrives with its final state.
    assert.equal((await s.request('DELETE', `${base}/keep`)).status, 200);
    await until(() => deleted.length === 2, 'the watched deletion');
    assert.equal(deleted[1]!.finalStateUnknown, false);
    assert.equal(nameOf(deleted[1]!.obj).name, 'keep');

    abort.abort();
    await factory.stopped();
    client.close();
  });

  it('a watch the server ends (its timeout) is resumed from the last resourceVersion, without a relist', async () => {
    const base = '/api/v1/namespaces/default/secrets';
    const client = new RestClient({
      server: s.url,
      ca: s.pki.caCert,
      cert: s.pki.adminCert,
      key: s.pki.adminKey,
    });
    const lists: string[] = [];
    const watches: string[] = [];
    const counting: ListWatchClient = {
      request: (method, path, o) => {
        lists.push(path);
        return client.request(method, path, o);
      },
      watch: (path, signal) => {
        watches.push(path);
        return client.watch(path, signal);
      },
    };
    const errors: unknown[] = [];
    const informer = new SharedInformer({
      client: counting,
      path: base,
      watchTimeoutSeconds: 1,
      onError: (e) => errors.push(e),
    });
    const events: string[] = [];
    informer.addEventHandler({
      onAdd: (o) => events.push(`add ${nameOf(o).name}`),
      onDelete: (o, unknown) => events.push(`delete ${nameOf(o).name} ${unknown}`),
    });
    const abort = new AbortController();
    const running = informer.run(abort.signal);
    assert.equal(await informer.synced, true);
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'early' } };
    assert.equal((await s.request('POST', base, { body: secret })).status, 201);
    await until(() => events.includes('add early'), 'the add');
    await until(() => watches.length === 2, 'the server to end the first watch');
    assert.match(watches[1]!, /&resourceVersion=[1-9]\d*&timeoutSeconds=1$/);
    assert.equal((await s.request('DELETE', `${base}/early`)).status, 200);
    await until(() => events.includes('delete early false'), 'the deletion');
    assert.equal(lists.length, 1);
    assert.deepEqual(errors, []);
    abort.abort();
    await running;
    client.close();
  });

  it('a connection gone silent is detected by PING, and the watch fails instead of hanging', async () => {
    const client = new RestClient({
      server: `https://127.0.0.1:${proxyPort}`,
      ca: s.pki.caCert,
      cert: s.pki.adminCert,
      key: s.pki.adminKey,
      pingIntervalMs: 50,
      pingTimeoutMs: 100,
    });
    const abort = new AbortController();
    const watch = client.watch('/api/v1/namespaces?watch=1&resourceVersion=0', abort.signal);
    assert.equal((await watch.next()).done, false); // the initial ADDED events flow
    proxy.stall();
    const started = Date.now();
    await assert.rejects(
      (async () => {
        while (!(await watch.next()).done);
      })(),
      /PING unanswered/,
    );
    assert.ok(Date.now() - started < 2000);
    proxy.restore();
    assert.equal(client.stats().sessions, 0);
    const list = await client.request('GET', '/api/v1/namespaces');
    assert.ok(Array.isArray(list['items']));
    client.close();
  });
});
