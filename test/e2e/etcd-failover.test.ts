/**
 * Failover over etcd (AM-13): 3 etcd members and 2 `nanokube serve --storage etcd` processes, both
 * with simulated nodes. Writers go through both servers while a watcher follows through the
 * second; then one etcd member and the server leading the scheduler and nodes are killed with
 * SIGKILL mid-stream. No acknowledged write is lost, the watcher sees every change once and in
 * order, the survivor takes the Leases over and runs new pods within the lease duration, and the
 * `kubernetes` Endpoints drop the dead server once its record expires. Skips, saying why, without
 * etcd or kubectl.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { installationIdentity, simulatedNodesLease } from '../../src/cmd/serve/controllers.js';
import { EtcdCluster, etcdSkip } from '../../src/storage/kv/etcd/testing/etcd-cluster.js';
import { kubectlFor } from './support/kubectl-runner.js';
import type { Kubectl } from './support/kubectl-runner.js';
import { startNanokube } from './support/nanokube-process.js';
import type { NanokubeProcess } from './support/nanokube-process.js';
import { kubectlSkip } from './support/session.js';

async function until<T>(
  what: string,
  ms: number,
  f: () => Promise<T | undefined> | T | undefined,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('failover of etcd members and nanokube servers (AM-13)', { skip: etcdSkip || kubectlSkip }, () => {
  let etcd: EtcdCluster;
  const servers: NanokubeProcess[] = [];
  const kubectl: Kubectl[] = [];
  before(async () => {
    etcd = await EtcdCluster.start(3);
    for (const ip of ['192.0.2.21', '192.0.2.22']) {
      const s = await startNanokube({
        args: [
          '--storage',
          'etcd',
          '--etcd-servers',
          etcd.endpoints.join(','),
          '--nodes',
          '2',
          '--advertise-address',
          ip,
        ],
      });
      servers.push(s);
      kubectl.push(kubectlFor(s));
    }
  });
  after(async () => {
    for (const s of servers) await s.stop();
    await etcd?.stop();
  });

  it('loses no acknowledged write, repeats no event, and fails over within the lease duration', async (t) => {
    const first = kubectl[0]!;
    const endpoints = async (k: Kubectl): Promise<string> =>
      (await k.run(['get', 'endpoints', 'kubernetes', '-o', 'jsonpath={.subsets[0].addresses[*].ip}']))
        .stdout;
    await until('both servers in the kubernetes Endpoints', 30_000, async () =>
      (await endpoints(first)) === '192.0.2.21 192.0.2.22' ? true : undefined,
    );
    // Which server runs the nodes (its identity comes from its data dir).
    const holder = (
      await first.run([
        'get',
        'lease',
        '-n',
        'kube-system',
        simulatedNodesLease,
        '-o',
        'jsonpath={.spec.holderIdentity}',
      ])
    ).stdout;
    const leader = servers.findIndex((s) => installationIdentity(s.dataDir) === holder);
    assert.ok(leader >= 0, `a server holds the nodes Lease (${holder})`);
    const survivor = 1 - leader;
    const ks = kubectl[survivor]!;

    // A watcher on the survivor; a sentinel shows it is watching before the writers start.
    const watch = ks.watch([
      'get',
      'configmaps',
      '-n',
      'default',
      '--watch-only',
      '-o',
      'jsonpath={.metadata.name}{"\\n"}',
    ]);
    // (A sentinel made before kubectl listed is in its list and not printed: make another.)
    for (let i = 0; !/^sentinel-/m.test(watch.stdout()); i++) {
      if (i > 30) throw new Error(`the watch printed no sentinel: ${watch.stdout()}`);
      assert.equal((await ks.run(['create', 'configmap', `sentinel-${i}`, '-n', 'default'])).code, 0);
      await new Promise((r) => setTimeout(r, 1000));
    }

    // Writers through both servers; halfway, an etcd member and the leading server die.
    const acknowledged: string[] = [];
    let killedAt = 0;
    for (let i = 0; i < 40; i++) {
      if (i === 20) {
        etcd.kill(1);
        servers[leader]!.kill();
        killedAt = Date.now();
      }
      const via = i < 20 ? kubectl[i % 2]! : ks;
      const name = `w${String(i).padStart(2, '0')}`;
      for (let attempt = 0; attempt < 20; attempt++) {
        const r = await via.run(['create', 'configmap', name, '-n', 'default', `--from-literal=i=${i}`]);
        if (r.code === 0 || /AlreadyExists/.test(r.stderr)) {
          acknowledged.push(name);
          break;
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    assert.equal(acknowledged.length, 40);
    const listed = (
      await ks.run(['get', 'configmaps', '-n', 'default', '-o', 'jsonpath={.items[*].metadata.name}'])
    ).stdout
      .split(' ')
      .filter((n) => n.startsWith('w'));
    assert.deepEqual(listed.sort(), [...acknowledged].sort(), 'every acknowledged write is there');
    const seen = await until('the watcher to see all 40', 30_000, () => {
      const lines = watch
        .stdout()
        .split('\n')
        .filter((l) => l.startsWith('w'));
      return lines.length >= 40 ? lines : undefined;
    });
    assert.deepEqual(seen, acknowledged, 'each change once, in order');
    await watch.kill();

    // The survivor takes the Leases over and runs new pods.
    const started = Date.now();
    assert.equal((await ks.run(['create', 'deployment', 'after', '--image=nginx', '--replicas=2'])).code, 0);
    const rolled = await ks.run(['rollout', 'status', 'deployment/after', '--timeout=60s']);
    assert.equal(rolled.code, 0, rolled.stderr);
    const took = Date.now() - started;
    assert.ok(took < 45_000, `pods ran ${took} ms after the leader died`);
    t.diagnostic(`a new Deployment rolled out ${took} ms after it was created on the survivor`);
    // The dead server's record expires (15 s) and the Endpoints drop it.
    const left = survivor === 0 ? '192.0.2.21' : '192.0.2.22';
    await until('the dead server out of the kubernetes Endpoints', 40_000, async () =>
      (await endpoints(ks)) === left ? true : undefined,
    );
    t.diagnostic(
      `the kubernetes Endpoints dropped the dead server ${Date.now() - killedAt} ms after it died`,
    );
  });
});
