/**
 * `nanokube proxy` on real iptables (NW-06, NW-12), as root, inside network namespaces this test
 * makes and removes: a "node" namespace where the proxy programs its tables, two "pod"
 * namespaces joined to it by veth pairs, each running a small HTTP server that says which pod it
 * is. The Service and its EndpointSlice live in `nanokube serve`. From the node namespace,
 * requests to the cluster IP and to the node port reach both pods; once the EndpointSlice drops
 * one, traffic reaches only the other, and the proxy's metrics show that change was written by a
 * partial restore. A UDP flow (one source port, so one conntrack entry) moves to the other pod
 * once its pod leaves the UDP Service's EndpointSlice, because the proxy deletes the entry (with
 * the entry left, the old pod, still up, would keep answering). When the node's tables are
 * flushed under the proxy, it misses its canary chain and puts the rules back with a full sync.
 * Only loopback and the test's own namespaces are ever addressed.
 *
 * Skips (saying why) when not root, without `ip` or `iptables-restore`, or where network
 * namespaces cannot be made (an unprivileged container).
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { RestClient } from '../../src/client/rest-client.js';
import { credentialsFromKubeconfig } from '../../src/cmd/kubeconfig-credentials.js';
import { cliPath, startNanokube } from './support/nanokube-process.js';
import type { NanokubeProcess } from './support/nanokube-process.js';

const tag = `nk${process.pid % 100000}`;
const nodeNs = `${tag}-node`;
const podNs = [`${tag}-pod1`, `${tag}-pod2`];

function sh(args: readonly string[]): string {
  return execFileSync(args[0]!, args.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function skipReason(): string | false {
  if (process.platform !== 'linux') return 'network namespaces are Linux only';
  if (process.getuid?.() !== 0) return 'needs root (iptables in network namespaces)';
  for (const tool of ['ip', 'iptables-restore', 'iptables-save']) {
    try {
      sh(['sh', '-c', `command -v ${tool}`]);
    } catch {
      return `${tool} is not installed (apt-get install iptables iproute2)`;
    }
  }
  const probe = `${tag}-probe`;
  try {
    sh(['ip', 'netns', 'add', probe]);
    sh(['ip', 'netns', 'exec', probe, 'iptables-save', '-t', 'nat']);
  } catch (err) {
    return `cannot make a network namespace with iptables here: ${String((err as { stderr?: string }).stderr ?? err).trim()}`;
  } finally {
    try {
      sh(['ip', 'netns', 'del', probe]);
    } catch {
      // It was never made.
    }
  }
  return false;
}

const skip = skipReason();

/**
 * What of IPv6 works in a network namespace here: ip6tables (then the proxy runs an IPv6 half,
 * as kube-proxy does where the tools work), and addresses (then the IPv6 test runs).
 */
function probeIPv6(): { ip6tables: boolean; skip: string | false } {
  if (skip !== false) return { ip6tables: false, skip };
  const probe = `${tag}-probe6`;
  let ip6tables = false;
  try {
    sh(['ip', 'netns', 'add', probe]);
    sh(['ip', 'netns', 'exec', probe, 'ip6tables', '-w', '5', '-S', 'POSTROUTING', '-t', 'nat']);
    ip6tables = true;
    sh(['ip', '-n', probe, 'addr', 'add', 'fd00:ffff::1/64', 'dev', 'lo', 'nodad']);
    return { ip6tables, skip: false };
  } catch (err) {
    const why = String((err as { stderr?: string }).stderr ?? err).trim();
    return { ip6tables, skip: `no IPv6 with ip6tables in network namespaces here: ${why}` };
  } finally {
    try {
      sh(['ip', 'netns', 'del', probe]);
    } catch {
      // It was never made.
    }
  }
}

const v6 = probeIPv6();
const skip6 = v6.skip;
const ipv6 = skip6 === false;
/** One full sync per IP family the proxy runs. */
const families = v6.ip6tables ? 2 : 1;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a !== null ? a.port : 0));
    });
  });
}

