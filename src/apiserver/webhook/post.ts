/**
 * Calling a webhook the API server is configured with — a webhook `clientConfig`: `url`, or
 * `service` {namespace, name, path, port} reached through an address the resolver gives, and
 * `caBundle` — as k8s.io/apiserver's webhook ClientManager and client-go's REST client do it: one
 * HTTPS POST of JSON (HTTP/1.1, `User-Agent: kube-apiserver-admission`), the decoded JSON answer
 * back. CRD conversion webhooks and admission webhooks use it.
 *
 * - TLS is always verified: against the caBundle when there is one, else Node's default CAs; a
 *   service is verified as `<name>.<namespace>.svc` (the address dialled is the resolver's), with
 *   Go's hostname rules (SANs only, no Common Name fallback) and Go's error texts.
 * - Each client configuration (a caller-given key, else the clientConfig itself) gets one
 *   keep-alive https.Agent with a bounded number of sockets; `forget(key)` and `close()` drop
 *   them, and at most `maxClients` are kept (least recently used dropped), like upstream's client
 *   cache of 200.
 * - Each call has a deadline (`timeoutMs`, sent as `?timeout=` like client-go's Request.Timeout)
 *   and may be cancelled by an AbortSignal; failures read like client-go's: `Post "<url>":
 *   context deadline exceeded`, `... context canceled`, `... dial tcp …: connect: connection
 *   refused`, `... tls: failed to verify certificate: x509: …`.
 * - Answers outside 200–206 become the StatusError client-go makes of them (the body's Status
 *   when it is a Failure Status, else NewGenericServerResponse's text); a 2xx answer must have a
 *   body that parses as JSON. Bodies are read up to `maxResponseBytes`: upstream reads them whole,
 *   nanokube bounds what one webhook can make it buffer.
 */
