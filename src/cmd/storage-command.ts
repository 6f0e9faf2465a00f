/**
 * `nanokube storage migrate --from DIR|etcd --to DIR|etcd`: a stopped cluster's whole store from
 * a data dir's SQLite database into etcd, or from etcd into a new data dir (see migrateKv for what
 * is kept). The etcd side takes `serve`'s etcd flags.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MigrationError, migrateKv } from '../storage/kv/migrate.js';
import { openSqliteKv } from '../storage/kv/sqlite/sqlite-kv.js';
import type { KvStore } from '../storage/kv/types.js';
import { etcdFlagNames, etcdFlagsOf } from './serve/etcd-flags.js';
import type { EtcdFlags } from './serve/etcd-flags.js';
import { openEtcdStorage } from './serve/etcd-storage.js';
import { FlagError } from './serve/flag-error.js';
import { parseCommandArgs } from './command-args.js';
import { createLogger } from '../util/log.js';
import type { Logger } from '../util/log.js';

export const storageUsage = `Usage: nanokube storage migrate --from DIR|etcd --to DIR|etcd [flags]

  Copies every object of a stopped cluster into another, empty store: a data dir's SQLite
  database into etcd, or etcd's keys into a new data dir (DIR/state.db). Into a data dir each
  object keeps its resourceVersion; etcd numbers writes itself, so into etcd the objects are
  written in resourceVersion order and that order is kept. Stop the servers on both sides first.
  A directory named etcd is written ./etcd.

Flags:
  --from DIR|etcd             where the objects are
  --to DIR|etcd               where they go (must hold no object yet)
  --etcd-servers URL,...      the etcd side's members, as for serve --storage etcd
  --etcd-prefix PREFIX        (default /registry)
  --etcd-cafile FILE, --etcd-certfile FILE, --etcd-keyfile FILE
`;

const log: Logger = createLogger({ verbosity: 0 });

async function open(where: string, etcd: EtcdFlags | undefined, role: 'from' | 'to'): Promise<KvStore> {
  if (where === 'etcd') {
    return openEtcdStorage(etcd, { log }).catch((err: unknown) => {
      if (err instanceof FlagError) throw err;
      throw new MigrationError(err instanceof Error ? err.message : String(err));
    });
  }
  const dir = resolve(where);
  const path = join(dir, 'state.db');
  if (role === 'from' && !existsSync(path)) throw new FlagError(`--from ${where}: no ${path}`);
  if (role === 'to') mkdirSync(dir, { recursive: true });
  return openSqliteKv({ path, compactionIntervalMs: 0 });
}

export async function storageCommand(args: readonly string[]): Promise<void> {
  const valued = new Set([
    'from',
    'to',
    ...[...etcdFlagNames].filter((n) => n !== 'etcd-compaction-interval'),
  ]);
  const parsed = parseCommandArgs(args, valued);
  if (parsed.help) {
    process.stdout.write(storageUsage);
    return;
  }
  const positional = parsed.positional;
  const from = parsed.values.get('from');
  const to = parsed.values.get('to');
  const etcd = new Map([...parsed.values].filter(([name]) => etcdFlagNames.has(name)));
  if (positional.length !== 1 || positional[0] !== 'migrate') {
    throw new FlagError(`expected "migrate"\n\n${storageUsage}`);
  }
  if (from === undefined || to === undefined) throw new FlagError('storage migrate needs --from and --to');
  if (from === 'etcd' && to === 'etcd')
    throw new FlagError("--from and --to are both etcd: use etcd's own tools");
  if (from !== 'etcd' && to !== 'etcd' && resolve(from) === resolve(to)) {
    throw new FlagError('--from and --to are the same data dir');
  }
  const withEtcd = from === 'etcd' || to === 'etcd';
  if (!withEtcd && etcd.size > 0) {
    throw new FlagError(`--${[...etcd.keys()][0] ?? ''} is only for a migration from or to etcd`);
  }
  if (withEtcd && !etcd.has('etcd-servers'))
    throw new FlagError('a migration from or to etcd needs --etcd-servers');
  // No compaction: this process only copies.
  const etcdFlags = withEtcd
    ? etcdFlagsOf(new Map([...etcd, ['etcd-compaction-interval', '0']]), 'etcd')
    : undefined;
  const source = await open(from, etcdFlags, 'from');
  let target: KvStore | undefined;
  try {
    if ((source.keyLayout?.() ?? 2) < 2) {
      throw new MigrationError(
        `${from} holds nanokube's first key layout: serve it once with this nanokube (which moves the keys) before migrating it`,
      );
    }
    target = await open(to, etcdFlags, 'to');
    const started = Date.now();
    const r = await migrateKv(source, target, {
      every: 5000,
      onProgress: (n, total) => {
        if (n < total) process.stderr.write(`  ${n}/${total} keys\n`);
      },
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    process.stdout.write(
      `migrated ${r.keys} keys (${r.leases} leases) from ${from} at revision ${r.fromRevision} to ${to} in ${seconds}s: ` +
        (r.revisionsKept
          ? 'every resourceVersion kept\n'
          : `resourceVersions renumbered in the same order (the target is at revision ${r.toRevision})\n`),
    );
  } finally {
    await target?.close();
    await source.close();
  }
}
