/**
 * `nanokube storage migrate` (AM-13), driven as a user would with kubectl 1.27: a cluster on a
 * SQLite data dir is stopped and copied into etcd; `serve --storage etcd` on the same data dir
 * (its certificates) shows the same objects, their resourceVersions renumbered in the same order;
 * copied back out of etcd into a new data dir, every resourceVersion is etcd's exactly. A second
 * copy into a store that holds objects, a data dir a server has open, and etcd to etcd are refused.
 * Skips, saying why, without etcd or kubectl.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { EtcdCluster, etcdSkip } from '../../src/storage/kv/etcd/testing/etcd-cluster.js';
import { kubectlFor } from './support/kubectl-runner.js';
import { cliPath, ensureBuilt, startNanokube } from './support/nanokube-process.js';
import { kubectlSkip } from './support/session.js';

const exec = promisify(execFile);

/** Runs `nanokube storage …`: its exit code and output, never throwing. */
async function storage(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await exec(process.execPath, [cliPath, 'storage', ...args]);
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('nanokube storage migrate (AM-13)', { skip: etcdSkip || kubectlSkip }, () => {
  let etcd: EtcdCluster;
  let base: string;
  before(async () => {
    ensureBuilt();
    etcd = await EtcdCluster.start(1);
    base = mkdtempSync(join(tmpdir(), 'nanokube-migrate-'));
  });
  after(async () => {
    await etcd?.stop();
    if (base !== undefined) rmSync(base, { recursive: true, force: true });
  });

  it('a data dir into etcd and back: the same objects, resourceVersions in the same order, then kept', async () => {
    const dirA = join(base, 'a');
    const etcdFlags = ['--etcd-servers', etcd.endpoints.join(','), '--etcd-prefix', '/migrated'];
    const names = ['one', 'two', 'three'];
    const rvs = async (k: ReturnType<typeof kubectlFor>): Promise<Record<string, number>> => {
      const r = await k.run(['get', 'configmaps', '-n', 'default', '-o', 'json']);
      assert.equal(r.code, 0, r.stderr);
      const list = JSON.parse(r.stdout) as {
        items: { metadata: { name: string; resourceVersion: string }; data?: Record<string, string> }[];
      };
      const out: Record<string, number> = {};
      for (const cm of list.items) {
        if (cm.metadata.name === 'kube-root-ca.crt') continue;
        assert.equal(cm.data?.['v'], cm.metadata.name, `data of ${cm.metadata.name}`);
        out[cm.metadata.name] = Number(cm.metadata.resourceVersion);
      }
      return out;
    };

    // 1. A cluster on SQLite; configmaps written in an order that is not their names'.
    const onSqlite = await startNanokube({ dataDir: dirA, args: ['--nodes', '0'] });
    let before: Record<string, number>;
    try {
      const k = kubectlFor(onSqlite);
      for (const n of names) {
        const r = await k.run(['create', 'configmap', n, '-n', 'default', `--from-literal=v=${n}`]);
        assert.equal(r.code, 0, r.stderr);
      }
      before = await rvs(k);
      // While the server has the database open, the copy is refused.
      const busy = await storage('migrate', '--from', dirA, '--to', 'etcd', ...etcdFlags);
      assert.equal(busy.code, 1);
      assert.match(busy.stderr, /is in use by another process/);
    } finally {
      await onSqlite.stop();
    }
    assert.ok(before['one']! < before['two']! && before['two']! < before['three']!);

    // 2. Into etcd.
    const into = await storage('migrate', '--from', dirA, '--to', 'etcd', ...etcdFlags);
    assert.equal(into.code, 0, into.stderr);
    assert.match(
      into.stdout,
      /^migrated \d+ keys \(\d+ leases\) from .* to etcd in [\d.]+s: resourceVersions renumbered in the same order/,
    );
    const again = await storage('migrate', '--from', dirA, '--to', 'etcd', ...etcdFlags);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /^Error: the target already holds keys: migrate only into an empty store$/m);

    // 3. Served from etcd with the same data dir's certificates: the same objects, in order.
    const onEtcd = await startNanokube({
      dataDir: dirA,
      args: ['--nodes', '0', '--storage', 'etcd', ...etcdFlags],
    });
    let inEtcd: Record<string, number>;
    try {
      const k = kubectlFor(onEtcd);
      inEtcd = await rvs(k);
      assert.deepEqual(Object.keys(inEtcd).sort(), [...names].sort());
      assert.ok(inEtcd['one']! < inEtcd['two']! && inEtcd['two']! < inEtcd['three']!);
      const r = await k.run(['create', 'configmap', 'four', '-n', 'default', '--from-literal=v=four']);
      assert.equal(r.code, 0, r.stderr);
      inEtcd = await rvs(k);
    } finally {
      await onEtcd.stop();
    }

    // 4. Out of etcd into a new data dir: every resourceVersion exactly.
    const dirB = join(base, 'b');
    const out = await storage('migrate', '--from', 'etcd', '--to', dirB, ...etcdFlags);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /: every resourceVersion kept$/m);
    const onB = await startNanokube({ dataDir: dirB, args: ['--nodes', '0'] });
    try {
      assert.deepEqual(await rvs(kubectlFor(onB)), inEtcd);
    } finally {
      await onB.stop();
    }
  });

  it('refuses etcd to etcd, a missing data dir and a half-given command', async () => {
    const both = await storage(
      'migrate',
      '--from',
      'etcd',
      '--to',
      'etcd',
      '--etcd-servers',
      etcd.endpoints[0]!,
    );
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--from and --to are both etcd/);
    const missing = await storage(
      'migrate',
      '--from',
      join(base, 'none'),
      '--to',
      'etcd',
      '--etcd-servers',
      etcd.endpoints[0]!,
    );
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--from .*none: no .*state\.db/);
    const half = await storage('migrate', '--from', join(base, 'none'));
    assert.equal(half.code, 2);
    assert.match(half.stderr, /storage migrate needs --from and --to/);
    const noServers = await storage('migrate', '--from', join(base, 'a'), '--to', 'etcd');
    assert.equal(noServers.code, 2);
    assert.match(noServers.stderr, /a migration from or to etcd needs --etcd-servers/);
  });
});
