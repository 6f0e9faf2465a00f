/**
 * From a validated EncryptionConfiguration to the transformer of each group resource and the KMS
 * health checks (upstream encryptionconfig.getTransformerOverridesAndKMSPluginHealthzCheckers).
 */
import type { Clock } from '../../../util/clock.js';
import { CbcTransformer, GcmTransformer } from '../encrypt/aes.js';
import { identityTransformer } from '../encrypt/identity.js';
import { EnvelopeTransformer } from '../encrypt/kmsv2/envelope.js';
import { GrpcKmsService } from '../encrypt/kmsv2/grpc-service.js';
import type { KmsService } from '../encrypt/kmsv2/grpc-service.js';
import { KmsV2Probe } from '../encrypt/kmsv2/probe.js';
import type { ProbeTimings } from '../encrypt/kmsv2/probe.js';
import { SecretboxTransformer } from '../encrypt/secretbox.js';
import type { PrefixTransformer, Transformer } from '../transformer.js';
import { PrefixTransformers } from '../transformer.js';
import type { AesConfiguration, EncryptionConfiguration, GroupResource, KmsConfiguration } from './types.js';
import { groupResourceText, parseGroupResource } from './types.js';
import { decodeStdBase64 } from './validate.js';

export class ConfigBuildError extends Error {
  override readonly name = 'ConfigBuildError';
}

export interface NamedHealthCheck {
  readonly name: string;
  check(): Promise<void>;
}

export interface BuildOptions {
  /** `--encryption-provider-config-automatic-reload`: one `kms-providers` check even without KMS. */
  readonly reload: boolean;
  /** Whether the KMSv2 feature gate is on (beta, default on, in v1.27). */
  readonly kmsV2Enabled: boolean;
  readonly clock: Clock;
  readonly timings: ProbeTimings;
  /** Ends the probes' polls and closes the plugin connections. */
  readonly signal: AbortSignal;
  readonly log: (message: string) => void;
  /** Connects to a plugin (tests may hand in their own); default gRPC over the unix socket. */
  readonly connect?: (config: KmsConfiguration) => KmsService;
}

export interface EncryptionProviders {
  /** The transformer of a group resource; undefined when none is configured (identity with the encryption check). */
  transformerFor(gr: GroupResource): Transformer | undefined;
  readonly healthChecks: readonly NamedHealthCheck[];
  /** The KMS v2 probes in configuration order (kms-provider-0, ...). */
  readonly probes: readonly KmsV2Probe[];
  /** Sum of the KMS providers' call timeouts (upstream's kmsTimeoutSum). */
  readonly kmsTimeoutSumMs: number;
}

const te = (s: string): Uint8Array => Buffer.from(s, 'utf8');

function keyPrefixTransformers(
  config: AesConfiguration,
  kind: 'aes' | 'secretbox',
  make: (key: Uint8Array) => Transformer,
  prefix: string,
): PrefixTransformer {
  if (config.keys.length === 0) throw new ConfigBuildError(`${kind} provider has no valid keys`);
  for (const k of config.keys) {
    if (k.name === '') throw new ConfigBuildError('key with invalid name provided');
    if (k.secret === '') throw new ConfigBuildError(`key ${k.name} has no provided secret`);
  }
  const keyed = config.keys.map((k): PrefixTransformer => {
    const secret = decodeStdBase64(k.secret);
    if (secret === undefined) {
      throw new ConfigBuildError(`could not obtain secret for named key ${k.name}: illegal base64 data`);
    }
    let transformer: Transformer;
    try {
      transformer = make(secret);
    } catch (err) {
      throw new ConfigBuildError(
        kind === 'aes'
          ? `error while creating cipher for named key ${k.name}: ${err instanceof Error ? err.message : String(err)}`
          : err instanceof Error
            ? err.message
            : String(err),
      );
    }
    return { prefix: te(`${k.name}:`), transformer };
  });
  const noMatch =
    kind === 'aes'
      ? 'no matching key was found for the provided AES transformer'
      : 'no matching key was found for the provided Secretbox transformer';
  return { prefix: te(prefix), transformer: new PrefixTransformers(noMatch, keyed) };
}

