/**
 * The simulated cluster DNS as the upstream DNS `[Conformance]` specs probe it: a pod whose
 * agnhost and jessie-dnsutils containers loop `dig` and `getent hosts` over the cluster's names,
 * writing what they find under /results, served by agnhost test-webserver and read through
 * pods/proxy. The containers' scripts run as time passes, so a headless Service's name resolves
 * once the pod itself is a ready endpoint. ClusterFirst pods get the kubelet's resolv.conf for the
 * kube-system/kube-dns Service, and `nslookup` follows an ExternalName Service through `kubectl exec`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { spdyExec } from '../support/spdy-client.js';
import { waitFor } from '../support/poll.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const ns = '/api/v1/namespaces/default';
const agnhost = 'registry.k8s.io/e2e-test-images/agnhost:2.43';
const jessie = 'registry.k8s.io/e2e-test-images/jessie-dnsutils:1.7';
const domain = 'default.svc.cluster.local';

/** The probe loop of upstream's createProbeCommand, for `names` (A or SRV) and `hosts` (getent). */
function probeScript(prefix: string, names: string[], hosts: string[], ptr: string): string {
  let cmd = 'for i in `seq 1 600`; do ';
  for (const name of names) {
    const lookup = name.startsWith('_') ? `${name} SRV` : `${name} A`;
    cmd += `check="$$(dig +notcp +noall +answer +search ${lookup})" && test -n "$$check" && echo OK > /results/${prefix}_udp@${name};`;
    cmd += `check="$$(dig +tcp +noall +answer +search ${lookup})" && test -n "$$check" && echo OK > /results/${prefix}_tcp@${name};`;
  }
  for (const h of hosts) cmd += `test -n "$$(getent hosts ${h})" && echo OK > /results/${prefix}_hosts@${h};`;
  cmd += `check="$$(dig +notcp +noall +answer +search ${ptr} PTR)" && test -n "$$check" && echo OK > /results/${prefix}_udp@PTR;`;
  cmd += 'dig +short ext.default.svc.cluster.local CNAME > /results/' + prefix + '_cname;';
  return `${cmd}sleep 1; done`;
}

