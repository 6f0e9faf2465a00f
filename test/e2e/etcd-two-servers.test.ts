/**
 * The kubectl 1.27 transcript of the scale-out (AM-13): etcd and two `nanokube serve --storage
 * etcd` processes; a Deployment created through one server, its pods seen Running through the
 * other; `nanokube serve` refuses etcd flags without `--storage etcd`, and `--storage etcd`
 * without `--etcd-servers`. Skips, saying why, without etcd or kubectl.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
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
    before(async () => {
      etcd = await EtcdCluster.start(1);
      const flags = ['--storage', 'etcd', '--etcd-servers', etcd.endpoints.join(',')];
      one = await startNanokube({ args: [...flags, '--nodes', '2'] });
      two = await startNanokube({ args: [...flags, '--nodes', '0'] });
      k1 = kubectlFor(one);
      k2 = kubectlFor(two);
    });
    after(async () => {
      await two?.stop();
      await one?.stop();
      await etcd?.stop();
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