export function buildEncryptionProviders(
  config: EncryptionConfiguration,
  options: BuildOptions,
): EncryptionProviders {
  const byResource = new Map<string, PrefixTransformer[]>();
  const probes: KmsV2Probe[] = [];
  let kmsTimeoutSumMs = 0;
  const grKey = (gr: GroupResource): string => `${gr.group}/${gr.resource}`;
  for (const rc of config.resources) {
    const transformers: PrefixTransformer[] = [];
    for (const p of rc.providers) {
      if (p.aesgcm !== undefined) {
        transformers.push(
          keyPrefixTransformers(p.aesgcm, 'aes', (k) => new GcmTransformer(k), 'k8s:enc:aesgcm:v1:'),
        );
      } else if (p.aescbc !== undefined) {
        transformers.push(
          keyPrefixTransformers(p.aescbc, 'aes', (k) => new CbcTransformer(k), 'k8s:enc:aescbc:v1:'),
        );
      } else if (p.secretbox !== undefined) {
        transformers.push(
          keyPrefixTransformers(
            p.secretbox,
            'secretbox',
            (k) => new SecretboxTransformer(k),
            'k8s:enc:secretbox:v1:',
          ),
        );
      } else if (p.kms !== undefined) {
        const { transformer, probe } = kmsTransformer(p.kms, options);
        probes.push(probe);
        kmsTimeoutSumMs += p.kms.timeoutMs;
        transformers.push(transformer);
      } else if (p.identity !== undefined) {
        transformers.push({ prefix: new Uint8Array(0), transformer: identityTransformer });
      } else {
        throw new ConfigBuildError(
          'provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity',
        );
      }
    }
    for (const resource of rc.resources) {
      const gr = parseGroupResource(resource);
      const anyInGroup = { group: gr.group, resource: '*' };
      const anyAny = { group: '*', resource: '*' };
      for (const mask of [anyInGroup, anyAny]) {
        if (byResource.has(grKey(mask))) {
          throw new ConfigBuildError(
            `resource "${groupResourceText(gr)}" is masked by earlier rule "${groupResourceText(mask)}"`,
          );
        }
      }
      const list = byResource.get(grKey(gr)) ?? [];
      list.push(...transformers);
      byResource.set(grKey(gr), list);
    }
  }
  const transformers = new Map<string, Transformer>();
  for (const [k, list] of byResource)
    transformers.set(k, new PrefixTransformers('no matching prefix found', list));
  const healthChecks: NamedHealthCheck[] = [];
  if (options.reload || probes.length > 0) {
    healthChecks.push({
      name: 'kms-providers',
      async check() {
        const errs: string[] = [];
        for (const [i, probe] of probes.entries()) {
          try {
            await probe.check();
          } catch (err) {
            errs.push(`kms-provider-${i}: ${err instanceof Error ? err.message : String(err)}`);
          }
        }
        if (errs.length > 0) throw new Error(errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
      },
    });
  }
  return {
    transformerFor(gr) {
      return (
        transformers.get(grKey(gr)) ??
        transformers.get(grKey({ group: gr.group, resource: '*' })) ??
        transformers.get(grKey({ group: '*', resource: '*' }))
      );
    },
    healthChecks,
    probes,
    kmsTimeoutSumMs,
  };
}

function kmsTransformer(
  config: KmsConfiguration,
  options: BuildOptions,
): { transformer: PrefixTransformer; probe: KmsV2Probe } {
  if (config.apiVersion === 'v1') {
    // nanokube builds KMS v2 only; a v1 provider is refused rather than half-served.
    throw new ConfigBuildError(
      `could not configure KMSv1-Plugin's probe "${config.name}", error: KMS v1 providers are not supported by nanokube (use apiVersion: v2)`,
    );
  }
  if (config.apiVersion !== 'v2') {
    throw new ConfigBuildError(
      `could not configure KMS plugin "${config.name}", unsupported KMS API version "${config.apiVersion}"`,
    );
  }
  if (!options.kmsV2Enabled) {
    throw new ConfigBuildError(
      `could not configure KMSv2 plugin "${config.name}", KMSv2 feature is not enabled`,
    );
  }
  let service: KmsService;
  try {
    service = options.connect?.(config) ?? new GrpcKmsService(config.endpoint, config.timeoutMs);
  } catch (err) {
    throw new ConfigBuildError(
      `could not configure KMSv2-Plugin's probe "${config.name}", error: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  options.signal.addEventListener('abort', () => service.close(), { once: true });
  const probe = new KmsV2Probe({
    name: config.name,
    service,
    clock: options.clock,
    timings: options.timings,
  });
  const transformer = new EnvelopeTransformer({
    service,
    state: () => probe.currentState(),
    clock: options.clock,
  });
  return { transformer: { prefix: te(`k8s:enc:kms:v2:${config.name}:`), transformer }, probe };
}
