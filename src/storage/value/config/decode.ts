/**
 * Decoding an encryption provider configuration file (YAML or JSON) into EncryptionConfiguration,
 * with upstream's defaults (kms apiVersion v1, timeout 3s, v1 cachesize 1000). Unknown fields are
 * ignored, as upstream's non-strict decoder does.
 */
import { parse as parseYaml } from 'yaml';
import { parseGoDuration } from '../../../util/go-duration.js';
import type {
  AesConfiguration,
  EncryptionConfiguration,
  EncryptionKey,
  KmsConfiguration,
  ProviderConfiguration,
  ResourceConfiguration,
} from './types.js';

export const encryptionConfigGroupVersion = 'apiserver.config.k8s.io/v1';

export class ConfigDecodeError extends Error {
  override readonly name = 'ConfigDecodeError';
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function fail(path: string, want: string, got: unknown): never {
  const kind = got === null ? 'null' : Array.isArray(got) ? 'array' : typeof got;
  throw new ConfigDecodeError(`json: cannot unmarshal ${kind} into Go struct field ${path} of type ${want}`);
}

function str(v: unknown, path: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') fail(path, 'string', v);
  return v;
}

function list(v: unknown, path: string): readonly unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) fail(path, 'array', v);
  return v;
}

function keys(v: unknown, path: string): AesConfiguration {
  if (!isRecord(v)) fail(path, 'object', v);
  const out: EncryptionKey[] = list(v['keys'], `${path}.keys`).map((k) => {
    if (!isRecord(k)) fail(`${path}.keys`, 'config.Key', k);
    return { name: str(k['name'], 'Key.name'), secret: str(k['secret'], 'Key.secret') };
  });
  return { keys: out };
}

const defaultTimeoutMs = 3000;
const defaultCacheSize = 1000;

function kms(v: unknown): KmsConfiguration {
  if (!isRecord(v)) fail('ProviderConfiguration.kms', 'config.KMSConfiguration', v);
  const apiVersion = str(v['apiVersion'], 'KMSConfiguration.apiVersion') || 'v1';
  let timeoutMs = defaultTimeoutMs;
  if (v['timeout'] !== undefined && v['timeout'] !== null) {
    const text = str(v['timeout'], 'KMSConfiguration.timeout');
    try {
      timeoutMs = parseGoDuration(text);
    } catch (err) {
      throw new ConfigDecodeError(err instanceof Error ? err.message : String(err));
    }
  }
  let cachesize: number | undefined;
  const raw = v['cachesize'];
  if (raw !== undefined && raw !== null) {
    if (typeof raw !== 'number' || !Number.isInteger(raw)) fail('KMSConfiguration.cachesize', 'int32', raw);
    cachesize = raw;
  } else if (apiVersion === 'v1') cachesize = defaultCacheSize;
  return {
    apiVersion,
    name: str(v['name'], 'KMSConfiguration.name'),
    endpoint: str(v['endpoint'], 'KMSConfiguration.endpoint'),
    timeoutMs,
    timeoutNanos: BigInt(Math.round(timeoutMs * 1e6)),
    ...(cachesize !== undefined ? { cachesize } : {}),
  };
}

function provider(v: unknown): ProviderConfiguration {
  if (!isRecord(v)) fail('ResourceConfiguration.providers', 'config.ProviderConfiguration', v);
  const p: { -readonly [K in keyof ProviderConfiguration]: ProviderConfiguration[K] } = {};
  if (v['aesgcm'] != null) p.aesgcm = keys(v['aesgcm'], 'ProviderConfiguration.aesgcm');
  if (v['aescbc'] != null) p.aescbc = keys(v['aescbc'], 'ProviderConfiguration.aescbc');
  if (v['secretbox'] != null) p.secretbox = keys(v['secretbox'], 'ProviderConfiguration.secretbox');
  if (v['identity'] != null) {
    if (!isRecord(v['identity']))
      fail('ProviderConfiguration.identity', 'config.IdentityConfiguration', v['identity']);
    p.identity = {};
  }
  if (v['kms'] != null) p.kms = kms(v['kms']);
  return p;
}

/** Parses the file's text; throws ConfigDecodeError with what is wrong. */
export function decodeEncryptionConfiguration(text: string): EncryptionConfiguration {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new ConfigDecodeError(err instanceof Error ? err.message : String(err));
  }
  if (!isRecord(doc))
    throw new ConfigDecodeError("couldn't get version/kind; json parse error: not an object");
  const kind = doc['kind'];
  const apiVersion = doc['apiVersion'];
  if (typeof kind !== 'string' || kind === '') {
    throw new ConfigDecodeError(`Object 'Kind' is missing in '${JSON.stringify(doc)}'`);
  }
  if (apiVersion !== encryptionConfigGroupVersion || kind !== 'EncryptionConfiguration') {
    throw new ConfigDecodeError(
      `no kind "${kind}" is registered for version "${typeof apiVersion === 'string' ? apiVersion : ''}" in scheme "pkg/runtime/scheme.go:100"`,
    );
  }
  const resources: ResourceConfiguration[] = list(doc['resources'], 'EncryptionConfiguration.resources').map(
    (r) => {
      if (!isRecord(r)) fail('EncryptionConfiguration.resources', 'config.ResourceConfiguration', r);
      return {
        resources: list(r['resources'], 'ResourceConfiguration.resources').map((s) =>
          str(s, 'ResourceConfiguration.resources'),
        ),
        providers: list(r['providers'], 'ResourceConfiguration.providers').map(provider),
      };
    },
  );
  return { resources };
}
