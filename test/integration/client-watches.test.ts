/**
 * Integration: many concurrent watches through one REST client against a real in-process server
 * (seam 6). With the old 8-socket HTTPS agent the ninth watch starved; over HTTP/2 they
 * are streams of one session (or a few, when capped), and requests still pass alongside.
 */
import assert from 'node:assert/strict';
import { setMaxListeners } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { RestClient } from '../../src/client/rest-client.js';
import type { RestClientOptions } from '../../src/client/rest-client.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const watches = 50;

async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe('RestClient with many watches', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ controllers: false });
  });
  after(() => s.stop());

  async function fiftyWatches(prefix: string, o: Partial<RestClientOptions>, sessions: number) {
    const client = new RestClient({
      server: s.url,
      ca: s.pki.caCert,
      cert: s.pki.adminCert,
      key: s.pki.adminKey,
      ...o,
    });
    const abort = new AbortController();
    setMaxListeners(watches + 10, abort.signal);
    const base = '/api/v1/namespaces/default/configmaps';
    const listed = await client.request('GET', base);
    const rv = (listed['metadata'] as { resourceVersion: string }).resourceVersion;
    const seen = new Set<number>();
    const watchers = Array.from({ length: watches }, async (_, i) => {
      const selector = encodeURIComponent(`metadata.name=${prefix}-${i}`);
      const path = `${base}?watch=1&fieldSelector=${selector}&resourceVersion=${rv}`;
      // Each keeps reading until the abort, so all 50 streams stay open together.
      for await (const ev of client.watch(path, abort.signal)) {
        if (ev.type === 'ADDED') seen.add(i);
      }
    });
    await until(() => client.stats().streams === watches, 'every watch to open');
    assert.deepEqual(client.stats(), { sessions, streams: watches });
    // Requests through the same client pass while the watches hold their streams.
    await Promise.all(
      Array.from({ length: watches }, (_, i) =>
        client.request('POST', base, {
          body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${prefix}-${i}` } },
        }),
      ),
    );
    await until(() => seen.size === watches, 'an event on every watch');
    abort.abort();
    await Promise.all(watchers);
    await until(() => client.stats().streams === 0, 'aborted watches to close their streams');
    client.close();
  }

  it('50 concurrent watches share one HTTP/2 session and each sees its event', async () => {
    await fiftyWatches('one', {}, 1);
  });

  it('capped at 20 streams per session, the 50 watches spread over 3 sessions', async () => {
    await fiftyWatches('capped', { maxStreamsPerSession: 20 }, 3);
  });
});