/** An HTTP GET from inside the node namespace (node's http client; no curl needed). */
function getFromNode(url: string): string {
  const script = `require('http').get(${JSON.stringify(url)}, {timeout: 2000}, (r) => { let b=''; r.on('data', d => b += d); r.on('end', () => process.stdout.write(b)); }).on('error', (e) => { process.stdout.write('ERR ' + e.code); }).on('timeout', function () { this.destroy(); });`;
  try {
    return sh(['ip', 'netns', 'exec', nodeNs, process.execPath, '-e', script]).trim();
  } catch {
    return 'ERR';
  }
}

/**
 * A UDP datagram to `ip:port` from inside the node namespace, always from source port 40000 (so
 * every call is the same conntrack flow); the reply names the pod.
 */
function udpFromNode(ip: string, port: number): string {
  const script = `const s = require('dgram').createSocket('udp4'); s.bind(40000, () => { s.send('who', ${port}, ${JSON.stringify(ip)}); }); s.on('message', (m) => { process.stdout.write(String(m)); s.close(); }); setTimeout(() => { process.stdout.write('TIMEOUT'); s.close(); }, 2000).unref();`;
  try {
    return sh(['ip', 'netns', 'exec', nodeNs, process.execPath, '-e', script]).trim();
  } catch {
    return 'ERR';
  }
}

function hasConntrack(): boolean {
  try {
    sh(['sh', '-c', 'command -v conntrack']);
    return true;
  } catch {
    return false;
  }
}

function who(url: string, n: number): Map<string, number> {
  const seen = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const w = getFromNode(url);
    seen.set(w, (seen.get(w) ?? 0) + 1);
  }
  return seen;
}