import { X509Certificate, createHash } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { Agent, request } from 'node:https';
import { isIP } from 'node:net';
import { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import type { ConnectionOptions, PeerCertificate } from 'node:tls';
import type { SimConnection, SimDial } from '../../machinery/http-exchange.js';
import { StatusError } from '../../machinery/errors.js';
import { goJsonSyntaxError } from '../../machinery/gojson/syntax.js';
import type { StatusDetails, StatusReason } from '../../machinery/status.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';
import { joinHostPort } from '../../util/host-port.js';
import { rootedCleanPath } from '../../util/go-path.js';

export interface ServiceAddress {
  readonly host: string;
  readonly port: number;
}

export interface WebhookPostOptions {
  /** Where a Service's webhook answers for the Service port (e.g. a ready endpoint's address). */
  resolveService(namespace: string, name: string, port: number): Promise<ServiceAddress>;
  /**
   * Dials an address a simulated pod of this process has (its server answers on an in-memory
   * stream, TLS verified as ever); undefined, or an undefined answer: the real network.
   */
  readonly dial?: SimDial;
  /** A call's deadline when it names none. Default 30 s (upstream's webhook client timeout). */
  readonly timeoutMs?: number;
  /** The largest answer body read. Default 10 MiB. */
  readonly maxResponseBytes?: number;
  /** Connections open at once per client configuration (the agent's maxSockets). Default 100. */
  readonly maxSocketsPerClient?: number;
  /** Client configurations (agents) kept; the least recently used beyond it are dropped. Default 200. */
  readonly maxClients?: number;
}

export interface WebhookCallOptions {
  /**
   * The client configuration this call belongs to, e.g. `<configuration uid>/<webhook name>`:
   * calls with the same key share one connection pool, and `forget(key)` drops it. A new
   * caBundle under the same key replaces the pool. Default: derived from the clientConfig.
   */
  readonly key?: string;
  /** The call's deadline (admission: the webhook's timeoutSeconds, default 10 s there). */
  readonly timeoutMs?: number;
  /** Aborts the call (`context canceled`), e.g. when the request that needs it is gone. */
  readonly signal?: AbortSignal;
}

/** Posts `body` to the webhook of `clientConfig` and returns its decoded JSON answer. */
export interface WebhookPoster {
  (clientConfig: JsonObject, body: JsonObject, call?: WebhookCallOptions): Promise<unknown>;
  /** Closes the connections of one client configuration (its configuration was removed); calls in flight on them fail. */
  forget(key: string): void;
  /** Closes every connection; later calls fail. */
  close(): void;
}

/**
 * Why a call failed, when it is not a StatusError (an answer outside 200–206):
 * - phase `client`: no client could be made for the clientConfig (bad URL or caBundle) —
 *   upstream's `could not get REST client` case;
 * - phase `call`: the POST failed or its answer could not be read; `deadlineExceeded` and
 *   `canceled` tell the deadline and the caller's AbortSignal apart.
 */
export class WebhookPostError extends Error {
  override readonly name = 'WebhookPostError';
  readonly phase: 'client' | 'call';
  readonly deadlineExceeded: boolean;
  readonly canceled: boolean;

  constructor(
    message: string,
    phase: 'client' | 'call',
    o: { deadlineExceeded?: boolean; canceled?: boolean; cause?: unknown } = {},
  ) {
    super(message, o.cause !== undefined ? { cause: o.cause } : undefined);
    this.phase = phase;
    this.deadlineExceeded = o.deadlineExceeded ?? false;
    this.canceled = o.canceled ?? false;
  }
}

const defaultTimeoutMs = 30_000;
const defaultMaxResponseBytes = 10 * 1024 * 1024;
const userAgent = 'kube-apiserver-admission';
/** client-go's maxUnstructuredResponseTextBytes: how much of a non-Status error body is quoted. */
const maxUnstructuredResponseTextBytes = 2048;

function str(o: JsonObject | undefined, k: string): string {
  const v = o?.[k];
  return typeof v === 'string' ? v : '';
}

/** Go's time.Duration.String() for whole seconds: `10s`, `1m30s`, `1h0m0s`. */
function goSeconds(total: number): string {
  if (total < 60) return `${total}s`;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h}h${m}m${s}s` : `${m}m${s}s`;
}

interface Target {
  /** The URL client-go would name in errors (with `?timeout=`). */
  readonly display: string;
  /** Path and query sent. */
  readonly path: string;
  /** Where to connect: fixed for a URL, resolved per call for a service. */
  readonly host?: string;
  readonly port?: number;
  readonly service?: { readonly namespace: string; readonly name: string; readonly port: number };
  /** The TLS server name (verified against the certificate); undefined for an IP address. */
  readonly servername: string | undefined;
  /** The name certificates are checked against. */
  readonly verifyName: string;
}

function targetOf(clientConfig: JsonObject, timeoutMs: number): Target {
  // client-go rounds the remaining time up to whole seconds for the query parameter.
  const query = `timeout=${goSeconds(Math.max(1, Math.ceil(timeoutMs / 1000)))}`;
  const url = str(clientConfig, 'url');
  if (url !== '') {
    let u: URL;
    try {
      u = new URL(url);
    } catch (err) {
      throw new WebhookPostError(`Unparsable URL: parse ${JSON.stringify(url)}: invalid URL`, 'client', {
        cause: err,
      });
    }
    if (u.protocol !== 'https:') {
      throw new WebhookPostError(
        `unsupported protocol scheme ${JSON.stringify(u.protocol.slice(0, -1))}`,
        'client',
      );
    }
    const hostname = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
    const path = rootedCleanPath(u.pathname);
    const ip = isIP(hostname) !== 0;
    return {
      display: `https://${u.host}${path}?${query}`,
      path: `${path}?${query}`,
      host: hostname,
      port: u.port === '' ? 443 : Number(u.port),
      servername: ip ? undefined : hostname,
      verifyName: hostname,
    };
  }
  const service = isJsonObject(clientConfig['service']) ? clientConfig['service'] : undefined;
  if (service === undefined) {
    throw new WebhookPostError('webhook configuration must have either service or URL', 'client');
  }
  const namespace = str(service, 'namespace');
  const name = str(service, 'name');
  const p = service['port'];
  const port = typeof p === 'number' && p !== 0 ? p : 443;
  const path = rootedCleanPath(str(service, 'path'));
  const serverName = `${name}.${namespace}.svc`;
  return {
    display: `https://${serverName}:${port}${path}?${query}`,
    path: `${path}?${query}`,
    service: { namespace, name, port },
    servername: serverName,
    verifyName: serverName,
  };
}

