/**
 * Integration (AM-20): profiling on a unix-domain socket only (upstream #114191,
 * --debug-socket-path; the issue's --profiling-path). A CPU profile as a V8 .cpuprofile, a heap
 * snapshot, one CPU profile at a time, a profile cut short when its client goes away, the socket
 * owner-only, and nothing of it on the TCP port.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import type { ClientRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseServeFlags } from '../../src/cmd/serve/flags.js';
import { waitFor } from '../support/poll.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

interface SocketAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** GET over the unix socket; `maxBytes` stops reading (and closes) after that much. */
function socketGet(
  socketPath: string,
  path: string,
  opts: { maxBytes?: number; onRequest?: (r: ClientRequest) => void } = {},
): Promise<SocketAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        if (opts.maxBytes !== undefined && body.length >= opts.maxBytes) {
          res.destroy();
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    opts.onRequest?.(req);
    req.end();
  });
}

describe('profiling on a unix socket (AM-20)', () => {
  let server: TestServer;
  let dir: string;
  let socket: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'nk-prof-'));
    socket = join(dir, 'debug.sock');
    server = await startTestServer({ controllers: false, anonymousAuth: true, debugSocketPath: socket });
  });
  after(async () => {
    await server.stop();
    assert.ok(!existsSync(socket), 'the socket is removed on close');
    rmSync(dir, { recursive: true, force: true });
  });

  test('the socket is owner-only', () => {
    const st = statSync(socket);
    assert.ok(st.isSocket());
    assert.equal(st.mode & 0o777, 0o600);
  });

  test('a one-second CPU profile is a V8 .cpuprofile', async () => {
    const res = await socketGet(socket, '/debug/pprof/profile?seconds=1');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/json');
    assert.equal(res.headers['content-disposition'], 'attachment; filename="profile.cpuprofile"');
    const profile = JSON.parse(res.body) as {
      nodes: { callFrame: { functionName: string } }[];
      startTime: number;
      endTime: number;
      samples: number[];
    };
    assert.ok(profile.nodes.length > 0);
    assert.ok(profile.nodes.some((n) => n.callFrame.functionName === '(root)'));
    assert.ok(profile.endTime > profile.startTime);
    assert.ok(Array.isArray(profile.samples));
  });

  test('a heap snapshot', async () => {
    const res = await socketGet(socket, '/debug/pprof/heap', { maxBytes: 64 });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-disposition'], 'attachment; filename="heap.heapsnapshot"');
    assert.match(res.body, /^\{"snapshot":\{/);
  });

  test('the index, the redirect, an unknown profile', async () => {
    const index = await socketGet(socket, '/debug/pprof/');
    assert.equal(index.status, 200);
    assert.match(index.body, /heap/);
    const redirect = await socketGet(socket, '/debug/pprof');
    assert.equal(redirect.status, 302);
    assert.equal(redirect.headers['location'], '/debug/pprof/');
    assert.equal((await socketGet(socket, '/debug/pprof/goroutine')).status, 404);
    assert.equal((await socketGet(socket, '/api')).status, 404);
  });

  test('one CPU profile at a time; a profile whose client left is stopped', async () => {
    let long: ClientRequest | undefined;
    const first = socketGet(socket, '/debug/pprof/profile?seconds=600', {
      onRequest: (r) => (long = r),
    }).catch(() => undefined);
    // While it runs another is refused as Go's runtime refuses a second CPU profile.
    const refused = await waitFor('the long profile running', async () => {
      const r = await socketGet(socket, '/debug/pprof/profile?seconds=1');
      return r.status === 500 ? r : undefined;
    });
    assert.equal(refused.body, 'Could not enable CPU profiling: cpu profiling already in use\n');
    long?.destroy();
    await first;
    // The 600-second profile was cut when its client went away: a new one can start.
    const next = await waitFor('a new profile', async () => {
      const r = await socketGet(socket, '/debug/pprof/profile?seconds=1');
      return r.status === 200 ? r : undefined;
    });
    assert.equal(next.status, 200);
  });

  test('/debug/flags/v changes the log verbosity (PUT only), as upstream', async () => {
    const put = (body: string, method = 'PUT'): Promise<SocketAnswer> =>
      new Promise((resolve, reject) => {
        const req = request({ socketPath: socket, path: '/debug/flags/v', method }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        });
        req.on('error', reject);
        req.end(body);
      });
    assert.deepEqual(
      [(await put('4')).status, (await put('4')).body],
      [200, 'successfully set klog.logging.verbosity to 4\n'],
    );
    const bad = await put('loud');
    assert.equal(bad.status, 400);
    assert.equal(
      bad.body,
      'failed set klog.logging.verbosity loud: strconv.ParseInt: parsing "loud": invalid syntax\n',
    );
    assert.equal((await put('', 'GET')).status, 406);
    assert.equal((await put('0')).status, 200);
    assert.match((await socketGet(socket, '/debug/flags')).body, /<tr>v<br>/);
  });

  test('nothing of it on the TCP port: /debug/pprof is 404 for an admin, 403 for anonymous', async () => {
    for (const path of [
      '/debug/pprof',
      '/debug/pprof/',
      '/debug/pprof/profile?seconds=1',
      '/debug/pprof/heap',
    ]) {
      const admin = await server.request('GET', path);
      assert.equal(admin.status, 404, path);
      const anonymous = await server.request('GET', path, { credentials: 'none' });
      assert.equal(anonymous.status, 403, path);
    }
  });
});

describe('--profiling=false serves no socket (AM-20)', () => {
  test('the socket path stays empty; the flags', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nk-prof-off-'));
    const socket = join(dir, 'debug.sock');
    const server = await startTestServer({ controllers: false, debugSocketPath: socket, profiling: false });
    try {
      assert.ok(!existsSync(socket));
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
    assert.equal(parseServeFlags([]).profiling, true, 'upstream default');
    assert.equal(parseServeFlags(['--profiling=false']).profiling, false);
    assert.equal(parseServeFlags(['--profiling-path', '/run/nk.sock']).debugSocketPath, '/run/nk.sock');
    assert.equal(parseServeFlags(['--debug-socket-path=/run/a.sock']).debugSocketPath, '/run/a.sock');
  });
});
