/**
 * `--encryption-provider-config`: reads, decodes, validates and builds the encryption providers
 * with upstream's error texts (LoadEncryptionConfig), then primes every KMS v2 plugin's DEK with one
 * inline health check (its failure is only logged: the plugin may start after the server) and
 * starts their polls.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { buildEncryptionProviders } from './build.js';
import type { BuildOptions, EncryptionProviders } from './build.js';
import { decodeEncryptionConfiguration } from './decode.js';
import { aggregateMessage, validateEncryptionConfiguration } from './validate.js';

export class EncryptionConfigError extends Error {
  override readonly name = 'EncryptionConfigError';
}

function text(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export interface LoadedEncryptionConfig {
  readonly providers: EncryptionProviders;
  /** SHA-256 of the file's bytes: a reload acts only on a change (upstream's content hash). */
  readonly contentHash: string;
}

export async function loadEncryptionConfig(
  path: string,
  options: BuildOptions,
): Promise<LoadedEncryptionConfig> {
  let data: Buffer;
  try {
    data = await readFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such file or directory' : code === 'EACCES' ? 'permission denied' : text(err);
    throw new EncryptionConfigError(
      `error while parsing file: error opening encryption provider configuration file "${path}": open ${path}: ${why}`,
    );
  }
  if (data.byteLength === 0) {
    throw new EncryptionConfigError(
      `error while parsing file: encryption provider configuration file "${path}" is empty`,
    );
  }
  let config;
  try {
    config = decodeEncryptionConfiguration(data.toString('utf8'));
  } catch (err) {
    throw new EncryptionConfigError(
      `error while parsing file: error decoding encryption provider configuration file "${path}": ${text(err)}`,
    );
  }
  const errs = validateEncryptionConfiguration(config, options.reload);
  if (errs.length > 0) throw new EncryptionConfigError(`error while parsing file: ${aggregateMessage(errs)}`);
  let providers: EncryptionProviders;
  try {
    providers = buildEncryptionProviders(config, options);
  } catch (err) {
    throw new EncryptionConfigError(`error while building transformers: ${text(err)}`);
  }
  for (const probe of providers.probes) {
    await probe
      .check()
      .catch((err: unknown) =>
        options.log(`kms plugin failed health check probe ${probe.name}: ${text(err)}`),
      );
    void probe.poll(options.signal, (err) =>
      options.log(`kms plugin failed health check probe ${probe.name}: ${err.message}`),
    );
  }
  return { providers, contentHash: createHash('sha256').update(data).digest('hex') };
}
