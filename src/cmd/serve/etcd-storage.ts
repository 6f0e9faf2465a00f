/**
 * `--storage etcd`: the etcd KvStore for the server's flags, taking part in the shared compaction
 * (`--etcd-compaction-interval`) until it closes. The TLS files are read once, at the start.
 */
import { readFileSync } from 'node:fs';
import { EtcdClient } from '../../storage/kv/etcd/client.js';
import { EtcdKv } from '../../storage/kv/etcd/etcd-kv.js';
import type { KvStore } from '../../storage/kv/types.js';
import type { Logger } from '../../util/log.js';
import type { EtcdFlags } from './etcd-flags.js';
import { FlagError } from './flag-error.js';

function read(file: string | undefined, flag: string): string | undefined {
  if (file === undefined) return undefined;
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new FlagError(`--${flag} ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

export async function openEtcdStorage(
  flags: EtcdFlags | undefined,
  o: { readonly watchMaxQueuedEvents?: number; readonly log: Logger },
): Promise<KvStore> {
  if (flags === undefined) throw new FlagError('--storage etcd needs --etcd-servers');
  const ca = read(flags.caFile, 'etcd-cafile');
  const cert = read(flags.certFile, 'etcd-certfile');
  const key = read(flags.keyFile, 'etcd-keyfile');
  const client = await EtcdClient.open({
    endpoints: flags.servers,
    tls: {
      ...(ca !== undefined ? { ca } : {}),
      ...(cert !== undefined ? { cert } : {}),
      ...(key !== undefined ? { key } : {}),
    },
  });
  const kv = new EtcdKv({
    client,
    prefix: { local: '/registry', remote: flags.prefix },
    ...(o.watchMaxQueuedEvents !== undefined ? { watchMaxQueuedEvents: o.watchMaxQueuedEvents } : {}),
    compactionIntervalMs: flags.compactionIntervalMs,
    onCompacted: (rev) => o.log.v(2, `etcd: compacted to revision ${rev}`),
    onCompactionError: (err) =>
      o.log.error(`etcd compaction: ${err instanceof Error ? err.message : String(err)}`),
  });
  // Fail the start (not the first request) when no member answers.
  try {
    await kv.currentRevision();
  } catch (err) {
    await kv.close();
    throw new Error(`etcd ${flags.servers.join(',')}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return kv;
}