// ---------------------------------------------------------------------------------------------
// TLS: CA data and Go's hostname verification

/**
 * The caBundle's certificates as PEM, or client-go's error for CA data it cannot use
 * (rootCertPool / createErrorParsingCAData, wrapped as `unable to load root certificates`).
 */
function caCertificates(caBundle: string): string[] {
  const text = Buffer.from(caBundle, 'base64').toString('latin1');
  const blocks = [...text.matchAll(/-----BEGIN ([^-\r\n]*)-----\r?\n([\s\S]*?)-----END \1-----/g)];
  const certs: string[] = [];
  let firstError: string | undefined;
  for (const b of blocks) {
    if (b[1] !== 'CERTIFICATE' || /^[^:\r\n]+:/m.test(b[2] ?? '')) continue;
    try {
      certs.push(new X509Certificate(b[0]).toString());
    } catch {
      firstError ??= 'failed to parse certificate: x509: malformed certificate';
    }
  }
  if (certs.length > 0) return certs;
  const why =
    blocks.length === 0
      ? 'unable to parse bytes as PEM block'
      : (firstError ?? 'no valid certificate authority data seen');
  throw new WebhookPostError(`unable to load root certificates: ${why}`, 'client');
}

function canonicalIP(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  try {
    return new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  } catch {
    return ip;
  }
}

/** Go's matchHostnames: case-insensitive, a `*` only as the whole leftmost label. */
function matchHostname(pattern: string, host: string): boolean {
  const p = pattern.toLowerCase().replace(/\.$/, '');
  const h = host.toLowerCase().replace(/\.$/, '');
  if (p === '' || h === '') return false;
  const pp = p.split('.');
  const hp = h.split('.');
  if (pp.length !== hp.length) return false;
  return pp.every((label, i) => (i === 0 && label === '*') || label === hp[i]);
}

/** A hostname failure worded as Go's x509.HostnameError. */
class HostnameError extends Error {}

/**
 * Go's Certificate.VerifyHostname in place of Node's checkServerIdentity: SANs only (a
 * certificate with none relies on the legacy Common Name, which Go refuses), and Go's messages.
 */
function goCheckServerIdentity(host: string, cert: PeerCertificate): Error | undefined {
  const sanText = cert.subjectaltname ?? '';
  const dns: string[] = [];
  const ips: string[] = [];
  for (const entry of sanText.split(', ')) {
    if (entry.startsWith('DNS:')) dns.push(entry.slice(4));
    else if (entry.startsWith('IP Address:')) ips.push(canonicalIP(entry.slice(11)));
  }
  const cn = cert.subject?.CN;
  const commonName = Array.isArray(cn) ? (cn[0] ?? '') : (cn ?? '');
  if (sanText === '' && matchHostname(commonName, host)) {
    return new HostnameError('x509: certificate relies on legacy Common Name field, use SANs instead');
  }
  let valid: string;
  if (isIP(host) !== 0) {
    if (ips.length === 0) {
      return new HostnameError(
        `x509: cannot validate certificate for ${host} because it doesn't contain any IP SANs`,
      );
    }
    if (ips.includes(canonicalIP(host))) return undefined;
    valid = ips.join(', ');
  } else {
    if (dns.some((d) => matchHostname(d, host))) return undefined;
    valid = dns.join(', ');
  }
  if (valid === '') {
    return new HostnameError(`x509: certificate is not valid for any names, but wanted to match ${host}`);
  }
  return new HostnameError(`x509: certificate is valid for ${valid}, not ${host}`);
}

