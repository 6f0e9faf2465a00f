/**
 * pods/exec, attach and log as streams, against an in-process server with a simulated node:
 * SPDY/3.1 with each remote command protocol version (v4's JSON Status on the error stream, the
 * plain text of v2, a terminal's CR LF and resize stream), the kubelet's handshake refusals, and
 * WebSocket (the channel protocols, base64, the v4 Status, a refused subprotocol, pods/log as
 * binary.k8s.io as the e2e spec reads it).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { spdyExec } from '../support/spdy-client.js';
import type { SpdyExecOptions } from '../support/spdy-client.js';
import { waitFor } from '../support/poll.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const pods = '/api/v1/namespaces/default/pods';

/** The messages of a WebSocket session until the server closes it, and the close code. */
function wsSession(
  s: TestServer,
  path: string,
  protocols: readonly string[],
): Promise<{ messages: { binary: boolean; data: Buffer }[]; code: number; protocol: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`wss://127.0.0.1:${s.port}${path}`, [...protocols], {
      ca: s.pki.caCert,
      cert: s.pki.adminCert,
      key: s.pki.adminKey,
    });
    const messages: { binary: boolean; data: Buffer }[] = [];
    ws.on('message', (data: Buffer, binary: boolean) => messages.push({ binary, data }));
    ws.on('close', (code) => resolve({ messages, code, protocol: ws.protocol }));
    ws.on('error', reject);
  });
}

