/**
 * kube-apiserver's etcd flags for `nanokube serve --storage etcd`: `--etcd-servers`,
 * `--etcd-prefix` (default /registry), `--etcd-cafile`, `--etcd-certfile`, `--etcd-keyfile` and
 * `--etcd-compaction-interval` (default 5m; 0 turns compaction off, as upstream).
 */
import { parseGoDuration } from '../../util/go-duration.js';
import { FlagError } from './flag-error.js';

export interface EtcdFlags {
  readonly servers: readonly string[];
  readonly prefix: string;
  readonly caFile?: string;
  readonly certFile?: string;
  readonly keyFile?: string;
  readonly compactionIntervalMs: number;
}

export const etcdFlagNames = new Set([
  'etcd-servers',
  'etcd-prefix',
  'etcd-cafile',
  'etcd-certfile',
  'etcd-keyfile',
  'etcd-compaction-interval',
]);

export const etcdUsage = `  --etcd-servers URL,...      etcd members (http:// or https://) for --storage etcd
  --etcd-prefix PREFIX        the prefix of every key in etcd (default /registry)
  --etcd-cafile FILE          CA of the members' serving certificates (https)
  --etcd-certfile FILE        client certificate for etcd, with --etcd-keyfile
  --etcd-keyfile FILE
  --etcd-compaction-interval D
                              how often one of the servers on the etcd compacts its history to
                              the revision of one interval before (default 5m; 0: never)
`;

/** The etcd flags given (name → value) as options; `storage` is the `--storage` value. */
export function etcdFlagsOf(values: ReadonlyMap<string, string>, storage: string): EtcdFlags | undefined {
  if (storage !== 'etcd') {
    const given = [...values.keys()];
    if (given.length > 0) throw new FlagError(`--${given[0]} is only for --storage etcd`);
    return undefined;
  }
  const servers = (values.get('etcd-servers') ?? '').split(',').filter((s) => s !== '');
  if (servers.length === 0) throw new FlagError('--storage etcd needs --etcd-servers');
  for (const s of servers) {
    let url: URL;
    try {
      url = new URL(s);
    } catch {
      throw new FlagError(`invalid argument "${s}" for "--etcd-servers" flag: not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new FlagError(
        `invalid argument "${s}" for "--etcd-servers" flag: the scheme must be http or https`,
      );
    }
  }
  const prefix = values.get('etcd-prefix') ?? '/registry';
  if (!prefix.startsWith('/')) {
    throw new FlagError(`invalid argument "${prefix}" for "--etcd-prefix" flag: must start with /`);
  }
  const interval = values.get('etcd-compaction-interval') ?? '5m';
  let compactionIntervalMs: number;
  try {
    compactionIntervalMs = interval === '0' ? 0 : parseGoDuration(interval);
  } catch (err) {
    throw new FlagError(
      `invalid argument "${interval}" for "--etcd-compaction-interval" flag: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const certFile = values.get('etcd-certfile');
  const keyFile = values.get('etcd-keyfile');
  if ((certFile === undefined) !== (keyFile === undefined)) {
    throw new FlagError('--etcd-certfile and --etcd-keyfile come together');
  }
  const caFile = values.get('etcd-cafile');
  return {
    servers,
    prefix: prefix.replace(/\/+$/, '') || '/',
    compactionIntervalMs,
    ...(caFile !== undefined ? { caFile } : {}),
    ...(certFile !== undefined ? { certFile } : {}),
    ...(keyFile !== undefined ? { keyFile } : {}),
  };
}