const unknownAuthorityCodes = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
]);

/** A Node connection error in Go's net/http and crypto/tls words. */
function goTransportMessage(
  err: NodeJS.ErrnoException & { host?: string; hostname?: string; address?: string; port?: number },
): string {
  if (err instanceof HostnameError) return `tls: failed to verify certificate: ${err.message}`;
  const code = err.code ?? '';
  if (unknownAuthorityCodes.has(code)) {
    return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
  }
  const addr =
    err.address !== undefined && err.port !== undefined ? ` ${joinHostPort(err.address, err.port)}` : '';
  switch (code) {
    case 'ECONNREFUSED':
      return `dial tcp${addr}: connect: connection refused`;
    case 'EHOSTUNREACH':
      return `dial tcp${addr}: connect: no route to host`;
    case 'ENETUNREACH':
      return `dial tcp${addr}: connect: network is unreachable`;
    case 'ETIMEDOUT':
      return `dial tcp${addr}: i/o timeout`;
    case 'ENOTFOUND':
      return `dial tcp: lookup ${err.hostname ?? err.host ?? ''}: no such host`;
    case 'ECONNRESET':
      // Node's "socket hang up": the server closed the connection without answering.
      return err.message === 'socket hang up' ? 'EOF' : 'read: connection reset by peer';
    case 'EPIPE':
      return 'write: broken pipe';
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
      // A plain HTTP server answered the TLS hello; Go's transport recognises the answer.
      return 'http: server gave HTTP response to HTTPS client';
    default:
      return err.message;
  }
}

// ---------------------------------------------------------------------------------------------
// Answers outside 200–206

const genericMessages: Readonly<Record<number, [StatusReason, string]>> = {
  409: ['AlreadyExists', 'the server reported a conflict'],
  404: ['NotFound', 'the server could not find the requested resource'],
  400: ['BadRequest', 'the server rejected our request for an unknown reason'],
  401: ['Unauthorized', 'the server has asked for the client to provide credentials'],
  405: ['MethodNotAllowed', 'the server does not allow this method on the requested resource'],
  422: ['Invalid', 'the server rejected our request due to an error in our request'],
  503: ['ServiceUnavailable', 'the server is currently unable to handle the request'],
  504: [
    'Timeout',
    'the server was unable to return a response in the time allotted, but may still be processing the request',
  ],
  429: ['TooManyRequests', 'the server has received too many requests and has asked us to try again later'],
};

/** apimachinery's NewGenericServerResponse for a POST with no resource (isUnexpectedResponse). */
function genericServerResponse(code: number, serverMessage: string, retryAfter: number): StatusError {
  let reason: StatusReason = '';
  let message = `the server responded with the status code ${code} but did not return more information`;
  const known = genericMessages[code];
  if (known !== undefined) [reason, message] = known;
  else if (code === 403) [reason, message] = ['Forbidden', serverMessage];
  else if (code === 406) {
    reason = 'NotAcceptable';
    message =
      serverMessage === '' || serverMessage === 'unknown'
        ? 'the server was unable to respond with a content type that the client supports'
        : serverMessage;
  } else if (code === 415) [reason, message] = ['UnsupportedMediaType', serverMessage];
  else if (code >= 500) {
    reason = 'InternalError';
    message = `an error on the server (${JSON.stringify(serverMessage)}) has prevented the request from succeeding`;
  }
  const details: StatusDetails = { causes: [{ reason: 'UnexpectedServerResponse', message: serverMessage }] };
  if (retryAfter !== 0) details.retryAfterSeconds = retryAfter;
  return new StatusError(code, reason, message, details);
}

