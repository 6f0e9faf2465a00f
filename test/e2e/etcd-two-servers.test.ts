/**
 * The kubectl 1.27 transcript of the scale-out (AM-13): etcd and two `nanokube serve --storage
 * etcd` processes, the second sharing the first's CA and service-account key (copied into its
 * data dir before its first start); a Deployment created through one server, its pods seen
 * Running through the other; the first's admin kubeconfig and a service-account token it issued
 * work against the second, and are refused by a third server with keys of its own; `nanokube
 * serve` refuses etcd flags without `--storage etcd`, and `--storage etcd` without
 * `--etcd-servers`. Skips, saying why, without etcd or kubectl.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { EtcdCluster, etcdSkip } from '../../src/storage/kv/etcd/testing/etcd-cluster.js';
import { kubectlFor } from './support/kubectl-runner.js';
import type { Kubectl } from './support/kubectl-runner.js';
import { cliPath, startNanokube } from './support/nanokube-process.js';
import type { NanokubeProcess } from './support/nanokube-process.js';
import { kubectlSkip } from './support/session.js';

const run = promisify(execFile);

describe(
  'kubectl against two nanokube servers over one etcd (AM-13)',
  { skip: etcdSkip || kubectlSkip },
  () => {
    let etcd: EtcdCluster;
    let one: NanokubeProcess;
    let two: NanokubeProcess;
    let k1: Kubectl;
    let k2: Kubectl;
    let flags: string[];
    let twoDir: string;
    before(async () => {
      etcd = await EtcdCluster.start(1);
      flags = ['--storage', 'etcd', '--etcd-servers', etcd.endpoints.join(',')];
      one = await startNanokube({ args: [...flags, '--nodes', '2'] });
      // The second server trusts what the first signs: its CA and service-account key, copied
      // into the second's data dir before it first starts.
      twoDir = mkdtempSync(join(tmpdir(), 'nanokube-two-'));
      mkdirSync(join(twoDir, 'pki'));
      for (const f of ['ca.crt', 'ca.key', 'sa.key']) {
        copyFileSync(join(one.dataDir, 'pki', f), join(twoDir, 'pki', f));
      }
      two = await startNanokube({ dataDir: twoDir, args: [...flags, '--nodes', '0'] });
      k1 = kubectlFor(one);
      k2 = kubectlFor(two);
    });
    after(async () => {
      await two?.stop();
      await one?.stop();
      await etcd?.stop();
      if (twoDir !== undefined) rmSync(twoDir, { recursive: true, force: true });
    });

    it('a Deployment created through one server has its pods Running through the other', async () => {
      const created = await k1.run(['create', 'deployment', 'web', '--image=nginx', '--replicas=3']);
      assert.equal(created.code, 0, created.stderr);
      const rolled = await k2.run(['rollout', 'status', 'deployment/web', '--timeout=60s']);
      assert.equal(rolled.code, 0, rolled.stderr);
      assert.match(rolled.stdout, /deployment "web" successfully rolled out/);
      const pods = await k2.run(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[*].status.phase}']);
      assert.equal(pods.stdout, 'Running Running Running');
      const ready = await k2.run(['get', '--raw', '/readyz?verbose']);
      assert.match(ready.stdout, /^\[\+\]etcd ok$/m);
    });

    it("the first server's admin kubeconfig and service-account tokens work against the second; a server with keys of its own refuses them", async () => {
      const asAdmin = await k1.run(['--server', two.url, 'get', 'deployment', 'web', '-o', 'name']);
      assert.equal(asAdmin.code, 0, asAdmin.stderr);
      assert.equal(asAdmin.stdout.trim(), 'deployment.apps/web');
      const token = await k1.run(['create', 'token', 'default']);
      assert.equal(token.code, 0, token.stderr);
      const ca = join(one.dataDir, 'pki', 'ca.crt');
      const withToken = (url: string, caFile: string) => [
        '--kubeconfig=/dev/null',
        `--server=${url}`,
        `--certificate-authority=${caFile}`,
        `--token=${token.stdout.trim()}`,
        'get',
        'pods',
      ];
      // Authenticated as the service account on the second server: only RBAC says no.
      const asSA = await k2.run(withToken(two.url, ca));
      assert.equal(asSA.code, 1);
      assert.match(asSA.stderr, /User "system:serviceaccount:default:default" cannot list resource "pods"/);
      const three = await startNanokube({ args: [...flags, '--nodes', '0'] });
      try {
        const k3 = kubectlFor(three);
        const refused = await k3.run(withToken(three.url, join(three.dataDir, 'pki', 'ca.crt')));
        assert.equal(refused.code, 1);
        assert.match(
          refused.stderr,
          /You must be logged in to the server \(the server has asked for the client to provide credentials\)/,
        );
        const untrusted = await k1.run(['--server', three.url, 'get', 'pods']);
        assert.equal(untrusted.code, 1);
        assert.match(untrusted.stderr, /certificate signed by unknown authority|x509/);
      } finally {
        await three.stop();
      }
    });

    it('refuses etcd flags without --storage etcd, and --storage etcd without servers', async () => {
      const serve = (...args: string[]): Promise<unknown> =>
        run(process.execPath, [cliPath, 'serve', '--data-dir', '/nonexistent/nanokube', ...args]);
      await assert.rejects(serve('--etcd-servers', 'http://127.0.0.1:1'), (err: { stderr?: string }) =>
        /--etcd-servers is only for --storage etcd/.test(err.stderr ?? ''),
      );
      await assert.rejects(serve('--storage', 'etcd'), (err: { stderr?: string }) =>
        /--storage etcd needs --etcd-servers/.test(err.stderr ?? ''),
      );
    });
  },
);
