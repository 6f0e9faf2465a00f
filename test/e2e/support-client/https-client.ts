/** Test support: a keep-alive HTTPS client that authenticates with a kubeconfig's admin client certificate. */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { parse } from 'yaml';

export interface Credentials {
  readonly server: string;
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
}

export interface ClientResponse {
  readonly status: number;
  readonly text: string;
  json<T = Record<string, unknown>>(): T;
}

export interface HttpsClient {
  readonly credentials: Credentials;
  send(method: string, path: string, body?: unknown): Promise<ClientResponse>;
  close(): void;
}

function record(v: unknown, what: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new Error(`kubeconfig: ${what} is not a map`);
  return v as Record<string, unknown>;
}

function firstEntry(list: unknown, key: string): Record<string, unknown> {
  if (!Array.isArray(list) || list.length === 0) throw new Error(`kubeconfig: no ${key}s`);
  return record(record(list[0], key)[key], key);
}

function decode(v: unknown, what: string): string {
  if (typeof v !== 'string') throw new Error(`kubeconfig: ${what} missing`);
  return Buffer.from(v, 'base64').toString('utf8');
}

/** Server URL and inline credentials of the kubeconfig's first cluster and user. */
export function readCredentials(kubeconfigPath: string): Credentials {
  const kc = record(parse(readFileSync(kubeconfigPath, 'utf8')), 'kubeconfig');
  const cluster = firstEntry(kc['clusters'], 'cluster');
  const user = firstEntry(kc['users'], 'user');
  const server = cluster['server'];
  if (typeof server !== 'string') throw new Error('kubeconfig: cluster server missing');
  return {
    server,
    ca: decode(cluster['certificate-authority-data'], 'certificate-authority-data'),
    cert: decode(user['client-certificate-data'], 'client-certificate-data'),
    key: decode(user['client-key-data'], 'client-key-data'),
  };
}

export function httpsClient(
  credentials: Credentials,
  o: { maxSockets?: number; timeoutMs?: number } = {},
): HttpsClient {
  const agent = new Agent({
    keepAlive: true,
    maxSockets: o.maxSockets ?? 16,
    ca: credentials.ca,
    cert: credentials.cert,
    key: credentials.key,
  });
  const url = new URL(credentials.server);
  const timeoutMs = o.timeoutMs ?? 10_000;
  return {
    credentials,
    send(method, path, body) {
      return new Promise<ClientResponse>((resolve, reject) => {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        const headers: Record<string, string> = { accept: 'application/json' };
        if (payload !== undefined) {
          headers['content-type'] = 'application/json';
          headers['content-length'] = String(Buffer.byteLength(payload));
        }
        const req = request({ host: url.hostname, port: url.port, method, path, headers, agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: res.statusCode ?? 0, text, json: <T>() => JSON.parse(text) as T });
          });
          res.on('error', reject);
        });
        req.setTimeout(timeoutMs, () =>
          req.destroy(new Error(`${method} ${path}: no answer within ${timeoutMs} ms`)),
        );
        req.on('error', reject);
        if (payload !== undefined) req.write(payload);
        req.end();
      });
    },
    close: () => agent.destroy(),
  };
}
