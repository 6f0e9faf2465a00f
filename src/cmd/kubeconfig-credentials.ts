/**
 * Reading a kubeconfig into client credentials (what `nanokube controller-manager` and `nanokube
 * nodes` connect with): the current (or named) context's cluster server and CA, and its user's
 * client certificate/key or bearer token, each inline (`*-data`) or from a file relative to the
 * kubeconfig. Only what can be verified is accepted: a cluster without a CA, or with
 * `insecure-skip-tls-verify`, is refused.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { parse } from 'yaml';
import type { ClientCredentials } from '../client/credentials.js';
import { isJsonObject } from '../util/json.js';
import type { JsonObject } from '../util/json.js';

export class KubeconfigError extends Error {
  override readonly name = 'KubeconfigError';
}

function named(list: unknown, name: string, what: string, file: string): JsonObject {
  const entries: readonly unknown[] = Array.isArray(list) ? (list as unknown[]) : [];
  const entry = entries.find((e) => isJsonObject(e) && e['name'] === name);
  const body = isJsonObject(entry) ? entry[what] : undefined;
  if (!isJsonObject(body)) throw new KubeconfigError(`${file}: no ${what} named "${name}"`);
  return body;
}

export function credentialsFromKubeconfig(file: string, context?: string): ClientCredentials {
  let doc: unknown;
  try {
    doc = parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new KubeconfigError(`${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!isJsonObject(doc)) throw new KubeconfigError(`${file}: not a kubeconfig`);
  const ctxName = context ?? (typeof doc['current-context'] === 'string' ? doc['current-context'] : '');
  if (ctxName === '') throw new KubeconfigError(`${file}: no current-context`);
  const ctx = named(doc['contexts'], ctxName, 'context', file);
  const clusterName = typeof ctx['cluster'] === 'string' ? ctx['cluster'] : '';
  const userName = typeof ctx['user'] === 'string' ? ctx['user'] : '';
  const cluster = named(doc['clusters'], clusterName, 'cluster', file);
  const user = named(doc['users'], userName, 'user', file);
  const base = dirname(file);
  const read = (o: JsonObject, dataKey: string, fileKey: string): string | undefined => {
    const data = o[dataKey];
    if (typeof data === 'string' && data !== '') return Buffer.from(data, 'base64').toString('utf8');
    const path = o[fileKey];
    if (typeof path === 'string' && path !== '') {
      return readFileSync(isAbsolute(path) ? path : join(base, path), 'utf8');
    }
    return undefined;
  };
  const server = cluster['server'];
  if (typeof server !== 'string' || !server.startsWith('https://')) {
    throw new KubeconfigError(`${file}: cluster "${clusterName}" needs an https:// server`);
  }
  if (cluster['insecure-skip-tls-verify'] === true) {
    throw new KubeconfigError(`${file}: insecure-skip-tls-verify is not supported; give the cluster's CA`);
  }
  const ca = read(cluster, 'certificate-authority-data', 'certificate-authority');
  if (ca === undefined) throw new KubeconfigError(`${file}: cluster "${clusterName}" has no CA`);
  const cert = read(user, 'client-certificate-data', 'client-certificate');
  const key = read(user, 'client-key-data', 'client-key');
  let token = typeof user['token'] === 'string' ? user['token'] : undefined;
  if (token === undefined && typeof user['tokenFile'] === 'string') {
    token = readFileSync(
      isAbsolute(user['tokenFile']) ? user['tokenFile'] : join(base, user['tokenFile']),
      'utf8',
    ).trim();
  }
  if ((cert === undefined) !== (key === undefined)) {
    throw new KubeconfigError(`${file}: user "${userName}" has a client certificate without its key`);
  }
  return {
    server,
    ca,
    ...(cert !== undefined && key !== undefined ? { cert, key } : {}),
    ...(token !== undefined ? { token } : {}),
  };
}