describe('the simulated cluster DNS', () => {
  let s: TestServer;

  const exec = async (pod: string, script: string): Promise<{ out: string; status: string }> => {
    const r = await spdyExec({
      port: s.port,
      tls: { ca: s.pki.caCert, cert: s.pki.adminCert, key: s.pki.adminKey },
      path: `${ns}/pods/${pod}/exec?container=c&stdout=1&stderr=1&command=sh&command=-c&command=${encodeURIComponent(script)}`,
      protocols: ['v4.channel.k8s.io'],
      streams: ['error', 'stdout', 'stderr'],
    });
    return { out: r.streams['stdout'] ?? '', status: r.streams['error'] ?? '' };
  };

  const service = async (name: string, spec: Record<string, unknown>): Promise<{ clusterIP?: string }> => {
    const r = await s.request('POST', `${ns}/services`, {
      body: { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec },
    });
    assert.equal(r.status, 201, r.text);
    return r.json<{ spec: { clusterIP?: string } }>().spec;
  };

  before(async () => {
    s = await startTestServer({ nodes: 1, storage: 'memory' });
    await waitFor('the default ServiceAccount', async () =>
      (await s.request('GET', `${ns}/serviceaccounts/default`)).status === 200 ? true : undefined,
    );
  });

  after(async () => {
    await s.stop();
  });

  it('keeps kube-system/kube-dns at the tenth address of the service range', async () => {
    const svc = await waitFor('the kube-dns Service', async () => {
      const r = await s.request('GET', '/api/v1/namespaces/kube-system/services/kube-dns');
      return r.status === 200
        ? r.json<{ spec: { clusterIP: string; ports: { name: string }[] } }>()
        : undefined;
    });
    assert.equal(svc.spec.clusterIP, '10.96.0.10');
    assert.deepEqual(
      svc.spec.ports.map((p) => p.name),
      ['dns', 'dns-tcp', 'metrics'],
    );
  });

  it('answers the probes of a pod as the cluster changes around it (A, SRV, PTR, CNAME, /etc/hosts)', async () => {
    const selector = { 'dns-test': 'true' };
    const port = [{ name: 'http', port: 80, protocol: 'TCP' }];
    await service('dns-test-service', { clusterIP: 'None', selector, ports: port });
    const regular = await service('test-service-2', { selector, ports: port });
    await service('ext', { type: 'ExternalName', externalName: 'foo.example.com' });
    const names = [
      `dns-test-service.${domain}`,
      `_http._tcp.dns-test-service.${domain}`,
      `_http._tcp.test-service-2.${domain}`,
      'kubernetes.default',
    ];
    const hosts = [`dns-querier-1.dns-test-service.${domain}`, 'dns-querier-1'];
    const ptr = `${(regular.clusterIP ?? '').split('.').reverse().join('.')}.in-addr.arpa.`;
    const mounts = [{ name: 'results', mountPath: '/results' }];
    const created = await s.request('POST', `${ns}/pods`, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'dns-test', labels: selector },
        spec: {
          hostname: 'dns-querier-1',
          subdomain: 'dns-test-service',
          volumes: [{ name: 'results', emptyDir: {} }],
          containers: [
            { name: 'webserver', image: agnhost, args: ['test-webserver'], volumeMounts: mounts },
            {
              name: 'querier',
              image: agnhost,
              command: ['sh', '-c'],
              args: [probeScript('wheezy', names, hosts, ptr)],
              volumeMounts: mounts,
            },
            {
              name: 'jessie-querier',
              image: jessie,
              command: ['sh', '-c', probeScript('jessie', names, hosts, ptr)],
              volumeMounts: mounts,
            },
          ],
        },
      },
    });
    assert.equal(created.status, 201, created.text);
    const files = ['wheezy', 'jessie'].flatMap((p) => [
      ...names.flatMap((n) => [`${p}_udp@${n}`, `${p}_tcp@${n}`]),
      ...hosts.map((h) => `${p}_hosts@${h}`),
      `${p}_udp@PTR`,
    ]);
    const read = async (file: string): Promise<string | undefined> => {
      const r = await s.request('GET', `${ns}/pods/dns-test/proxy/results/${encodeURIComponent(file)}`);
      return r.status === 200 ? r.text : undefined;
    };
    await waitFor('every probe result', async () => {
      for (const f of files) if ((await read(f)) !== 'OK\n') return undefined;
      return true;
    });
    assert.equal((await read('wheezy_cname'))?.trim(), 'foo.example.com.');
    assert.equal((await read('jessie_cname'))?.trim(), 'foo.example.com.');
  });

  it('gives ClusterFirst pods the cluster resolv.conf, and nslookup follows an ExternalName in the zone', async () => {
    await service('externalsvc', { ports: [{ port: 80 }] });
    await service('alias', { type: 'ExternalName', externalName: `externalsvc.${domain}` });
    const body = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'execpod' },
      spec: { containers: [{ name: 'c', image: agnhost, args: ['pause'] }] },
    };
    assert.equal((await s.request('POST', `${ns}/pods`, { body })).status, 201);
    await waitFor('the exec pod running', async () => {
      const r = await s.request('GET', `${ns}/pods/execpod`);
      return r.json<{ status?: { phase?: string } }>().status?.phase === 'Running' ? true : undefined;
    });
    const conf = await exec('execpod', 'cat /etc/resolv.conf');
    assert.equal(
      conf.out,
      'search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n',
    );
    const ok = await exec('execpod', `nslookup alias.${domain}`);
    assert.match(ok.status, /"status":"Success"/);
    assert.match(
      ok.out,
      new RegExp(`alias\\.${domain}\\tcanonical name = externalsvc\\.${domain}\\.\\nName:\\texternalsvc`),
    );
    const missing = await exec('execpod', `nslookup nope.${domain}`);
    assert.match(missing.out, /\*\* server can't find nope\.default\.svc\.cluster\.local: NXDOMAIN/);
    assert.match(missing.status, /"reason":"NonZeroExitCode".*"message":"1"/);
  });
});
