/**
 * The HTTP/2 (with HTTP/1.1 fallback) TLS front door: request lifecycle, non-resource paths
 * (health, version, discovery, OpenAPI) and resource requests routed to the verb handlers.
 */
import { setMaxListeners } from 'node:events';
import { createSecureServer } from 'node:http2';
import type { Http2SecureServer, Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { ResourceInfo } from '../apis/resource.js';
import type { SchemaRegistry } from '../apis/schema/types.js';
import { apiErrors } from '../machinery/errors.js';
import type { FeatureGateReader } from '../registry/strategy.js';
import type { Logger } from '../util/log.js';
import type { JsonObject } from '../util/json.js';
import { DiscoveryHandler } from './discovery/handler.js';
import type { Endpoint } from './endpoint.js';
import { handleHealth } from './health.js';
import type { HealthChecks } from './health.js';
import { OpenApiHandler } from './openapi/handler.js';
import { parseRequestInfo } from './request-info.js';
import { decodedRequestPath } from './request-path.js';
import { writeError, writeObject } from './response.js';
import { routeResource } from './router.js';

export interface TlsMaterial {
  readonly key: string;
  readonly cert: string;
  /** CA bundle used to verify client certificates. */
  readonly ca: string;
}

export interface ApiServerOptions {
  readonly endpoints: readonly Endpoint[];
  /** The schema registry, built on first use (building it costs start-up time). */
  readonly schemas: () => SchemaRegistry;
  readonly features: FeatureGateReader;
  readonly version: JsonObject;
  readonly health: HealthChecks;
  readonly log: Logger;
}

export class ApiServer {
  readonly #o: ApiServerOptions;
  readonly #endpoints = new Map<string, Endpoint>();
  readonly #discovery: DiscoveryHandler;
  readonly #openapi: OpenApiHandler;
  readonly #shutdown = new AbortController();
  readonly #inflight = new Set<Promise<void>>();
  #server: Http2SecureServer | undefined;
  #address = '127.0.0.1:6443';

  constructor(o: ApiServerOptions) {
    this.#o = o;
    // Every in-flight resource request listens for shutdown: many concurrent watches are normal.
    setMaxListeners(0, this.#shutdown.signal);
    for (const e of o.endpoints)
      this.#endpoints.set(`${e.info.group}/${e.info.version}/${e.info.resource}`, e);
    const resources = (): ResourceInfo[] => o.endpoints.map((e) => e.info);
    this.#discovery = new DiscoveryHandler({ resources, serverAddress: () => this.#address });
    this.#openapi = new OpenApiHandler(() => ({
      registry: o.schemas(),
      resources: resources(),
      version: { gitVersion: typeof o.version['gitVersion'] === 'string' ? o.version['gitVersion'] : '' },
    }));
  }

  /** Handles one request (also usable without a socket, e.g. from tests). */
  readonly handle = (req: Http2ServerRequest, res: Http2ServerResponse): void => {
    const p = this.#serve(req, res).catch((err: unknown) => {
      this.#o.log.error(
        `request failed: ${req.method} ${req.url}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
      );
      writeError(res, err);
    });
    this.#inflight.add(p);
    void p.finally(() => this.#inflight.delete(p));
  };

  async #serve(req: Http2ServerRequest, res: Http2ServerResponse): Promise<void> {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      this.#o.log.v(4, `${req.method} ${req.url} ${res.statusCode} ${ms.toFixed(1)}ms`);
    });
    try {
      // Checked before URL parsing, which would resolve `..` segments into another path.
      const path = decodedRequestPath(req.url);
      const url = new URL(req.url, 'https://localhost');
      const parts = path.split('/').filter((x) => x.length > 0);
      if (await handleHealth(res, url, this.#o.health, this.#shutdown.signal.aborted)) return;
      if (url.pathname === '/version' || url.pathname === '/version/') {
        writeObject(res, 200, this.#o.version);
        return;
      }
      if (url.pathname.startsWith('/openapi/') || url.pathname === '/swagger-2.0.0.pb-v1') {
        if (await this.#openapi.handle(req, res, url)) return;
      }
      const info = parseRequestInfo(req.method, url, path);
      if (!info.isResourceRequest) {
        if (this.#discovery.handle(req, res, parts)) return;
        if (url.pathname === '/') {
          writeObject(res, 200, {
            paths: [
              '/api',
              '/api/v1',
              '/apis',
              '/healthz',
              '/livez',
              '/openapi/v2',
              '/openapi/v3',
              '/readyz',
              '/version',
            ],
          });
          return;
        }
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('404 page not found\n');
        return;
      }
      const endpoint = this.#endpoints.get(`${info.group}/${info.version}/${info.resource}`);
      if (endpoint === undefined) throw apiErrors.notFoundPath();
      const closed = new AbortController();
      const onClose = (): void => closed.abort();
      res.once('close', onClose);
      const onShutdown = (): void => closed.abort();
      this.#shutdown.signal.addEventListener('abort', onShutdown, { once: true });
      try {
        await routeResource({
          req,
          res,
          url,
          request: info,
          endpoint,
          schemas: this.#o.schemas(),
          features: this.#o.features,
          signal: closed.signal,
        });
      } finally {
        this.#shutdown.signal.removeEventListener('abort', onShutdown);
      }
    } catch (err) {
      writeError(res, err);
    }
  }

  async listen(o: { host: string; port: number; tls: TlsMaterial }): Promise<number> {
    const server = createSecureServer({
      key: o.tls.key,
      cert: o.tls.cert,
      ca: o.tls.ca,
      allowHTTP1: true,
      requestCert: true,
      rejectUnauthorized: false,
      settings: { maxConcurrentStreams: 250 },
    });
    server.on('request', this.handle);
    this.#server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(o.port, o.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const port = (server.address() as AddressInfo).port;
    this.#address = `${o.host}:${port}`;
    return port;
  }

  /** Stops accepting, ends watches, waits for in-flight requests (at most `graceMs`). */
  async close(graceMs = 5000): Promise<void> {
    this.#shutdown.abort();
    const server = this.#server;
    const closed =
      server === undefined ? Promise.resolve() : new Promise<void>((r) => server.close(() => r()));
    const drained = Promise.allSettled([...this.#inflight]);
    await Promise.race([drained, new Promise((r) => setTimeout(r, graceMs).unref())]);
    // Sessions still open (idle keep-alive) would hold close() forever.
    await Promise.race([closed, new Promise((r) => setTimeout(r, 100).unref())]);
  }
}
