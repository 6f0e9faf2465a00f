/**
 * Wiring of encryption at rest (`--encryption-provider-config`, AM-10 for KMS v2): loads the
 * configuration, wraps the key-value store so configured resources' values are transformed, and
 * hands back the KMS health checks (`kms-providers`) for /healthz, /livez and /readyz.
 */
import type { HealthCheck } from '../../apiserver/health.js';
import type { FeatureGates } from '../../machinery/features.js';
import type { KvStore } from '../../storage/kv/types.js';
import type { GroupResource } from '../../storage/value/config/types.js';
import type { EncryptionProviders } from '../../storage/value/config/build.js';
import { DynamicEncryptionProviders } from '../../storage/value/config/dynamic.js';
import { loadEncryptionConfig } from '../../storage/value/config/load.js';
import { upstreamProbeTimings } from '../../storage/value/encrypt/kmsv2/probe.js';
import type { ProbeTimings } from '../../storage/value/encrypt/kmsv2/probe.js';
import { TransformingKvStore } from '../../storage/value/transforming-kv.js';
import type { Transformer } from '../../storage/value/transformer.js';
import type { Clock } from '../../util/clock.js';
import { realClock } from '../../util/clock.js';
import { servedResources } from './resources.js';
import { etcdResourcePath } from '../../registry/generic/keys.js';

export interface EncryptionOptions {
  /** `--encryption-provider-config`. */
  readonly configPath: string;
  /** `--encryption-provider-config-automatic-reload`. */
  readonly automaticReload?: boolean;
  /** KMS v2 probe TTLs and poll intervals (default upstream's; tests shorten them). */
  readonly kmsProbeTimings?: Partial<ProbeTimings>;
  readonly clock?: Clock;
}

export interface EncryptionAtRest {
  wrap(kv: KvStore): KvStore;
  readonly healthChecks: readonly HealthCheck[];
}

/**
 * The group resource a storage key belongs to, by the resources' paths under /registry/
 * (`deployments` → apps/deployments, `services/specs` → services; see registry/generic/keys.ts).
 * A path not served is a custom resource's `<group>/<resource>` when its first segment has a dot
 * (every CRD group does), else a core resource of that name.
 */
export function keyResource(
  key: string,
  byPath: ReadonlyMap<string, GroupResource>,
): GroupResource | undefined {
  if (!key.startsWith('/registry/')) return undefined;
  const parts = key.slice('/registry/'.length).split('/');
  const first = parts[0] ?? '';
  if (first === '') return undefined;
  const second = parts[1];
  if (second !== undefined) {
    const two = byPath.get(`${first}/${second}`);
    if (two !== undefined) return two;
  }
  const one = byPath.get(first);
  if (one !== undefined) return one;
  if (first.includes('.'))
    return second === undefined || second === '' ? undefined : { group: first, resource: second };
  return { group: '', resource: first };
}

/**
 * Without a configuration every value is still checked on its way up: bytes carrying an
 * encryption prefix are refused (upstream's identity transformer), never decoded as garbage.
 */
export async function encryptionAtRest(options: {
  readonly encryption: EncryptionOptions | undefined;
  readonly features: FeatureGates;
  readonly signal: AbortSignal;
  readonly log: (message: string) => void;
}): Promise<EncryptionAtRest> {
  const { encryption } = options;
  if (encryption === undefined) {
    return {
      wrap: (kv) => new TransformingKvStore({ inner: kv, transformerFor: () => undefined }),
      healthChecks: [],
    };
  }
  const build = {
    kmsV2Enabled: options.features.enabled('KMSv2'),
    clock: encryption.clock ?? realClock,
    timings: { ...upstreamProbeTimings, ...encryption.kmsProbeTimings },
    log: options.log,
  };
  // Resolved once per resource (keys of one resource share a transformer), again after a reload.
  const byResource = new Map<string, Transformer | undefined>();
  let providers: Pick<EncryptionProviders, 'transformerFor' | 'healthChecks'>;
  if (encryption.automaticReload === true) {
    const dynamic = await DynamicEncryptionProviders.start({
      path: encryption.configPath,
      build,
      signal: options.signal,
      log: options.log,
      onChange: () => byResource.clear(),
    });
    providers = { transformerFor: (gr) => dynamic.transformerFor(gr), healthChecks: [dynamic.healthCheck] };
  } else {
    const loaded = await loadEncryptionConfig(encryption.configPath, {
      ...build,
      reload: false,
      signal: options.signal,
    });
    providers = loaded.providers;
  }
  const byPath = new Map<string, GroupResource>(
    servedResources().map((r) => [
      etcdResourcePath(r.info),
      { group: r.info.group, resource: r.info.resource },
    ]),
  );
  const transformerFor = (key: string): Transformer | undefined => {
    const gr = keyResource(key, byPath);
    if (gr === undefined) return undefined;
    const k = `${gr.group}/${gr.resource}`;
    if (byResource.has(k)) return byResource.get(k);
    const t = providers.transformerFor(gr);
    byResource.set(k, t);
    return t;
  };
  return {
    wrap: (kv) => new TransformingKvStore({ inner: kv, transformerFor }),
    healthChecks: providers.healthChecks,
  };
}
