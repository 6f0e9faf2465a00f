/**
 * apiserver.config.k8s.io/v1 EncryptionConfiguration (upstream k8s.io/apiserver pkg/apis/config),
 * after decoding and defaulting.
 */

export interface EncryptionKey {
  readonly name: string;
  /** Base64 of the key bytes. */
  readonly secret: string;
}

export interface AesConfiguration {
  readonly keys: readonly EncryptionKey[];
}

export interface KmsConfiguration {
  /** "v1" or "v2" (default "v1", as upstream). */
  readonly apiVersion: string;
  readonly name: string;
  /** Only for v1 (default 1000 there); absent for v2. */
  readonly cachesize?: number;
  readonly endpoint: string;
  /** Per-call timeout in milliseconds (default 3 s). */
  readonly timeoutMs: number;
  /** The timeout as written, for messages. */
  readonly timeoutNanos: bigint;
}

export interface ProviderConfiguration {
  readonly aesgcm?: AesConfiguration;
  readonly aescbc?: AesConfiguration;
  readonly secretbox?: AesConfiguration;
  readonly identity?: Record<string, never>;
  readonly kms?: KmsConfiguration;
}

export interface ResourceConfiguration {
  readonly resources: readonly string[];
  readonly providers: readonly ProviderConfiguration[];
}

export interface EncryptionConfiguration {
  readonly resources: readonly ResourceConfiguration[];
}

/** A group and resource as upstream's schema.ParseGroupResource reads "resource.group". */
export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

export function parseGroupResource(text: string): GroupResource {
  const dot = text.indexOf('.');
  if (dot < 0) return { group: '', resource: text };
  return { group: text.slice(dot + 1), resource: text.slice(0, dot) };
}

/** Upstream grYAMLString: how a group resource is named in messages. */
export function groupResourceText(gr: GroupResource): string {
  if (gr.group === '' && gr.resource === '*') return '*.';
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}
