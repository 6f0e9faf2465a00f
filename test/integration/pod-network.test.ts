/**
 * The simulated cluster network as commands in pods see it (`kubectl exec`): agnhost's `nc`,
 * `curl` and `grep` reach a netexec backend by Service name, cluster IP, node port and pod IP,
 * over TCP and UDP, as the upstream Services and Networking `[Conformance]` specs drive them;
 * netexec's /dial asks another pod; what no endpoint serves is refused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { spdyExec } from '../support/spdy-client.js';
import { waitFor } from '../support/poll.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const ns = '/api/v1/namespaces/default';
const agnhost = 'registry.k8s.io/e2e-test-images/agnhost:2.43';

describe('networking between simulated pods', () => {
  let s: TestServer;
  let backendIP = '';
  let clusterIP = '';
  let nodePort = 0;
  let nodeIP = '';

  /** `sh -c script` in the exec pod: stdout, stderr and the v4 status. */
  const sh = async (script: string): Promise<{ out: string; err: string; status: string }> => {
    const r = await spdyExec({
      port: s.port,
      tls: { ca: s.pki.caCert, cert: s.pki.adminCert, key: s.pki.adminKey },
      path: `${ns}/pods/client/exec?container=c&stdout=1&stderr=1&command=sh&command=-c&command=${encodeURIComponent(script)}`,
      protocols: ['v4.channel.k8s.io'],
      streams: ['error', 'stdout', 'stderr'],
    });
    return {
      out: r.streams['stdout'] ?? '',
      err: r.streams['stderr'] ?? '',
      status: r.streams['error'] ?? '',
    };
  };

  before(async () => {
    s = await startTestServer({ nodes: 2, storage: 'memory' });
    await waitFor('the default ServiceAccount', async () =>
      (await s.request('GET', `${ns}/serviceaccounts/default`)).status === 200 ? true : undefined,
    );
    const pod = (name: string, labels: Record<string, string>, args: string[]): unknown => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, labels },
      spec: { containers: [{ name: 'c', image: agnhost, args, ports: [{ containerPort: 80 }] }] },
    });
    for (const body of [
      pod('backend', { app: 'be' }, ['netexec', '--http-port=80', '--udp-port=80']),
      pod('client', {}, ['pause']),
    ]) {
      assert.equal((await s.request('POST', `${ns}/pods`, { body })).status, 201);
    }
    const svc = await s.request('POST', `${ns}/services`, {
      body: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'be' },
        spec: {
          type: 'NodePort',
          selector: { app: 'be' },
          ports: [
            { name: 'tcp', port: 80, protocol: 'TCP' },
            { name: 'udp', port: 80, protocol: 'UDP' },
          ],
        },
      },
    });
    assert.equal(svc.status, 201, svc.text);
    const spec = svc.json<{ spec: { clusterIP: string; ports: { nodePort: number }[] } }>().spec;
    clusterIP = spec.clusterIP;
    nodePort = spec.ports[0]!.nodePort;
    backendIP = await waitFor<string>('the backend running with an address', async () => {
      const r = await s.request('GET', `${ns}/pods/backend`);
      const st = r.json<{ status?: { phase?: string; podIP?: string } }>().status;
      return st?.phase === 'Running' ? st.podIP : undefined;
    });
    await waitFor('the client running', async () => {
      const r = await s.request('GET', `${ns}/pods/client`);
      return r.json<{ status?: { phase?: string } }>().status?.phase === 'Running' ? true : undefined;
    });
    const node = await s.request('GET', '/api/v1/nodes/nanokube-node-1');
    nodeIP = node.json<{ status: { addresses: { address: string }[] } }>().status.addresses[0]!.address;
    await waitFor('the Service’s endpoint ready', async () => {
      const r = await sh('curl -s http://be/hostname');
      return r.out === 'backend' ? true : undefined;
    });
  });

  after(() => s.stop());

  it('nc to the Service by name, cluster IP and node port gets Go’s answer to a line that is not HTTP', async () => {
    const badRequest =
      'HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request';
    for (const target of ['be 80', `${clusterIP} 80`, `${nodeIP} ${nodePort}`]) {
      const r = await sh(`echo hostName | nc -v -t -w 2 ${target}`);
      assert.equal(r.out, badRequest, target);
      assert.match(r.err, /^Connection to \S+ \d+ port \[tcp\/(http|\*)\] succeeded!\n$/);
      assert.equal(r.status, '{"metadata":{},"status":"Success"}');
    }
  });

  it('UDP, curl | grep, and netexec /dial reach the backend pod', async () => {
    assert.equal((await sh(`echo hostName | nc -w 1 -u ${backendIP} 80`)).out, 'backend');
    const curl = await sh(
      `curl -g -q -s --max-time 15 --connect-timeout 1 http://${backendIP}:80/hostName | grep -v '^\\s*$'`,
    );
    assert.equal(curl.out, 'backend\n');
    for (const protocol of ['http', 'udp']) {
      const dial = await sh(
        `curl -g -q -s 'http://${backendIP}:80/dial?request=hostname&protocol=${protocol}&host=${backendIP}&port=80&tries=1'`,
      );
      assert.equal(dial.out, '{"responses":["backend"]}', protocol);
    }
  });

  it('lifecycle hooks reach the backend, whose log shows the requests (postStart exec, preStop httpGet)', async () => {
    const body = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'hooked' },
      spec: {
        containers: [
          {
            name: 'c',
            image: agnhost,
            args: ['pause'],
            lifecycle: {
              postStart: {
                exec: { command: ['sh', '-c', `curl http://${backendIP}:80/echo?msg=poststart`] },
              },
              preStop: { httpGet: { host: backendIP, port: 80, path: '/echo?msg=prestop' } },
            },
          },
        ],
      },
    };
    assert.equal((await s.request('POST', `${ns}/pods`, { body })).status, 201);
    const log = async (): Promise<string> => (await s.request('GET', `${ns}/pods/backend/log`)).text;
    await waitFor('the postStart request in the backend’s log', async () =>
      /^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d GET \/echo\?msg=poststart&code=$/m.test(await log())
        ? true
        : undefined,
    );
    assert.equal((await s.request('DELETE', `${ns}/pods/hooked`)).status, 200);
    await waitFor('the preStop request in the backend’s log', async () =>
      (await log()).includes('GET /echo?msg=prestop&code=\n') ? true : undefined,
    );
    assert.match(
      await log(),
      /^\S+ \S+ Started HTTP server on port 80\n\S+ \S+ Started UDP server on port {2}80\n/,
    );
  });

  it('a port no endpoint serves is refused, an unknown name does not resolve', async () => {
    const refused = await sh('curl -q -s --connect-timeout 2 http://be:81/');
    assert.match(refused.status, /"reason":"NonZeroExitCode".*"message":"7"/);
    const unknown = await sh('nc -v -t -w 2 nowhere 80');
    assert.equal(unknown.err, 'nc: getaddrinfo for host "nowhere" port 80: Name does not resolve\n');
  });
});