function mediaType(headers: IncomingHttpHeaders): string {
  return (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * client-go's error for an answer outside 200–206: a Status with status Failure in the body (kind
 * Status, apiVersion v1 or none) as it is; otherwise the generic error for the code, quoting a
 * text body (up to 2048 bytes) or saying `unknown`.
 */
function unexpectedStatusError(code: number, headers: IncomingHttpHeaders, body: Buffer): StatusError {
  let parsed: unknown;
  try {
    parsed = body.length > 0 ? JSON.parse(body.toString('utf8')) : undefined;
  } catch {
    parsed = undefined;
  }
  if (
    isJsonObject(parsed) &&
    parsed['kind'] === 'Status' &&
    (parsed['apiVersion'] === undefined || parsed['apiVersion'] === '' || parsed['apiVersion'] === 'v1') &&
    parsed['status'] === 'Failure'
  ) {
    const details = isJsonObject(parsed['details']) ? (parsed['details'] as StatusDetails) : undefined;
    return new StatusError(
      typeof parsed['code'] === 'number' ? parsed['code'] : 0,
      str(parsed, 'reason') as StatusReason,
      str(parsed, 'message'),
      details,
    );
  }
  const type = mediaType(headers);
  const isText = (headers['content-type'] ?? '') === '' || type.startsWith('text/');
  const message = isText
    ? body.subarray(0, maxUnstructuredResponseTextBytes).toString('utf8').trim()
    : 'unknown';
  const retryAfter = headers['retry-after'] ?? '';
  const retry = /^[+-]?\d+$/.test(retryAfter) ? Number(retryAfter) : 0;
  return genericServerResponse(code, message, retry);
}

// ---------------------------------------------------------------------------------------------
// The poster

interface Client {
  readonly agent: Agent;
  /** Identifies the TLS settings the agent was made with (the caBundle). */
  readonly fingerprint: string;
}

interface Attempt {
  readonly target: Target;
  readonly host: string;
  readonly port: number;
  readonly agent: Agent;
  readonly payload: string;
  readonly maxResponseBytes: number;
  readonly signal: AbortSignal;
  /** Why `signal` fired. */
  readonly why: () => 'deadline' | 'canceled';
}

function abortError(a: Attempt, afterHeaders: boolean): WebhookPostError {
  const reason = a.why();
  const text = reason === 'deadline' ? 'context deadline exceeded' : 'context canceled';
  const flags = { deadlineExceeded: reason === 'deadline', canceled: reason === 'canceled' };
  // Once the headers are in, client-go reports a failure to read the body without the URL.
  return afterHeaders
    ? new WebhookPostError(
        `unexpected error when reading response body. Please retry. Original error: ${text}`,
        'call',
        flags,
      )
    : new WebhookPostError(`Post "${a.target.display}": ${text}`, 'call', flags);
}

/** One HTTP exchange; retried by the caller when a reused keep-alive socket turned out closed. */
function exchange(
  a: Attempt,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer } | 'retry'> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let afterHeaders = false;
    const settle = (f: () => void): void => {
      if (settled) return;
      settled = true;
      a.signal.removeEventListener('abort', onAbort);
      f();
    };
    const req = request({
      host: a.host,
      port: a.port,
      path: a.target.path,
      method: 'POST',
      agent: a.agent,
      ...(a.target.servername !== undefined ? { servername: a.target.servername } : {}),
      checkServerIdentity: (_host: string, cert: PeerCertificate) =>
        goCheckServerIdentity(a.target.verifyName, cert),
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, */*',
        'user-agent': userAgent,
        'content-length': Buffer.byteLength(a.payload),
      },
    });
    function onAbort(): void {
      settle(() => reject(abortError(a, afterHeaders)));
      req.destroy();
    }
    a.signal.addEventListener('abort', onAbort, { once: true });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (settled) return;
      if (!afterHeaders && req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE')) {
        settle(() => resolve('retry'));
        return;
      }
      settle(() =>
        reject(
          new WebhookPostError(`Post "${a.target.display}": ${goTransportMessage(err)}`, 'call', {
            cause: err,
          }),
        ),
      );
    });
    req.on('response', (res: IncomingMessage) => {
      afterHeaders = true;
      const tooLarge = (): void => {
        settle(() =>
          reject(
            new WebhookPostError(
              `unexpected error when reading response body. Please retry. Original error: the response body exceeds the limit of ${a.maxResponseBytes} bytes`,
              'call',
            ),
          ),
        );
        req.destroy();
      };
      const declared = Number(res.headers['content-length'] ?? NaN);
      if (Number.isFinite(declared) && declared > a.maxResponseBytes) {
        tooLarge();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        if (settled) return;
        size += c.length;
        if (size > a.maxResponseBytes) tooLarge();
        else chunks.push(c);
      });
      res.on('error', (err) =>
        settle(() =>
          reject(
            new WebhookPostError(
              `unexpected error when reading response body. Please retry. Original error: ${goTransportMessage(err)}`,
              'call',
              { cause: err },
            ),
          ),
        ),
      );
      res.on('close', () => {
        // Closed before the whole body came: Go's reader says unexpected EOF.
        if (res.complete) return;
        settle(() =>
          reject(
            new WebhookPostError(
              'unexpected error when reading response body. Please retry. Original error: unexpected EOF',
              'call',
            ),
          ),
        );
      });
      res.on('end', () =>
        settle(() =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        ),
      );
    });
    req.end(a.payload);
  });
}

/** The decoded answer of a 2xx exchange, or client-go's error for it. */
function answerOf(status: number, headers: IncomingHttpHeaders, body: Buffer): unknown {
  if (status < 200 || status > 206) throw unexpectedStatusError(status, headers, body);
  if (body.length === 0) {
    const contentType = headers['content-type'] ?? 'application/json';
    throw new WebhookPostError(
      `0-length response with status code: ${status} and content type: ${contentType}`,
      'call',
    );
  }
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    const syntax = goJsonSyntaxError(body)?.message ?? 'unexpected end of JSON input';
    throw new WebhookPostError(`couldn't get version/kind; json parse error: ${syntax}`, 'call');
  }
}

/** A socket that fails at once, as a dial that is refused (or cannot be made) does. */
function failedSocket(c: Exclude<SimConnection, { kind: 'open' }>, host: string, port: number): Duplex {
  const socket = new Duplex({ read: () => undefined, write: (_c, _e, cb) => cb() });
  const err =
    c.kind === 'refused'
      ? Object.assign(new Error(`connect ECONNREFUSED ${joinHostPort(host, port)}`), {
          code: 'ECONNREFUSED',
          syscall: 'connect',
          address: host,
          port,
        })
      : new Error(c.reason);
  process.nextTick(() => socket.destroy(err));
  return socket;
}

/**
 * Makes `agent` dial the addresses `dial` knows (simulated pods) over in-memory streams, with the
 * agent's own TLS options, and every other address as it would.
 */
function dialThrough(agent: Agent, dial: SimDial): void {
  const dialReal = agent.createConnection.bind(agent);
  agent.createConnection = (
    options: ConnectionOptions,
    callback?: (err: Error | null, s: Duplex) => void,
  ) => {
    const host = options.host ?? '';
    const port = options.port ?? 443;
    const c = dial(host, port);
    if (c === undefined) return dialReal(options, callback);
    if (c.kind !== 'open') return failedSocket(c, host, port);
    return tlsConnect({ ...options, socket: c.socket });
  };
}

export function webhookPoster(o: WebhookPostOptions): WebhookPoster {
  const defaultTimeout = o.timeoutMs ?? defaultTimeoutMs;
  const maxResponseBytes = o.maxResponseBytes ?? defaultMaxResponseBytes;
  const maxSockets = o.maxSocketsPerClient ?? 100;
  const maxClients = o.maxClients ?? 200;
  /** Agents by key, least recently used first. */
  const clients = new Map<string, Client>();
  let closed = false;

  const clientFor = (key: string, caBundle: string): Client => {
    const fingerprint = createHash('sha256').update(caBundle).digest('hex');
    const existing = clients.get(key);
    clients.delete(key);
    if (existing !== undefined && existing.fingerprint === fingerprint) {
      clients.set(key, existing);
      return existing;
    }
    existing?.agent.destroy();
    const ca = caBundle === '' ? undefined : caCertificates(caBundle);
    const agent = new Agent({
      keepAlive: true,
      maxSockets,
      // Go's transport keeps up to 25 idle connections per host.
      maxFreeSockets: 25,
      scheduling: 'lifo',
      ...(ca !== undefined ? { ca } : {}),
    });
    if (o.dial !== undefined) dialThrough(agent, o.dial);
    const client: Client = { agent, fingerprint };
    clients.set(key, client);
    for (const [k, c] of clients) {
      if (clients.size <= maxClients) break;
      c.agent.destroy();
      clients.delete(k);
    }
    return client;
  };

  const post = async (
    clientConfig: JsonObject,
    body: JsonObject,
    call: WebhookCallOptions = {},
  ): Promise<unknown> => {
    const timeoutMs = call.timeoutMs ?? defaultTimeout;
    const target = targetOf(clientConfig, timeoutMs);
    if (closed) throw new WebhookPostError(`Post "${target.display}": the webhook client is closed`, 'call');
    const caBundle = str(clientConfig, 'caBundle');
    const key =
      call.key ??
      `config:${JSON.stringify([str(clientConfig, 'url'), clientConfig['service'] ?? null])}:${createHash('sha256').update(caBundle).digest('hex')}`;
    const client = clientFor(key, caBundle);

    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), timeoutMs);
    const signal =
      call.signal !== undefined ? AbortSignal.any([deadline.signal, call.signal]) : deadline.signal;
    const why = (): 'deadline' | 'canceled' => (call.signal?.aborted === true ? 'canceled' : 'deadline');
    try {
      const base = {
        target,
        agent: client.agent,
        payload: JSON.stringify(body),
        maxResponseBytes,
        signal,
        why,
      };
      if (signal.aborted) throw abortError({ ...base, host: '', port: 0 }, false);
      let host = target.host ?? '';
      let port = target.port ?? 443;
      if (target.service !== undefined) {
        // Upstream resolves the service while dialling: within the deadline, failures after the URL.
        const s = target.service;
        const address = await new Promise<ServiceAddress>((resolve, reject) => {
          const onAbort = (): void => reject(abortError({ ...base, host: '', port: 0 }, false));
          signal.addEventListener('abort', onAbort, { once: true });
          o.resolveService(s.namespace, s.name, s.port).then(
            (a) => {
              signal.removeEventListener('abort', onAbort);
              resolve(a);
            },
            (err: unknown) => {
              signal.removeEventListener('abort', onAbort);
              const why = err instanceof Error ? err.message : String(err);
              reject(new WebhookPostError(`Post "${target.display}": ${why}`, 'call', { cause: err }));
            },
          );
        });
        host = address.host;
        port = address.port;
      }
      // A keep-alive socket the server has just closed fails at once; a few fresh tries cover it.
      for (let attempt = 0; ; attempt++) {
        const r = await exchange({ ...base, host, port });
        if (r === 'retry' && attempt < 3) continue;
        if (r === 'retry') throw new WebhookPostError(`Post "${target.display}": EOF`, 'call');
        return answerOf(r.status, r.headers, r.body);
      }
    } finally {
      clearTimeout(timer);
    }
  };

  return Object.assign(post, {
    forget(key: string): void {
      clients.get(key)?.agent.destroy();
      clients.delete(key);
    },
    close(): void {
      closed = true;
      for (const c of clients.values()) c.agent.destroy();
      clients.clear();
    },
  });
}