describe('pods/exec, attach and log streams into a simulated container', () => {
  let s: TestServer;
  let tls: SpdyExecOptions['tls'];
  const exec = (o: Omit<SpdyExecOptions, 'port' | 'tls'>): ReturnType<typeof spdyExec> =>
    spdyExec({ port: s.port, tls, ...o });
  const execPath = (command: readonly string[], extra = 'stdout=1&stderr=1'): string =>
    `${pods}/sh/exec?container=main&${extra}&${command.map((c) => `command=${encodeURIComponent(c)}`).join('&')}`;

  before(async () => {
    s = await startTestServer({ nodes: 1, storage: 'memory' });
    tls = { ca: s.pki.caCert, cert: s.pki.adminCert, key: s.pki.adminKey };
    const body = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'sh' },
      spec: {
        nodeName: 'nanokube-node-0',
        containers: [
          { name: 'main', image: 'busybox', command: ['sh', '-c', 'echo container is alive; sleep 3600'] },
        ],
      },
    };
    await waitFor('the simulated node and the default ServiceAccount', async () => {
      const node = await s.request('GET', '/api/v1/nodes/nanokube-node-0');
      const sa = await s.request('GET', '/api/v1/namespaces/default/serviceaccounts/default');
      return node.status === 200 && sa.status === 200;
    });
    assert.equal((await s.request('POST', pods, { body })).status, 201);
    await waitFor('pod sh running', async () => {
      const r = await s.request('GET', `${pods}/sh`);
      const st = r.json<{ status?: { containerStatuses?: { state?: { running?: unknown } }[] } }>().status;
      return st?.containerStatuses?.[0]?.state?.running !== undefined ? true : undefined;
    });
  });

  after(() => s.stop());

  it('SPDY v4: output on its streams, then the Status on the error stream (success and exit code)', async () => {
    const ok = await exec({
      path: execPath(['sh', '-c', 'echo out; echo err >&2']),
      protocols: ['v4.channel.k8s.io', 'v3.channel.k8s.io', 'v2.channel.k8s.io', 'channel.k8s.io'],
      streams: ['error', 'stdout', 'stderr'],
    });
    assert.equal(ok.status, 101);
    assert.equal(ok.headers['x-stream-protocol-version'], 'v4.channel.k8s.io');
    assert.deepEqual(ok.streams, {
      stdout: 'out\n',
      stderr: 'err\n',
      error: '{"metadata":{},"status":"Success"}',
    });
    const failed = await exec({
      path: execPath(['sh', '-c', 'exit 3']),
      protocols: ['v4.channel.k8s.io'],
      streams: ['error', 'stdout', 'stderr'],
    });
    assert.equal(
      failed.streams['error'],
      '{"metadata":{},"status":"Failure","message":"command terminated with non-zero exit code: error executing command [sh -c exit 3], exit code 3","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"3"}]}}',
    );
  });

  it('SPDY v2: plain-text errors, nothing on success; stdin is read to its end', async () => {
    const failed = await exec({
      path: execPath(['sh', '-c', 'exit 5']),
      protocols: ['v2.channel.k8s.io'],
      streams: ['error', 'stdout', 'stderr'],
    });
    assert.equal(failed.headers['x-stream-protocol-version'], 'v2.channel.k8s.io');
    assert.equal(
      failed.streams['error'],
      'command terminated with non-zero exit code: error executing command [sh -c exit 5], exit code 5',
    );
    const cat = await exec({
      path: execPath(['cat'], 'stdin=1&stdout=1&stderr=1'),
      protocols: ['v2.channel.k8s.io'],
      streams: ['error', 'stdin', 'stdout', 'stderr'],
      stdin: 'from stdin\n',
    });
    assert.deepEqual(cat.streams, { stdout: 'from stdin\n' });
  });

  it('a terminal: stderr joins stdout, newlines become CR LF, the resize stream is taken', async () => {
    const r = await exec({
      path: execPath(['sh', '-c', 'echo one; echo two >&2'], 'stdout=1&stderr=1&tty=1'),
      protocols: ['v4.channel.k8s.io'],
      streams: ['error', 'stdout', 'resize'],
    });
    assert.equal(r.streams['stdout'], 'one\r\ntwo\r\n');
    assert.equal(r.streams['error'], '{"metadata":{},"status":"Success"}');
  });

  it('an unknown command: an internal error Status naming why the simulator cannot run it', async () => {
    const r = await exec({
      path: execPath(['/app/server', '--port=80']),
      protocols: ['v4.channel.k8s.io'],
      streams: ['error', 'stdout', 'stderr'],
    });
    const status = JSON.parse(r.streams['error'] ?? '{}') as Record<string, unknown>;
    assert.equal(status['reason'], 'InternalError');
    assert.equal(status['code'], 500);
    assert.equal(
      status['message'],
      'Internal error occurred: error executing command in container: the simulated node cannot run "/app/server --port=80" in container "main": command /app/server',
    );
  });

  it("the kubelet's handshake refusals, before any protocol switch", async () => {
    const none = await exec({ path: execPath(['true']), streams: [] });
    assert.deepEqual(
      [none.status, none.body],
      [400, 'unable to upgrade: X-Stream-Protocol-Version is required\n'],
    );
    const unknown = await exec({ path: execPath(['true']), protocols: ['v9.channel.k8s.io'], streams: [] });
    assert.equal(unknown.status, 403);
    const line =
      'unable to upgrade: unable to negotiate protocol: client supports [v9.channel.k8s.io], server accepts [v4.channel.k8s.io v3.channel.k8s.io v2.channel.k8s.io channel.k8s.io]\n';
    assert.equal(unknown.body, line + line);
    assert.equal(
      unknown.headers['x-accepted-stream-protocol-versions'],
      'v4.channel.k8s.io, v3.channel.k8s.io, v2.channel.k8s.io, channel.k8s.io',
    );
    const noStreams = await exec({
      path: execPath(['true'], 'stdout=0'),
      protocols: ['v4.channel.k8s.io'],
      streams: [],
    });
    assert.deepEqual(
      [noStreams.status, noStreams.body],
      [400, 'you must specify at least 1 of stdin, stdout, stderr'],
    );
    const noContainer = await exec({
      path: `${pods}/sh/exec?container=other&stdout=1&command=true`,
      protocols: ['v4.channel.k8s.io'],
      streams: [],
    });
    assert.equal(noContainer.status, 400);
    assert.equal(
      (JSON.parse(noContainer.body) as { message: string }).message,
      'container other is not valid for pod sh',
    );
  });

  it('WebSocket channel.k8s.io, as the e2e spec reads it: an empty stdout message first, then output', async () => {
    const r = await wsSession(s, execPath(['echo', 'remote execution test']), ['channel.k8s.io']);
    assert.equal(r.protocol, 'channel.k8s.io');
    assert.equal(r.code, 1000);
    assert.deepEqual(
      r.messages.map((m) => [m.binary, [...m.data]]),
      [
        [true, [1]],
        [true, [1, ...Buffer.from('remote execution test\n')]],
      ],
    );
  });

  it('WebSocket v4.base64.channel.k8s.io: text messages, and the Status on channel 3', async () => {
    const r = await wsSession(s, execPath(['sh', '-c', 'echo hi; exit 2']), ['v4.base64.channel.k8s.io']);
    const texts = r.messages.map((m) => [m.binary, m.data.toString('utf8')]);
    assert.deepEqual(texts.slice(0, 2), [
      [false, '1'],
      [false, `1${Buffer.from('hi\n').toString('base64')}`],
    ]);
    const status = texts[2]?.[1] as string;
    assert.equal(status[0], '3');
    assert.match(Buffer.from(status.slice(1), 'base64').toString('utf8'), /"reason":"NonZeroExitCode"/);
  });

  it('WebSocket: a subprotocol the server does not serve is refused with 403', async () => {
    await assert.rejects(
      wsSession(s, execPath(['true']), ['v5.channel.k8s.io']),
      /Unexpected server response: 403/,
    );
  });

  it('pods/log over WebSocket binary.k8s.io: an empty message, then the log, then a close', async () => {
    const r = await wsSession(s, `${pods}/sh/log?container=main`, ['binary.k8s.io']);
    assert.equal(r.code, 1000);
    assert.deepEqual(
      r.messages.map((m) => m.data.toString('utf8')),
      ['', 'container is alive\n'],
    );
  });

  it('attach follows what the container prints from now on; it printed nothing new here', async () => {
    const r = await exec({
      path: `${pods}/sh/attach?container=main&stdout=1&stderr=1`,
      protocols: ['v4.channel.k8s.io'],
      streams: ['error', 'stdout', 'stderr'],
      timeoutMs: 3000,
    }).catch((err: Error) => err);
    // `sleep 3600` prints nothing: the session stays open until the client goes away.
    assert.ok(r instanceof Error && /timed out/.test(r.message));
  });

  it('an ephemeral container added through pods/ephemeralcontainers starts, and exec reaches it', async () => {
    const pod = (await s.request('GET', `${pods}/sh`)).json();
    const spec = pod['spec'] as Record<string, unknown>;
    spec['ephemeralContainers'] = [
      {
        name: 'debugger',
        image: 'busybox',
        command: ['sh', '-c', 'while true; do echo polo; sleep 2; done'],
      },
    ];
    const put = await s.request('PUT', `${pods}/sh/ephemeralcontainers`, { body: pod });
    assert.equal(put.status, 200, put.text);
    await waitFor('the debugger running', async () => {
      const st = (await s.request('GET', `${pods}/sh`)).json<{
        status?: { ephemeralContainerStatuses?: { name: string; state?: { running?: unknown } }[] };
      }>().status;
      return st?.ephemeralContainerStatuses?.[0]?.state?.running !== undefined ? true : undefined;
    });
    const r = await exec({
      path: `${pods}/sh/exec?container=debugger&stdout=1&command=echo&command=marco`,
      protocols: ['v4.channel.k8s.io'],
      streams: ['error', 'stdout'],
    });
    assert.deepEqual(r.streams, { stdout: 'marco\n', error: '{"metadata":{},"status":"Success"}' });
  });
});
