import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, test } from 'node:test';
import { ServiceHealthServers } from './service-health.js';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a !== null ? a.port : 0));
    });
  });
}

describe('health check node ports (ETP Local load balancers)', () => {
  test("200 with kube-proxy's body while the node has a ready endpoint, 503 without, closed when gone", async () => {
    const port = await freePort();
    const servers = new ServiceHealthServers({ hosts: ['127.0.0.1'] });
    try {
      servers.sync([{ service: 'ns1/lb', port }], new Map([['ns1/lb', 2]]));
      await new Promise((r) => setTimeout(r, 50));
      const ok = await fetch(`http://127.0.0.1:${port}/any/path`);
      assert.equal(ok.status, 200);
      assert.equal(ok.headers.get('content-type'), 'application/json');
      assert.equal(ok.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(
        await ok.text(),
        '{\n\t"service": {\n\t\t"namespace": "ns1",\n\t\t"name": "lb"\n\t},\n\t"localEndpoints": 2\n}',
      );
      servers.sync([{ service: 'ns1/lb', port }], new Map([['ns1/lb', 0]]));
      const none = await fetch(`http://127.0.0.1:${port}/`);
      assert.equal(none.status, 503);
      assert.match(await none.text(), /"localEndpoints": 0/);
      servers.sync([], new Map());
      await new Promise((r) => setTimeout(r, 50));
      await assert.rejects(fetch(`http://127.0.0.1:${port}/`));
    } finally {
      servers.close();
    }
  });
});
