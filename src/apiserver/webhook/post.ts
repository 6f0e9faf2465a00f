/**
 * Calling a webhook the API server is configured with (a webhook clientConfig: `url`, or
 * `service` {namespace, name, path, port} reached through its Endpoints, and `caBundle`): one
 * HTTPS POST of JSON, the decoded JSON answer back. Used by CRD conversion webhooks; admission
 * webhooks use the same seam. Failures read like client-go's (`Post "<url>": <cause>`).
 */
import { request } from 'node:https';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';

export interface ServiceAddress {
  readonly host: string;
  readonly port: number;
}

export interface WebhookPostOptions {
  /** Where a Service's webhook answers (an address of its Endpoints for the port). */
  resolveService(namespace: string, name: string, port: number): Promise<ServiceAddress>;
  /** Default 30 s (upstream's webhook client timeout for conversion). */
  readonly timeoutMs?: number;
}

function str(o: JsonObject | undefined, k: string): string {
  const v = o?.[k];
  return typeof v === 'string' ? v : '';
}

interface Target {
  readonly url: URL;
  /** Shown in errors: the URL the client-go request would name. */
  readonly display: string;
  readonly servername: string;
}

async function targetOf(clientConfig: JsonObject, o: WebhookPostOptions, timeoutMs: number): Promise<Target> {
  const timeout = `timeout=${Math.round(timeoutMs / 1000)}s`;
  const url = str(clientConfig, 'url');
  if (url !== '') {
    const u = new URL(url);
    const display = `${url}${u.search === '' ? '?' : '&'}${timeout}`;
    return { url: u, display, servername: u.hostname };
  }
  const service = isJsonObject(clientConfig['service']) ? clientConfig['service'] : undefined;
  if (service === undefined) throw new Error('no url or service in the webhook clientConfig');
  const namespace = str(service, 'namespace');
  const name = str(service, 'name');
  const port = typeof service['port'] === 'number' ? service['port'] : 443;
  const path = str(service, 'path');
  const host = `${name}.${namespace}.svc`;
  const display = `https://${host}:${port}${path}?${timeout}`;
  const address = await o.resolveService(namespace, name, port).catch((err: unknown) => {
    throw new Error(`Post "${display}": ${err instanceof Error ? err.message : String(err)}`);
  });
  const target = new URL(
    `https://${address.host.includes(':') ? `[${address.host}]` : address.host}:${address.port}${path}`,
  );
  return { url: target, display, servername: host };
}

export function webhookPoster(
  o: WebhookPostOptions,
): (clientConfig: JsonObject, body: JsonObject) => Promise<unknown> {
  const timeoutMs = o.timeoutMs ?? 30_000;
  return async (clientConfig, body) => {
    const target = await targetOf(clientConfig, o, timeoutMs);
    const caBundle = str(clientConfig, 'caBundle');
    const ca = caBundle === '' ? undefined : Buffer.from(caBundle, 'base64').toString('utf8');
    const payload = JSON.stringify(body);
    return new Promise<unknown>((resolve, reject) => {
      const fail = (why: string): void => reject(new Error(`Post "${target.display}": ${why}`));
      const req = request(
        target.url,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, */*',
            'content-length': Buffer.byteLength(payload),
          },
          ...(ca !== undefined ? { ca } : {}),
          servername: target.servername,
          timeout: timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', (err) => fail(err.message));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const code = res.statusCode ?? 0;
            if (code < 200 || code > 299) {
              reject(
                new Error(
                  `the server responded with the status code ${code} but did not return more information`,
                ),
              );
              return;
            }
            try {
              resolve(JSON.parse(text) as unknown);
            } catch (err) {
              reject(new Error(`couldn't decode the webhook response: ${(err as Error).message}`));
            }
          });
        },
      );
      req.on('timeout', () => {
        req.destroy();
        fail('context deadline exceeded (Client.Timeout exceeded while awaiting headers)');
      });
      req.on('error', (err) => fail(err.message));
      req.end(payload);
    });
  };
}
