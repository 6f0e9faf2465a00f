/**
 * One PKI per process for the clusters `startCluster()` runs: a CA, a serving certificate for
 * 127.0.0.1/localhost, an admin client certificate and the service-account signing key, made once
 * (the first cluster pays a few milliseconds of key generation, later ones nothing) in a private
 * temporary directory that is removed when the process exits.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensurePki } from '../cmd/serve/pki.js';
import type { Pki } from '../cmd/serve/pki.js';
import { ensureServiceAccountKey } from '../cmd/serviceaccount-tokens.js';

export interface SharedPki {
  readonly dir: string;
  readonly pki: Pki;
}

let shared: Promise<SharedPki> | undefined;

/** The process's PKI, made on first use. */
export function sharedPki(): Promise<SharedPki> {
  shared ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nanokube-pki-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const pki = await ensurePki(dir, ['127.0.0.1']);
    // Made here, not by each cluster: clusters starting at once would race to write it.
    ensureServiceAccountKey(dir);
    return { dir, pki };
  })();
  return shared;
}
