/**
 * `nanokube proxy --dry-run` against `nanokube serve --nodes 2`, with kubectl 1.27 making the
 * Service: the proxy prints the whole iptables-restore input it would write for node 0 — the
 * Service's cluster IP and node port rules, one KUBE-SEP chain per ready pod, the chains it owns
 * (KUBE-MARK-MASQ, NW-12) — with chain names computed as kube-proxy computes them.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { serviceChains } from '../../src/proxy/chain-names.js';
import { cliPath } from './support/nanokube-process.js';
import { itStopsCleanly, kubectlSession, kubectlSkip } from './support/session.js';

const run = promisify(execFile);

describe('nanokube proxy --dry-run (NW-06, NW-12)', { skip: kubectlSkip }, () => {
  const s = kubectlSession({ args: ['--nodes', '2'] });
  /** `nanokube proxy` for the first node against the session's server, then `extra`. */
  const proxyArgs = (...extra: string[]): string[] => [
    cliPath,
    'proxy',
    '--kubeconfig',
    s.server.kubeconfigPath,
    '--node-name',
    'nanokube-node-0',
    ...extra,
  ];

  it('prints the rules for a Service kubectl made, with one endpoint chain per ready pod', async () => {
    await s.namespaceReady('default');
    await s.ok(['create', 'deployment', 'web', '--image=nginx', '--replicas=2']);
    await s.ok(['expose', 'deployment', 'web', '--port=80', '--type=NodePort']);
    await s.ok(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    const clusterIP = await s.ok(['get', 'service', 'web', '-o', 'jsonpath={.spec.clusterIP}']);
    const nodePort = await s.ok(['get', 'service', 'web', '-o', 'jsonpath={.spec.ports[0].nodePort}']);
    const podIPs = (await s.ok(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[*].status.podIP}']))
      .split(' ')
      .sort();
    // The EndpointSlice follows the pods shortly.
    let out = '';
    for (let i = 0; i < 50; i++) {
      const r = await run(process.execPath, proxyArgs('--cluster-cidr', '10.244.0.0/16', '--dry-run'));
      out = r.stdout;
      if (podIPs.every((ip) => out.includes(`--to-destination ${ip}:80`))) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const svc = serviceChains('default/web', 'tcp');
    assert.match(out, /^\*filter\n/);
    assert.ok(
      out.includes(
        `-A KUBE-SERVICES -m comment --comment "default/web cluster IP" -m tcp -p tcp -d ${clusterIP} --dport 80 -j ${svc.svc}\n`,
      ),
      out,
    );
    assert.ok(
      out.includes(
        `-A KUBE-NODEPORTS -m comment --comment default/web -m tcp -p tcp --dport ${nodePort} -j ${svc.ext}\n`,
      ),
      out,
    );
    assert.ok(
      out.includes(
        `-A ${svc.svc} -m comment --comment "default/web -> ${podIPs[0]}:80" -m statistic --mode random --probability 0.5000000000 -j KUBE-SEP-`,
      ),
      out,
    );
    for (const ip of podIPs) assert.ok(out.includes(`-j DNAT --to-destination ${ip}:80`), out);
    assert.ok(out.includes(':KUBE-MARK-MASQ - [0:0]\n'));
    assert.ok(out.endsWith('COMMIT\n'));
  });

  it('refuses to run without a node name', async () => {
    await assert.rejects(
      run(process.execPath, [cliPath, 'proxy', '--kubeconfig', s.server.kubeconfigPath]),
      (err: { code?: number; stderr?: string }) =>
        err.code === 2 && /--node-name is required/.test(err.stderr ?? ''),
    );
  });

  it('refuses --nodeport-addresses that are not CIDRs', async () => {
    await assert.rejects(
      run(process.execPath, proxyArgs('--nodeport-addresses', '10.0.0.0/8,10.1.2.3', '--dry-run')),
      (err: { code?: number; stderr?: string }) =>
        err.code === 2 &&
        (err.stderr ?? '').includes(
          'invalid argument "10.0.0.0/8,10.1.2.3" for "--nodeport-addresses" flag: "10.1.2.3": must be a valid CIDR',
        ),
    );
  });

  itStopsCleanly(s);
});
