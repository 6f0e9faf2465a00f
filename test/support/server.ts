/** Test support: an in-process nanokube server on a temporary data dir, and an HTTPS client for it. */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RestClient } from '../../src/client/rest-client.js';
import { startServer } from '../../src/cmd/serve/start.js';
import type { RunningServer, ServerOptions } from '../../src/cmd/serve/start.js';

export interface TestServer extends RunningServer {
  readonly dataDir: string;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  /** Closes the server and removes the data dir (unless `keep`). */
  stop(options?: { keep?: boolean }): Promise<void>;
}

export interface RequestOptions {
  readonly body?: unknown;
  /** Raw body text or bytes (sent as is). */
  readonly raw?: string | Uint8Array;
  readonly contentType?: string;
  readonly accept?: string;
  /** A list sends the header once per value, in order. */
  readonly headers?: Record<string, string | readonly string[]>;
  /** The client certificate to present: the admin's by default; 'none' sends none. */
  readonly credentials?: { readonly cert: string; readonly key: string } | 'none';
}

export interface TestResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  /** The body as received (protobuf answers). */
  readonly bytes: Buffer;
  json<T = Record<string, unknown>>(): T & Record<string, unknown>;
  /** Warning header texts without the `299 - ` framing. */
  readonly warnings: string[];
}

function parseWarnings(h: string | string[] | undefined): string[] {
  if (h === undefined) return [];
  const all = Array.isArray(h) ? h : [h];
  const out: string[] = [];
  for (const raw of all) {
    // Header values arrive one character per byte; the server sends UTF-8.
    const line = Buffer.from(raw, 'latin1').toString('utf8');
    for (const m of line.matchAll(/299 - ("(?:[^"\\]|\\.)*")/g)) out.push(JSON.parse(m[1]!) as string);
  }
  return out;
}

export async function startTestServer(
  options: Partial<ServerOptions> & { readonly dataDir?: string } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'nanokube-test-'));
  const server = await startServer({
    bindAddress: '127.0.0.1',
    securePort: 0,
    storage: 'sqlite',
    // As upstream's integration test server: without the controllers nothing makes the `default`
    // service accounts the ServiceAccount admission plugin requires, nor lifts the not-ready taint
    // TaintNodesByCondition gives new nodes, so both are off unless asked for.
    ...(options.controllers === false && options.admission === undefined
      ? { admission: { disable: ['ServiceAccount', 'TaintNodesByCondition'] } }
      : {}),
    // NANOKUBE_TEST_NET_THREAD=1 runs every test server with its network thread (a check of that
    // mode against the whole suite; the tests that are about it set it themselves).
    ...(process.env['NANOKUBE_TEST_NET_THREAD'] === '1' ? { netThread: true } : {}),
    ...options,
    dataDir,
  });
  const agentOptions = {
    ca: server.pki.caCert,
    cert: server.pki.adminCert,
    key: server.pki.adminKey,
  };
  return {
    ...server,
    close: () => server.close(),
    dataDir,
    request(method, path, o = {}) {
      return new Promise<TestResponse>((resolve, reject) => {
        const body = o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
        const headers: Record<string, string | string[]> = {
          accept: o.accept ?? 'application/json',
          ...Object.fromEntries(
            Object.entries(o.headers ?? {}).map(([k, v]) => [k, typeof v === 'string' ? v : [...v]]),
          ),
        };
        if (body !== undefined) {
          headers['content-type'] = o.contentType ?? 'application/json';
          headers['content-length'] = String(
            typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength,
          );
        }
        const req = request(
          {
            host: '127.0.0.1',
            port: server.port,
            method,
            path,
            headers,
            ...(o.credentials === 'none'
              ? { ca: server.pki.caCert, agent: false }
              : o.credentials !== undefined
                ? { ca: server.pki.caCert, ...o.credentials, agent: false }
                : agentOptions),
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              const bytes = Buffer.concat(chunks);
              const text = bytes.toString('utf8');
              resolve({
                status: res.statusCode ?? 0,
                headers: res.headers,
                text,
                bytes,
                json: <T>() => JSON.parse(text) as T,
                warnings: parseWarnings(res.headers['warning']),
              });
            });
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        if (body !== undefined) req.write(body);
        req.end();
      });
    },
    async stop(o = {}) {
      await server.close();
      if (o.keep !== true) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A RestClient for `server` with the admin client certificate (close it when done). */
export function adminClient(server: Pick<TestServer, 'port' | 'pki'>): RestClient {
  return new RestClient({
    server: `https://127.0.0.1:${server.port}`,
    ca: server.pki.caCert,
    cert: server.pki.adminCert,
    key: server.pki.adminKey,
  });
}
