/**
 * The HTTP/2 (with HTTP/1.1 fallback) TLS front door. Every request, health and discovery
 * included, runs through the request chain in upstream's order:
 *
 *   request info → audit ID → deadline → CORS → authentication (failed ones audited) → audit
 *   → impersonation → priority and fairness (or max-in-flight when it is off) → authorization
 *   → handler
 *
 * The handler answers non-resource paths (health, version, discovery, OpenAPI, metrics) and
 * routes resource requests to the verb handlers; resource and health requests are instrumented
 * (metrics/instrument.ts) as upstream's handlers are. Served resources may be added and removed
 * while serving; discovery and OpenAPI follow.
 */
import { setMaxListeners } from 'node:events';
import type { Http2SecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { ResourceInfo } from '../apis/resource.js';
import type { SchemaRegistry } from '../apis/schema/types.js';
import type { Authenticator } from '../auth/authenticator.js';
import type { Authorizer } from '../auth/authorizer.js';
import { apiErrors } from '../machinery/errors.js';
import { publishesDeletedObject } from '../registry/resource.js';
import type { FeatureGateReader } from '../registry/strategy.js';
import type { Logger } from '../util/log.js';
import type { UserInfo } from '../machinery/user.js';
import type { JsonObject } from '../util/json.js';
import type { ServerRequest } from './body.js';
import type { Filter, RequestContext } from './context.js';
import { InProcessServerRequest, InProcessServerResponse } from './in-process.js';
import type { InProcessCall, InProcessRequestInit, InProcessResponse } from './in-process.js';
import { buildChain, userOf } from './context.js';
import { DiscoveryHandler } from './discovery/handler.js';
import type { Endpoint } from './endpoint.js';
import { endpointKey } from './endpoint.js';
import { withAudit, withFailedAuthenticationAudit } from './filters/audit.js';
import type { AuditConfig } from './filters/audit.js';
import { withCORS } from './filters/cors.js';
import { withAuditInit } from './filters/audit-init.js';
import { withAuthentication } from './filters/authentication.js';
import { withAuthorization } from './filters/authorization.js';
import { ChainResponseError } from './filters/chain-response.js';
import { withRequestDeadline } from './filters/deadline.js';
import { withImpersonation } from './filters/impersonation.js';
import { withMaxInFlight } from './filters/max-in-flight.js';
import type { FaultInjector } from './faults/fault-injector.js';
import { withFaults } from './faults/with-faults.js';
import { withPriorityAndFairness } from './filters/priority-and-fairness.js';
import type { FlowController } from './flowcontrol/controller.js';
import { handleFlowcontrolDebug } from './flowcontrol/debug-handler.js';
import type { InFlightLimits } from './filters/max-in-flight.js';
import { handleHealth } from './health.js';
import { UpgradeResponse } from './upgrade-response.js';
import { createFrontDoor } from './front-door.js';
import { NetThread } from './net-thread/net-thread.js';
import type { ServingOptions } from './serving-options.js';
import type { HealthChecks } from './health.js';
import { handleMetrics, initMetrics, metricsPath } from './metrics/handler.js';
import { InflightWatermark } from './metrics/inflight.js';
import { instrument, servesSubresource } from './metrics/instrument.js';
import { StorageObjectCounter } from './metrics/storage-objects.js';
import { observeWatch } from './metrics/watch.js';
import { registerWatchCaches } from './metrics/watch-cache.js';
import { OpenApiHandler } from './openapi/handler.js';
import { groupResourceKey } from './openapi/operations.js';
import { isLongRunning, parseRequestInfo } from './request-info.js';
import { decodedRequestPath } from './request-path.js';
import { writeError, writeRawJSON } from './response.js';
import type { ServerResponseLike } from './response.js';
import { routeResource } from './router.js';
import { handleVirtual } from './handlers/virtual.js';
import type { VirtualEndpoint } from './virtual-endpoint.js';
import { acceptsGzip, allowGzip } from './response-compression.js';
import { WatchEncoder } from './watch-encoder.js';
import type { WatchSupport } from './watch-encoder.js';

export interface TlsMaterial {
  readonly key: string;
  readonly cert: string;
  /** CA bundle client certificates must chain to. */
  readonly ca: string;
}

export interface ApiServerOptions {
  readonly endpoints: readonly Endpoint[];
  /** Create-only computed resources (reviews). */
  readonly virtualEndpoints?: readonly VirtualEndpoint[];
  /** This server's schema registry (built-in kinds plus those registered at runtime). */
  readonly schemas: SchemaRegistry;
  readonly features: FeatureGateReader;
  readonly version: JsonObject;
  readonly health: HealthChecks;
  readonly log: Logger;
  readonly authenticator: Authenticator;
  readonly authorizer: Authorizer;
  /** The audit policy and where events go (AM-17); none: nothing is audited. */
  readonly audit?: AuditConfig;
  /** `--cors-allowed-origins` patterns, already validated (AM-22); none: no CORS. */
  readonly corsAllowedOrigins?: readonly string[];
  /** Default: upstream's 400 non-mutating, 200 mutating (used when `flowControl` is absent). */
  readonly inFlight?: InFlightLimits;
  /** API Priority and Fairness: replaces the max-in-flight limits when given. */
  readonly flowControl?: FlowController;
  /** `--request-timeout` (default 60 s). */
  readonly requestTimeoutMs?: number;
  /**
   * Documents served at fixed non-resource paths to GET (service-account issuer discovery),
   * after authentication and authorization like every path; listed at `/`.
   */
  readonly documents?: readonly NonResourceDocument[];
  /**
   * nanokube's own operations at non-resource paths (snapshots), after authentication and
   * authorization like every path: only a user allowed the verb on the path reaches them.
   */
  readonly operations?: readonly NonResourceOperation[];
  /** Faults injected on purpose into the requests that match its rules (testing retry paths). */
  readonly faults?: FaultInjector;
  /** Interval of watch BOOKMARK events (default 60 s). */
  readonly watchBookmarkIntervalMs?: number;
  /** How often `apiserver_storage_objects` is counted (upstream's --etcd-count-metric-poll-period, 60 s). */
  readonly storageCountPollMs?: number;
}

/** An operation at a non-resource path: it reads the request and writes the whole answer. */
export interface NonResourceOperation {
  readonly path: string;
  handle(req: ServerRequest, res: ServerResponseLike, signal: AbortSignal): Promise<void>;
}

/** A document at a non-resource path: its body, content type and Cache-Control. */
export interface NonResourceDocument {
  readonly path: string;
  readonly contentType: string;
  readonly cacheControl?: string;
  /** Read on every request (it may depend on the listening address). */
  body(): string;
}

/** What the chain needs of a response: node's (HTTP/2 or HTTP/1.1) or an in-process one. */
type ChainResponse = ServerResponseLike & {
  readonly writableFinished: boolean;
  /** Whether end() was called (node's responses; the in-process one reports it as writableFinished). */
  readonly writableEnded?: boolean;
  once(event: 'finish' | 'close' | 'drain', listener: () => void): unknown;
};

function virtualKey(info: Pick<ResourceInfo, 'group' | 'version' | 'resource'>, subresource: string): string {
  return `${endpointKey(info)}/${subresource}`;
}

const requestEnded = new Error('the request ended: client gone or server shutting down');

/** Health paths upstream instruments (their single checks, `/healthz/ping`, are not). */
const instrumentedHealthPaths = new Set(['/healthz', '/livez', '/readyz']);

const rootPaths = [
  '/api',
  '/api/v1',
  '/apis',
  '/healthz',
  '/livez',
  '/metrics',
  '/openapi/v2',
  '/openapi/v3',
  '/readyz',
  '/version',
];

export class ApiServer {
  readonly #o: ApiServerOptions;
  readonly #endpoints = new Map<string, Endpoint>();
  readonly #virtual = new Map<string, VirtualEndpoint>();
  /** Aborted when an endpoint stops being served (its open watches end). */
  readonly #served = new Map<string, AbortController>();
  readonly #discovery: DiscoveryHandler;
  readonly #openapi: OpenApiHandler;
  #shuttingDown = false;
  /**
   * Aborts the in-flight requests' work at shutdown. A Set, not listeners on a shutdown signal:
   * adding an EventTarget listener walks every listener already there (each open watch holds one).
   */
  readonly #abortAtShutdown = new Set<() => void>();
  readonly #inflight = new Set<Promise<void>>();
  /** Requests being served that are not long-running (watches, proxies), and who waits for none. */
  #shortInFlight = 0;
  #quietWaiters: (() => void)[] = [];
  readonly #chain: (ctx: RequestContext) => Promise<void>;
  /** APIResponseCompression: large API object answers are gzipped for clients that ask. */
  readonly #gzip: boolean;
  readonly #watch: WatchSupport;
  readonly #inflightMark = new InflightWatermark();
  readonly #storageCounts: StorageObjectCounter;
  readonly #unregisterWatchCaches: () => void;
  #resources: readonly ResourceInfo[] = [];
  /** The served resources whose DELETE answers with the object, as OpenAPI publishes them. */
  #deleteReturnsObject: ReadonlySet<string> = new Set();
  #server: Http2SecureServer | undefined;
  #netThread: NetThread | undefined;
  #address = '127.0.0.1:6443';

  constructor(o: ApiServerOptions) {
    this.#o = o;
    this.#watch = { encoder: new WatchEncoder(), bookmarkIntervalMs: o.watchBookmarkIntervalMs ?? 60_000 };
    initMetrics();
    this.#inflightMark.start();
    this.#storageCounts = new StorageObjectCounter(
      () => [...this.#endpoints.values()].map((e) => e.store.hub),
      o.storageCountPollMs ?? 60_000,
      o.flowControl !== undefined ? (label, n) => o.flowControl?.objectCounts.set(label, n) : undefined,
    );
    this.#unregisterWatchCaches = registerWatchCaches(() =>
      [...this.#endpoints.values()].map((e) => e.store.hub),
    );
    for (const e of o.endpoints) this.#endpoints.set(endpointKey(e.info), e);
    for (const e of o.virtualEndpoints ?? [])
      this.#virtual.set(virtualKey(e.parent ?? e.info, e.subresource ?? ''), e);
    this.#refreshResources();
    this.#discovery = new DiscoveryHandler({
      resources: () => this.#resources,
      serverAddress: () => this.#address,
    });
    this.#openapi = new OpenApiHandler(() => ({
      registry: o.schemas,
      resources: this.#resources,
      deleteReturnsObject: this.#deleteReturnsObject,
      version: { gitVersion: typeof o.version['gitVersion'] === 'string' ? o.version['gitVersion'] : '' },
      issuerDiscovery: (o.documents ?? []).some((d) => d.path === '/openid/v1/jwks'),
    }));
    const filters: Filter[] = [
      withAuditInit,
      withRequestDeadline(o.requestTimeoutMs ?? 60_000),
      withCORS(o.corsAllowedOrigins ?? []),
      withFailedAuthenticationAudit(o.audit, o.log),
      withAuthentication(o.authenticator, o.log),
      withAudit(o.audit, o.log),
      withImpersonation(o.authorizer),
      o.flowControl !== undefined
        ? withPriorityAndFairness(o.flowControl, this.#inflightMark)
        : withMaxInFlight(o.inFlight ?? { nonMutating: 400, mutating: 200 }, this.#inflightMark),
      withAuthorization(o.authorizer),
      ...(o.faults !== undefined ? [withFaults(o.faults)] : []),
    ];
    this.#chain = buildChain(filters, (ctx) => this.#dispatch(ctx));
    this.#gzip = o.features.enabled('APIResponseCompression');
  }

  /** How many watch events were serialized (each once per type, version and format). */
  get watchEncodings(): number {
    return this.#watch.encoder.encodings;
  }

  /** The schema registry of this server (runtime-registered kinds add their definitions here). */
  get schemas(): SchemaRegistry {
    return this.#o.schemas;
  }

  /** Serves a resource from now on (replacing one at the same group/version/resource). */
  addEndpoint(endpoint: Endpoint): void {
    const key = endpointKey(endpoint.info);
    this.#served.get(key)?.abort();
    this.#served.delete(key);
    this.#endpoints.set(key, endpoint);
    this.#changed();
  }

  /** Stops serving a resource; returns false when it was not served. */
  removeEndpoint(info: Pick<ResourceInfo, 'group' | 'version' | 'resource'>): boolean {
    const key = endpointKey(info);
    const removed = this.#endpoints.delete(key);
    this.#served.get(key)?.abort();
    this.#served.delete(key);
    if (removed) this.#changed();
    return removed;
  }

  /** The signal that aborts when the endpoint at `key` is removed or replaced. */
  #servedSignal(key: string): AbortSignal {
    let c = this.#served.get(key);
    if (c === undefined) {
      c = new AbortController();
      setMaxListeners(0, c.signal);
      this.#served.set(key, c);
    }
    return c.signal;
  }

  #changed(): void {
    this.#refreshResources();
    this.#discovery.invalidate();
    this.#openapi.invalidate();
  }

  #refreshResources(): void {
    const topLevel = [...this.#virtual.values()].filter((e) => e.subresource === undefined);
    this.#resources = [...this.#endpoints.values(), ...topLevel].map((e) => e.info);
    this.#deleteReturnsObject = new Set(
      [...this.#endpoints.values()]
        .filter((e) => publishesDeletedObject(e.store.resource))
        .map((e) => groupResourceKey(e.info)),
    );
  }

  /** Serves a create-only computed resource (a review) from now on. */
  addVirtualEndpoint(endpoint: VirtualEndpoint): void {
    this.#virtual.set(virtualKey(endpoint.parent ?? endpoint.info, endpoint.subresource ?? ''), endpoint);
    this.#changed();
  }

  /**
   * Serves a request from a component in this process as `user`, through the whole request chain
   * but without TLS or HTTP (see in-process.ts). Resolves when the response status is known.
   */
  dispatchInProcess(init: InProcessRequestInit, user: UserInfo): Promise<InProcessResponse> {
    const { signal } = init;
    const aborted = (): Error =>
      signal?.reason instanceof Error ? signal.reason : new Error('the in-process request was aborted');
    if (signal?.aborted === true) return Promise.reject(aborted());
    const call = this.startInProcess(init, user);
    if (signal === undefined) return call.response;
    const onAbort = (): void => call.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    call.onClose(() => signal.removeEventListener('abort', onAbort));
    return call.response.catch((err: unknown) => {
      throw signal.aborted ? aborted() : err;
    });
  }

  /**
   * An in-process request cancelled through the call rather than an AbortSignal (the port bridge
   * serves thousands of requests a second; a signal per request is a measurable share of them).
   * `cancel()` before the head fails `response`; after it, it cuts the body.
   */
  startInProcess(init: Omit<InProcessRequestInit, 'signal'>, user: UserInfo): InProcessCall {
    const req = new InProcessServerRequest(init, user);
    let resolveResponse!: (r: InProcessResponse) => void;
    let rejectResponse!: (err: Error) => void;
    const response = new Promise<InProcessResponse>((resolve, reject) => {
      resolveResponse = resolve;
      rejectResponse = reject;
    });
    // The answer is handed over from the event loop, as a network response would be: a caller
    // that loops on answers (a conflict retried at once) still lets I/O, timers and watch
    // deliveries run between its requests instead of starving them with microtasks.
    const res: InProcessServerResponse = new InProcessServerResponse(req, (cut) => {
      setImmediate(() => {
        if (cut !== undefined) rejectResponse(cut);
        else
          resolveResponse({
            status: res.statusCode,
            body: res.body(),
            takeWritten: () => res.takeWritten(),
            cancel: () => res.cancel(),
          });
      });
    });
    this.handle(req, res);
    return { response, cancel: () => res.cancel(), onClose: (listener) => res.once('close', listener) };
  }

  /** Handles one request (also usable without a socket, e.g. from tests). */
  readonly handle = (req: ServerRequest, res: ChainResponse): void => {
    void this.#start(req, res);
  };

  /** Serves one request; resolves once it is done with (its answer written or abandoned). */
  #start(req: ServerRequest, res: ChainResponse): Promise<void> {
    const p = this.#serve(req, res).catch((err: unknown) => {
      this.#o.log.error(
        `request failed: ${req.method ?? ''} ${req.url ?? ''}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
      );
      writeError(res, err);
    });
    this.#inflight.add(p);
    void p.finally(() => this.#inflight.delete(p));
    return p;
  }

  async #serve(req: ServerRequest, res: ChainResponse): Promise<void> {
    const received = process.hrtime.bigint();
    const method = req.method ?? 'GET';
    const target = req.url ?? '/';
    res.once('finish', () => {
      const ms = Number(process.hrtime.bigint() - received) / 1e6;
      this.#o.log.v(4, `${method} ${target} ${res.statusCode} ${ms.toFixed(1)}ms`);
    });
    const closed = new AbortController();
    // A shared reason: aborting without one builds a DOMException (and its stack) every time.
    const abort = (): void => closed.abort(requestEnded);
    // Only a response that did not finish (client gone mid-way, a watch) needs its work stopped.
    // Not writableFinished: node's HTTP/2 response reports a stream the client reset (a cancelled
    // watch) as finished, and the watch would go on until its timeout.
    res.once('close', () => {
      if (!(res.writableEnded ?? res.writableFinished)) abort();
    });
    let longRunning: boolean | undefined;
    this.#abortAtShutdown.add(abort);
    try {
      // Checked before URL parsing, which would resolve `..` segments into another path.
      const path = decodedRequestPath(target);
      const url = new URL(target, 'https://localhost');
      const info = parseRequestInfo(method, url, path);
      longRunning = isLongRunning(info);
      if (!longRunning) this.#shortInFlight++;
      if (this.#gzip && acceptsGzip(req.headers['accept-encoding'])) allowGzip(req);
      await this.#chain({
        req,
        res,
        method,
        url,
        path,
        info,
        audit: { id: '', annotations: new Map() },
        longRunning,
        signal: closed.signal,
        abort: (reason) => closed.abort(reason),
        received,
      });
    } catch (err) {
      writeChainError(res, err);
    } finally {
      this.#abortAtShutdown.delete(abort);
      if (longRunning === false && --this.#shortInFlight === 0) {
        const waiters = this.#quietWaiters;
        this.#quietWaiters = [];
        for (const w of waiters) w();
      }
    }
  }

  /**
   * Resolves when no request other than long-running ones (watches, proxies) is being served, or
   * after `timeoutMs`: a manual clock lets what its timers started finish before firing the next.
   */
  whenQuiet(timeoutMs: number): Promise<void> {
    if (this.#shortInFlight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.#quietWaiters.push(done);
    });
  }

  async #dispatch(ctx: RequestContext): Promise<void> {
    const { req, res, url, info } = ctx;
    const shuttingDown = this.#shuttingDown;
    if (instrumentedHealthPaths.has(url.pathname)) {
      await instrument(ctx, url.pathname, async () => {
        await handleHealth(res, url, this.#o.health, shuttingDown);
      });
      return;
    }
    if (await handleHealth(res, url, this.#o.health, shuttingDown)) return;
    if (url.pathname === metricsPath) {
      await handleMetrics(res);
      return;
    }
    const operation = this.#o.operations?.find((op) => op.path === url.pathname);
    if (operation !== undefined) {
      await operation.handle(req, res, ctx.signal);
      return;
    }
    const document = this.#o.documents?.find((d) => d.path === url.pathname);
    if (document !== undefined) {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('405: Method Not Allowed');
        return;
      }
      res.writeHead(200, {
        'content-type': document.contentType,
        ...(document.cacheControl !== undefined ? { 'cache-control': document.cacheControl } : {}),
      });
      res.end(req.method === 'HEAD' ? undefined : document.body());
      return;
    }
    if (this.#o.flowControl !== undefined && handleFlowcontrolDebug(this.#o.flowControl, res, url)) return;
    if (url.pathname === '/version' || url.pathname === '/version/') {
      writeRawJSON(res, 200, this.#o.version);
      return;
    }
    if (url.pathname.startsWith('/openapi/') || url.pathname === '/swagger-2.0.0.pb-v1') {
      if (await this.#openapi.handle(req, res, url)) return;
    }
    if (!info.isResourceRequest) {
      const parts = ctx.path.split('/').filter((x) => x.length > 0);
      if (this.#discovery.handle(req, res, parts)) return;
      if (url.pathname === '/') {
        const paths = [...rootPaths, ...(this.#o.documents ?? []).map((d) => d.path)].sort();
        writeRawJSON(res, 200, { paths });
        return;
      }
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('404 page not found\n');
      return;
    }
    const key = endpointKey(info);
    // `pods/web/proxy/some/path`: the subresource is the first segment, the rest is its path.
    const virtual = this.#virtual.get(virtualKey(info, info.subresource.split('/', 1)[0] ?? ''));
    if (virtual !== undefined) {
      await instrument(ctx, undefined, () =>
        handleVirtual({
          req,
          res,
          url,
          request: info,
          endpoint: virtual,
          schemas: this.#o.schemas,
          user: userOf(ctx),
          signal: ctx.signal,
        }),
      );
      return;
    }
    const endpoint = this.#endpoints.get(key);
    if (endpoint === undefined) throw apiErrors.notFoundPath();
    const route = (): Promise<void> =>
      routeResource({
        req,
        res,
        url,
        request: info,
        endpoint,
        schemas: this.#o.schemas,
        features: this.#o.features,
        signal: ctx.signal,
        user: userOf(ctx),
        watch: this.#watch,
        served: this.#servedSignal(key),
      });
    // A subresource the endpoint does not have is a 404 upstream never reaches a handler with.
    if (!servesSubresource(endpoint.info, info.subresource)) return route();
    await instrument(
      ctx,
      undefined,
      info.verb === 'watch' ? () => observeWatch(res, endpoint.info, route) : route,
    );
  }

  async listen(o: {
    host: string;
    port: number;
    tls: TlsMaterial;
    serving?: ServingOptions;
    /**
     * Terminate TLS and HTTP on a thread of their own (net-thread/): handshakes and framing on
     * another core, the request chain alone on this one.
     */
    netThread?: boolean;
  }): Promise<number> {
    if (o.netThread === true) {
      const thread = await NetThread.start({
        key: o.tls.key,
        cert: o.tls.cert,
        ca: o.tls.ca,
        host: o.host,
        port: o.port,
        ...(o.serving !== undefined ? { serving: o.serving } : {}),
        handle: (req, res) => this.#start(req, res),
        upgrade: (req, socket, head) => this.handle(req, new UpgradeResponse(req, socket, head)),
      });
      this.#netThread = thread;
      this.#address = `${o.host}:${thread.port}`;
      this.#storageCounts.start();
      return thread.port;
    }
    const server = createFrontDoor({
      key: o.tls.key,
      cert: o.tls.cert,
      ca: o.tls.ca,
      ...(o.serving !== undefined ? { serving: o.serving } : {}),
      onRequest: (req, res) => this.#start(req, res),
      // HTTP/1.1 requests that ask to switch protocols (SPDY and WebSocket exec, attach, log) come
      // with their socket; they go through the same chain, and a streaming handler takes it over.
      onUpgrade: (req, socket, head) => this.handle(req, new UpgradeResponse(req, socket, head)),
    });
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
    this.#storageCounts.start();
    return port;
  }

  /** Stops accepting, ends watches, waits for in-flight requests (at most `graceMs`). */
  async close(graceMs = 5000): Promise<void> {
    if (!this.#shuttingDown) {
      this.#shuttingDown = true;
      for (const abort of this.#abortAtShutdown) abort();
      this.#abortAtShutdown.clear();
    }
    this.#inflightMark.stop();
    this.#unregisterWatchCaches();
    await this.#storageCounts.stop();
    const server = this.#server;
    const closed =
      server === undefined ? Promise.resolve() : new Promise<void>((r) => server.close(() => r()));
    const drained = Promise.allSettled([...this.#inflight]);
    await Promise.race([drained, new Promise((r) => setTimeout(r, graceMs).unref())]);
    // Sessions still open (idle keep-alive) would hold close() forever.
    await Promise.race([closed, new Promise((r) => setTimeout(r, 100).unref())]);
    await this.#netThread?.close(100);
  }
}

function writeChainError(res: ServerResponseLike, err: unknown): void {
  if (!(err instanceof ChainResponseError)) {
    writeError(res, err);
    return;
  }
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(err.code, {
    ...err.headers,
    'content-type': 'text/plain; charset=utf-8',
    'x-content-type-options': 'nosniff',
  });
  res.end(err.message);
}
