/**
 * Composition root of `nanokube serve`: storage -> registry -> apiserver, plus PKI, kubeconfig and
 * the bootstrap namespaces. Also the library entry tests use to run an in-process server.
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { namespaceLifecycle } from '../../admission/namespace-lifecycle.js';
import { builtinSchemas } from '../../apis/schema/builtin.js';
import { ApiServer } from '../../apiserver/server.js';
import type { Endpoint } from '../../apiserver/endpoint.js';
import { StatusError } from '../../machinery/errors.js';
import { FeatureGates } from '../../machinery/features.js';
import { resourcePrefix } from '../../registry/generic/keys.js';
import { GenericStore } from '../../registry/generic/store.js';
import { ObjectCache } from '../../storage/object-cache.js';
import { KvObjectStore } from '../../storage/object-store.js';
import { createMemoryKv } from '../../storage/kv/memory/memory-kv.js';
import { openSqliteKv } from '../../storage/kv/sqlite/sqlite-kv.js';
import type { KvStore } from '../../storage/kv/types.js';
import type { Logger } from '../../util/log.js';
import { createLogger } from '../../util/log.js';
import { startControllers } from './controllers.js';
import { writeKubeconfig } from './kubeconfig.js';
import { ensurePki } from './pki.js';
import type { Pki } from './pki.js';
import { servedResources } from './resources.js';
import { versionInfo } from './version.js';

export interface ServerOptions {
  readonly dataDir: string;
  readonly storage: 'sqlite' | 'memory';
  readonly bindAddress: string;
  /** 0 picks a free port. */
  readonly securePort: number;
  /** Default: `<dataDir>/kubeconfig`. */
  readonly kubeconfigPath?: string;
  readonly featureGates?: Readonly<Record<string, boolean>>;
  readonly verbosity?: number;
  readonly log?: Logger;
  /** SQLite `synchronous` (default FULL). */
  readonly synchronous?: 'FULL' | 'NORMAL' | 'OFF';
  /** Run the built-in controllers in-process (default true); tests of raw API semantics turn them off. */
  readonly controllers?: boolean;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly kubeconfigPath: string;
  readonly pki: Pki;
  /** Drains requests, ends watches and closes the store. */
  close(): Promise<void>;
}

const bootstrapNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export async function startServer(o: ServerOptions): Promise<RunningServer> {
  const log = o.log ?? createLogger({ verbosity: o.verbosity ?? 0 });
  const dataDir = resolve(o.dataDir);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const features = new FeatureGates(o.featureGates ?? {});
  const pkiPromise = ensurePki(join(dataDir, 'pki'), [o.bindAddress]);
  const kv: KvStore =
    o.storage === 'memory'
      ? createMemoryKv()
      : await openSqliteKv({
          path: join(dataDir, 'state.db'),
          ...(o.synchronous !== undefined ? { synchronous: o.synchronous } : {}),
          onError: (err) => log.error(`storage: ${err instanceof Error ? err.message : String(err)}`),
        });
  const storage = new KvObjectStore(kv);
  const stores = new Map<string, GenericStore>();
  const namespaces = (): GenericStore => stores.get('namespaces')!;
  // NamespaceLifecycle reads namespaces on every create: serve it from a watched mirror.
  const background = new AbortController();
  const namespacePrefix = resourcePrefix({ group: '', resource: 'namespaces' });
  const namespaceCache = new ObjectCache(storage, namespacePrefix);
  const cacheRun = namespaceCache.run(background.signal);
  const admission = namespaceLifecycle((name) => namespaceCache.get(namespacePrefix + name));
  const endpoints: Endpoint[] = [];
  for (const resource of servedResources()) {
    const store = new GenericStore({ resource, storage, features, admission });
    if (resource.info.group === '') stores.set(resource.info.resource, store);
    endpoints.push({ info: resource.info, store });
  }
  await ensureNamespaces(namespaces());

  const server = new ApiServer({
    endpoints,
    schemas: builtinSchemas,
    features,
    version: versionInfo(),
    health: {
      livez: [],
      readyz: [
        {
          name: 'etcd',
          check: async () => {
            await kv.currentRevision();
          },
        },
      ],
    },
    log,
  });
  const pki = await pkiPromise;
  const port = await server.listen({
    host: o.bindAddress,
    port: o.securePort,
    tls: { key: pki.servingKey, cert: pki.servingCert, ca: pki.caCert },
  });
  const host = o.bindAddress === '0.0.0.0' || o.bindAddress === '::' ? '127.0.0.1' : o.bindAddress;
  const url = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const kubeconfigPath = resolve(o.kubeconfigPath ?? join(dataDir, 'kubeconfig'));
  await writeKubeconfig(kubeconfigPath, url, pki);
  const controllers =
    o.controllers === false
      ? { stop: () => Promise.resolve() }
      : startControllers({ server: url, ca: pki.caCert, cert: pki.adminCert, key: pki.adminKey }, log);
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    kubeconfigPath,
    pki,
    close() {
      closing ??= (async () => {
        await controllers.stop();
        await server.close();
        background.abort();
        await cacheRun;
        await kv.close();
      })();
      return closing;
    },
  };
}

/** Creates the system namespaces that are missing (one read on a restart, no writes). */
async function ensureNamespaces(store: GenericStore): Promise<void> {
  const existing = new Set((await store.list('', {})).items.map((ns) => ns.metadata.name));
  await Promise.all(
    bootstrapNamespaces
      .filter((name) => !existing.has(name))
      .map(async (name) => {
        try {
          await store.create(
            '',
            { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
            { dryRun: false },
          );
        } catch (err) {
          if (!(err instanceof StatusError && err.code === 409)) throw err;
        }
      }),
  );
}