describe('nanokube proxy on real iptables in network namespaces', { skip }, () => {
  let server: NanokubeProcess;
  let client: RestClient;
  let proxy: ChildProcess;
  const pods: ChildProcess[] = [];
  let metricsPort = 0;
  let proxyLog = '';

  before(async () => {
    // The node and two pods, 10.244.N.1 (node side) — 10.244.N.2 (pod N).
    for (const ns of [nodeNs, ...podNs]) {
      sh(['ip', 'netns', 'add', ns]);
      sh(['ip', '-n', ns, 'link', 'set', 'lo', 'up']);
    }
    podNs.forEach((ns, i) => {
      const n = i + 1;
      sh([
        'ip',
        'link',
        'add',
        `${tag}v${n}`,
        'netns',
        nodeNs,
        'type',
        'veth',
        'peer',
        'name',
        'eth0',
        'netns',
        ns,
      ]);
      sh(['ip', '-n', nodeNs, 'addr', 'add', `10.244.${n}.1/24`, 'dev', `${tag}v${n}`]);
      sh(['ip', '-n', nodeNs, 'link', 'set', `${tag}v${n}`, 'up']);
      sh(['ip', '-n', ns, 'addr', 'add', `10.244.${n}.2/24`, 'dev', 'eth0']);
      sh(['ip', '-n', ns, 'link', 'set', 'eth0', 'up']);
      sh(['ip', '-n', ns, 'route', 'add', 'default', 'via', `10.244.${n}.1`]);
      if (ipv6) {
        // IPv6 beside (nodad: usable at once, no duplicate address detection).
        sh(['ip', '-n', nodeNs, 'addr', 'add', `fd00:10:244:${n}::1/64`, 'dev', `${tag}v${n}`, 'nodad']);
        sh(['ip', '-n', ns, 'addr', 'add', `fd00:10:244:${n}::2/64`, 'dev', 'eth0', 'nodad']);
        sh(['ip', '-n', ns, '-6', 'route', 'add', 'default', 'via', `fd00:10:244:${n}::1`]);
      }
      const script = [
        `require('http').createServer((q, s) => s.end('pod${n}')).listen(8080, '::');`,
        `const u = require('dgram').createSocket('udp4');`,
        `u.on('message', (m, r) => u.send('pod${n}', r.port, r.address)).bind(5353, '0.0.0.0');`,
      ].join(' ');
      pods.push(spawn('ip', ['netns', 'exec', ns, process.execPath, '-e', script], { stdio: 'ignore' }));
    });
    // Cluster IPs need a route to be sent at all (a real node has a default route).
    sh(['ip', '-n', nodeNs, 'route', 'add', 'default', 'via', '10.244.1.2']);
    if (ipv6) sh(['ip', '-n', nodeNs, '-6', 'route', 'add', 'default', 'via', 'fd00:10:244:1::2']);

    server = await startNanokube({
      args: ['--nodes', '1', '--service-cluster-ip-range', '10.96.0.0/12,fd00:10:96::/112'],
    });
    client = new RestClient(credentialsFromKubeconfig(server.kubeconfigPath, undefined));
    // Each Service with one EndpointSlice of the given addresses (one port, named as the Service's).
    const serviceWithSlice = async (
      name: string,
      spec: Record<string, unknown>,
      slice: { addressType: string; port: number; protocol: string; ips: string[] },
    ): Promise<void> => {
      await client.request('POST', '/api/v1/namespaces/default/services', {
        body: { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec },
      });
      await client.request('POST', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', {
        body: {
          apiVersion: 'discovery.k8s.io/v1',
          kind: 'EndpointSlice',
          metadata: { name: `${name}-1`, labels: { 'kubernetes.io/service-name': name } },
          addressType: slice.addressType,
          ports: [
            {
              name: (spec['ports'] as { name: string }[])[0]?.name,
              port: slice.port,
              protocol: slice.protocol,
            },
          ],
          endpoints: slice.ips.map((ip) => ({ addresses: [ip] })),
        },
      });
    };
    await serviceWithSlice(
      'echo',
      {
        type: 'NodePort',
        clusterIP: '10.96.100.100',
        ports: [{ name: 'http', port: 80, targetPort: 8080, nodePort: 30080 }],
      },
      { addressType: 'IPv4', port: 8080, protocol: 'TCP', ips: ['10.244.1.2', '10.244.2.2'] },
    );
    await serviceWithSlice(
      'dns',
      { clusterIP: '10.96.100.53', ports: [{ name: 'dns', port: 53, targetPort: 5353, protocol: 'UDP' }] },
      { addressType: 'IPv4', port: 5353, protocol: 'UDP', ips: ['10.244.2.2'] },
    );
    if (ipv6)
      await serviceWithSlice(
        'echo6',
        {
          type: 'NodePort',
          ipFamilies: ['IPv6'],
          clusterIP: 'fd00:10:96::100',
          ports: [{ name: 'http', port: 80, targetPort: 8080, nodePort: 30081 }],
        },
        { addressType: 'IPv6', port: 8080, protocol: 'TCP', ips: ['fd00:10:244:1::2', 'fd00:10:244:2::2'] },
      );
    metricsPort = await freePort();
    proxy = spawn(
      process.execPath,
      [
        cliPath,
        'proxy',
        '--kubeconfig',
        server.kubeconfigPath,
        '--node-name',
        'nanokube-node-0',
        '--cluster-cidr',
        '10.244.0.0/16,fd00:10:244::/56',
        // Node ports on the node's side of pod1's link and on localhost only.
        '--nodeport-addresses',
        '10.244.1.0/24,fd00:10:244:1::/64,127.0.0.0/8',
        '--netns',
        nodeNs,
        '--iptables-min-sync-period',
        '100ms',
        '--iptables-sync-period',
        '1s',
        '--healthz-bind-address',
        '',
        '--metrics-bind-address',
        `127.0.0.1:${metricsPort}`,
        '-v',
        '2',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    proxy.stdout?.setEncoding('utf8').on('data', (d: string) => (proxyLog += d));
    proxy.stderr?.setEncoding('utf8').on('data', (d: string) => (proxyLog += d));
  });

  after(async () => {
    proxy?.kill('SIGTERM');
    for (const p of pods) p.kill('SIGTERM');
    client?.close();
    await server?.stop();
    for (const ns of [nodeNs, ...podNs]) {
      try {
        sh(['ip', 'netns', 'del', ns]);
      } catch {
        // Not made.
      }
    }
  });

  const metric = async (name: string): Promise<number> => {
    // A new connection each time (no pooled socket the server may have closed meanwhile).
    const text = await new Promise<string>((resolve, reject) => {
      get(`http://127.0.0.1:${metricsPort}/metrics`, { agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve(body));
      }).on('error', reject);
    });
    const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
    return m === null ? Number.NaN : Number(m[1]);
  };

  const until = async (what: string, ok: () => boolean | Promise<boolean>): Promise<void> => {
    for (let i = 0; i < 100; i++) {
      if (await ok()) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.fail(`timed out waiting for ${what}\nproxy log:\n${proxyLog}`);
  };

  it('the cluster IP and the node port reach both pods', async () => {
    await until('the first sync', () => getFromNode('http://10.96.100.100/').startsWith('pod'));
    const viaClusterIP = who('http://10.96.100.100/', 16);
    assert.ok(
      (viaClusterIP.get('pod1') ?? 0) > 0 && (viaClusterIP.get('pod2') ?? 0) > 0,
      JSON.stringify([...viaClusterIP]),
    );
    const viaNodePort = who('http://10.244.1.1:30080/', 16);
    assert.ok(
      (viaNodePort.get('pod1') ?? 0) > 0 && (viaNodePort.get('pod2') ?? 0) > 0,
      JSON.stringify([...viaNodePort]),
    );
    // One full sync per IP family.
    assert.equal(await metric('kubeproxy_sync_full_proxy_rules_duration_seconds_count'), families);
  });

  it('--nodeport-addresses: the node port answers on the selected address only', () => {
    assert.ok(getFromNode('http://10.244.1.1:30080/').startsWith('pod'));
    assert.ok(getFromNode('http://10.244.2.1:30080/').startsWith('ERR'));
    const nat = sh(['ip', 'netns', 'exec', nodeNs, 'iptables-save', '-t', 'nat']);
    assert.match(nat, /-A KUBE-SERVICES -d 10\.244\.1\.1\/32 .*-j KUBE-NODEPORTS/);
    assert.doesNotMatch(nat, /--dst-type LOCAL/);
    // 127.0.0.0/8 among them: node ports on localhost, which needs route_localnet (set by the proxy).
    assert.equal(
      sh(['ip', 'netns', 'exec', nodeNs, 'cat', '/proc/sys/net/ipv4/conf/all/route_localnet']).trim(),
      '1',
    );
    assert.ok(getFromNode('http://127.0.0.1:30080/').startsWith('pod'));
  });

  it(
    'IPv6 (ip6tables): the cluster IP and the node port of an IPv6 Service reach both pods',
    { skip: skip6 },
    () => {
      const viaClusterIP = who('http://[fd00:10:96::100]/', 16);
      assert.ok(
        (viaClusterIP.get('pod1') ?? 0) > 0 && (viaClusterIP.get('pod2') ?? 0) > 0,
        JSON.stringify([...viaClusterIP]),
      );
      const viaNodePort = who('http://[fd00:10:244:1::1]:30081/', 16);
      assert.ok(
        (viaNodePort.get('pod1') ?? 0) > 0 && (viaNodePort.get('pod2') ?? 0) > 0,
        JSON.stringify([...viaNodePort]),
      );
      const nat6 = sh(['ip', 'netns', 'exec', nodeNs, 'ip6tables-save', '-t', 'nat']);
      assert.match(nat6, /--to-destination \[fd00:10:244:2::2\]:8080/);
      assert.doesNotMatch(sh(['ip', 'netns', 'exec', nodeNs, 'iptables-save', '-t', 'nat']), /fd00/);
    },
  );

  it('an endpoint taken out of the EndpointSlice gets no more traffic, by a partial restore', async () => {
    const partialBefore = await metric('kubeproxy_sync_partial_proxy_rules_duration_seconds_count');
    await client.request('PATCH', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/echo-1', {
      body: { endpoints: [{ addresses: ['10.244.1.2'] }] },
      contentType: 'application/merge-patch+json',
    });
    await until(
      'a partial sync',
      async () => (await metric('kubeproxy_sync_partial_proxy_rules_duration_seconds_count')) > partialBefore,
    );
    assert.deepEqual([...who('http://10.96.100.100/', 12)], [['pod1', 12]]);
    assert.deepEqual([...who('http://10.244.1.1:30080/', 6)], [['pod1', 6]]);
    assert.equal(await metric('kubeproxy_sync_full_proxy_rules_duration_seconds_count'), families);
    assert.equal(await metric('kubeproxy_sync_proxy_rules_iptables_partial_restore_failures_total'), 0);
    // The removed endpoint's chain is gone from the node's nat table.
    const nat = sh(['ip', 'netns', 'exec', nodeNs, 'iptables-save', '-t', 'nat']);
    assert.doesNotMatch(nat, /10\.244\.2\.2:8080/);
  });

  it(
    'a UDP flow moves to the new endpoint once its endpoint goes: the proxy deletes its conntrack entry',
    { skip: hasConntrack() ? false : 'conntrack is not installed (apt-get install conntrack)' },
    async () => {
      await until('the UDP Service', () => udpFromNode('10.96.100.53', 53) === 'pod2');
      // The same flow again: conntrack keeps it on pod2.
      assert.equal(udpFromNode('10.96.100.53', 53), 'pod2');
      const flows = sh([
        'ip',
        'netns',
        'exec',
        nodeNs,
        'conntrack',
        '-L',
        '-p',
        'udp',
        '--orig-dst',
        '10.96.100.53',
      ]);
      assert.match(flows, /dport=40000/);
      const partialBefore = await metric('kubeproxy_sync_partial_proxy_rules_duration_seconds_count');
      await client.request('PATCH', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/dns-1', {
        body: { endpoints: [{ addresses: ['10.244.1.2'] }] },
        contentType: 'application/merge-patch+json',
      });
      await until(
        'a partial sync',
        async () =>
          (await metric('kubeproxy_sync_partial_proxy_rules_duration_seconds_count')) > partialBefore,
      );
      // pod2 still answers, so a flow left in conntrack would still reach it.
      await until('the flow to reach pod1', () => udpFromNode('10.96.100.53', 53) === 'pod1');
      assert.equal(udpFromNode('10.96.100.53', 53), 'pod1');
    },
  );

  it('iptables flushed under the proxy (a firewall reload): the canary is missed and a full sync puts the rules back', async () => {
    const fullBefore = await metric('kubeproxy_sync_full_proxy_rules_duration_seconds_count');
    const saved = sh(['ip', 'netns', 'exec', nodeNs, 'iptables-save']);
    for (const table of ['mangle', 'nat', 'filter'])
      assert.match(saved, new RegExp(`\\*${table}[^*]*:KUBE-PROXY-CANARY `));
    sh([
      'ip',
      'netns',
      'exec',
      nodeNs,
      'sh',
      '-c',
      'for t in nat filter mangle; do iptables -t $t -F && iptables -t $t -X || exit 1; done',
    ]);
    // No check that traffic fails meanwhile: the canary may be missed, and the rules back, by then.
    await until(
      'a full sync',
      async () => (await metric('kubeproxy_sync_full_proxy_rules_duration_seconds_count')) > fullBefore,
    );
    await until('the cluster IP to answer again', () => getFromNode('http://10.96.100.100/') === 'pod1');
    assert.match(sh(['ip', 'netns', 'exec', nodeNs, 'iptables-save', '-t', 'mangle']), /:KUBE-PROXY-CANARY /);
  });
});
