/**
 * `kubectl logs` of pods on simulated nodes: deterministic lines, container choice,
 * tailLines, timestamps, limitBytes, the kubelet's errors (validateContainerLogStatus), and an
 * exited container's log ending when it finished (no growth, follow returns at once).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SharedInformerFactory } from '../../src/client/informer-factory.js';
import { RestClient } from '../../src/client/rest-client.js';
import { SimulatedNodes } from '../../src/nodes/simulated-nodes.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const pods = '/api/v1/namespaces/default/pods';

describe('pods/log on simulated nodes', () => {
  let s: TestServer;
  let client: RestClient;
  let informers: SharedInformerFactory;
  const abort = new AbortController();
  let run: Promise<unknown> = Promise.resolve();

  before(async () => {
    s = await startTestServer({ controllers: false, nodes: 0, storage: 'memory' });
    client = new RestClient({
      server: `https://127.0.0.1:${s.port}`,
      ca: s.pki.caCert,
      cert: s.pki.adminCert,
      key: s.pki.adminKey,
    });
    informers = new SharedInformerFactory({ client });
    const nodes = new SimulatedNodes({
      client,
      informers,
      count: 1,
      heartbeatIntervalMs: 1000,
      jobPodDurationMs: 2500,
    });
    run = nodes.run(abort.signal);
    informers.start(abort.signal);
    assert.equal(await nodes.registered, true);
  });

  after(async () => {
    abort.abort();
    await run;
    await informers.stopped();
    client.close();
    await s.stop();
  });

  it('serves lines, honours container, tailLines, timestamps and limitBytes', async () => {
    const body = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'two' },
      spec: {
        nodeName: 'nanokube-node-0',
        containers: [
          { name: 'a', image: 'nginx' },
          { name: 'b', image: 'nginx' },
        ],
      },
    };
    assert.equal((await s.request('POST', pods, { body })).status, 201);
    const noContainer = await s.request('GET', `${pods}/two/log`);
    assert.equal(noContainer.status, 400);
    assert.equal(
      noContainer.json()['message'],
      'a container name must be specified for pod two, choose one of: [a b]',
    );
    const text = await until('3 lines', async () => {
      const r = await s.request('GET', `${pods}/two/log?container=b`);
      return r.status === 200 && r.text.split('\n').length > 3 ? r.text : undefined;
    });
    assert.match(
      text,
      /^simulated log line 1 from container b of pod default\/two on node nanokube-node-0\n/,
    );
    const tail = await s.request('GET', `${pods}/two/log?container=a&tailLines=1&timestamps=true`);
    assert.equal(tail.status, 200);
    assert.equal(tail.headers['content-type'], 'text/plain');
    assert.match(
      tail.text,
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z simulated log line \d+ from container a of pod default\/two on node nanokube-node-0\n$/,
    );
    const limited = await s.request('GET', `${pods}/two/log?container=a&limitBytes=10`);
    assert.equal(limited.text, 'simulated ');
    const prev = await s.request('GET', `${pods}/two/log?container=a&previous=true`);
    assert.equal(prev.status, 400);
    assert.equal(prev.json()['message'], 'previous terminated container "a" in pod "two" not found');
  });
  it('follows until the pod goes away', async () => {
    const followed = s.request('GET', `${pods}/two/log?container=a&follow=true&tailLines=0`);
    await new Promise((r) => setTimeout(r, 2500));
    const d = await s.request('DELETE', `${pods}/two?gracePeriodSeconds=0`);
    assert.equal(d.status, 200, d.text);
    const r = await followed;
    assert.equal(r.status, 200);
    assert.ok(r.text.split('\n').filter((l) => l !== '').length >= 1, r.text);
  });

  it("ends an exited container's log when it finished; follow returns at once", async () => {
    const body = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'done' },
      spec: {
        nodeName: 'nanokube-node-0',
        restartPolicy: 'Never',
        containers: [{ name: 'c', image: 'busybox' }],
      },
    };
    assert.equal((await s.request('POST', pods, { body })).status, 201);
    const terminated = await until('done Succeeded', async () => {
      const r = await s.request('GET', `${pods}/done`);
      const st = r.json()['status'] as Record<string, unknown> | undefined;
      if (st?.['phase'] !== 'Succeeded') return undefined;
      const cs = (st['containerStatuses'] as Record<string, Record<string, unknown>>[])[0]!;
      return (cs['state'] as Record<string, Record<string, string>>)['terminated']!;
    });
    const lines = Math.floor(
      (Date.parse(terminated['finishedAt']!) - Date.parse(terminated['startedAt']!)) / 1000,
    );
    const first = await s.request('GET', `${pods}/done/log`);
    assert.equal(first.status, 200);
    assert.equal(first.text.split('\n').filter((l) => l !== '').length, lines, first.text);
    await new Promise((r) => setTimeout(r, 1500));
    const later = await s.request('GET', `${pods}/done/log`);
    assert.equal(later.text, first.text);
    const followed = await s.request('GET', `${pods}/done/log?follow=true`);
    assert.equal(followed.status, 200);
    assert.equal(followed.text, first.text);
  });
});
