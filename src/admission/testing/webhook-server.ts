/**
 * A webhook server for tests: HTTPS on 127.0.0.1 (or another address) with a certificate from a
 * CA made for it (@peculiar/x509 over Node's webcrypto, ECDSA P-256), valid for 127.0.0.1, ::1,
 * localhost, the address listened on and the DNS names asked for (e.g. `hook.default.svc`, the
 * name a service reference is verified against). Each path has a handler from the decoded review
 * to the answer; answers can be delayed or held back for ever (timeouts), or be raw (status
 * codes, odd bodies). Calls are counted and recorded per path. `admissionResponse` builds the
 * usual answer to a review.
 */
import { webcrypto } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import { isIP } from 'node:net';
import type { AddressInfo } from 'node:net';
import type * as X509Lib from '@peculiar/x509';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject, JsonValue } from '../../util/json.js';

type X509 = typeof X509Lib;

let lib: Promise<X509> | undefined;

async function x509(): Promise<X509> {
  lib ??= (async () => {
    await import('reflect-metadata');
    const m = await import('@peculiar/x509');
    m.cryptoProvider.set(webcrypto as Parameters<typeof m.cryptoProvider.set>[1]);
    return m;
  })();
  return lib;
}

const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

function pem(label: string, der: ArrayBuffer): string {
  const b64 = Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n');
  return `-----BEGIN ${label}-----\n${b64.endsWith('\n') ? b64 : `${b64}\n`}-----END ${label}-----\n`;
}

export interface TestCertificates {
  /** The CA certificate (PEM). */
  readonly caPem: string;
  /** The CA as a webhook clientConfig's caBundle: base64 of the PEM. */
  readonly caBundle: string;
  /** The serving certificate (PEM), signed by the CA. */
  readonly certPem: string;
  /** Its private key (PKCS#8 PEM). */
  readonly keyPem: string;
}

export interface TestCertificateOptions {
  /** Subject alternative names: IP addresses and DNS names. Default 127.0.0.1, ::1, localhost. */
  readonly hosts?: readonly string[];
  /** The leaf's common name. Default `webhook`. */
  readonly commonName?: string;
  /** Validity of the leaf; default from a minute ago for a day. */
  readonly notBefore?: Date;
  readonly notAfter?: Date;
}

/** A fresh CA and a serving certificate it signed. */
export async function makeTestCertificates(o: TestCertificateOptions = {}): Promise<TestCertificates> {
  const m = await x509();
  const subtle = webcrypto.subtle;
  const serial = (): string =>
    Buffer.from(webcrypto.getRandomValues(new Uint8Array(16)))
      .toString('hex')
      .replace(/^[89a-f]/, '1');
  const now = new Date(Date.now() - 60_000);
  const day = new Date(now.getTime() + 24 * 3600 * 1000);
  const caKeys = await subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const ca = await m.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: 'CN=webhook-test-ca',
    notBefore: now,
    notAfter: day,
    signingAlgorithm: algorithm,
    keys: caKeys,
    extensions: [
      new m.BasicConstraintsExtension(true, undefined, true),
      new m.KeyUsagesExtension(m.KeyUsageFlags.keyCertSign | m.KeyUsageFlags.digitalSignature, true),
      await m.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  const keys = await subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const hosts = o.hosts ?? ['127.0.0.1', '::1', 'localhost'];
  const extensions: InstanceType<X509['Extension']>[] = [
    new m.BasicConstraintsExtension(false, undefined, true),
    new m.KeyUsagesExtension(m.KeyUsageFlags.digitalSignature | m.KeyUsageFlags.keyEncipherment, true),
    new m.ExtendedKeyUsageExtension([m.ExtendedKeyUsage.serverAuth]),
    await m.AuthorityKeyIdentifierExtension.create(caKeys.publicKey),
  ];
  if (hosts.length > 0) {
    extensions.push(
      new m.SubjectAlternativeNameExtension(
        hosts.map((h) => ({ type: isIP(h) !== 0 ? ('ip' as const) : ('dns' as const), value: h })),
      ),
    );
  }
  const cert = await m.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `CN=${o.commonName ?? 'webhook'}`,
    issuer: ca.subject,
    notBefore: o.notBefore ?? now,
    notAfter: o.notAfter ?? day,
    signingAlgorithm: algorithm,
    publicKey: keys.publicKey,
    signingKey: caKeys.privateKey,
    extensions,
  });
  const caPem = ca.toString('pem') + '\n';
  return {
    caPem,
    caBundle: Buffer.from(caPem).toString('base64'),
    certPem: cert.toString('pem') + '\n',
    keyPem: pem('PRIVATE KEY', await subtle.exportKey('pkcs8', keys.privateKey)),
  };
}

/** An answer other than a JSON 200: any status, headers and body. */
export class RawAnswer {
  constructor(
    readonly status: number,
    readonly body: string | Buffer = '',
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}

/** What a handler learns of the call besides the review. */
export interface WebhookCall {
  readonly path: string;
  /** The query string, e.g. `timeout=10s`. */
  readonly query: string;
  readonly headers: IncomingHttpHeaders;
}

export type ReviewHandler = (
  review: JsonObject,
  call: WebhookCall,
) => JsonObject | RawAnswer | Promise<JsonObject | RawAnswer>;

export interface RouteOptions {
  /** Milliseconds to wait before answering; `Infinity` never answers (the connection stays open). */
  readonly delayMs?: number;
}

export interface RecordedCall extends WebhookCall {
  readonly review: JsonObject;
}

export interface TestWebhookServer {
  readonly port: number;
  /** base64 PEM of the CA, for clientConfig.caBundle. */
  readonly caBundle: string;
  readonly certificates: TestCertificates;
  /** `https://<listen address, else 127.0.0.1>:<port><path>`, or another host of the certificate. */
  url(path: string, host?: string): string;
  /** Sets (or replaces) the handler of a path. */
  handle(path: string, handler: ReviewHandler, options?: RouteOptions): void;
  /** Calls that reached a path (answered or not). */
  calls(path: string): number;
  /** TLS connections accepted so far (to see keep-alive reuse). */
  connections(): number;
  /** The reviews a path received, oldest first. */
  received(path: string): readonly RecordedCall[];
  /** Stops listening and drops every connection (held answers included). */
  close(): Promise<void>;
}

export interface TestWebhookServerOptions {
  /** DNS names the certificate is also valid for, e.g. `hook.default.svc`. */
  readonly dnsNames?: readonly string[];
  /** Handlers by path (more can be added with `handle`). */
  readonly handlers?: Readonly<Record<string, ReviewHandler>>;
  /** Certificates to serve with instead of fresh ones. */
  readonly certificates?: TestCertificates;
  /**
   * The address to listen on. Default 127.0.0.1. EndpointSlices and Endpoints may not hold
   * loopback addresses (upstream validation), so a test reaching the server through a Service
   * object listens on a non-loopback address of the host (`hostAddress()`) and points the slice
   * there.
   */
  readonly listen?: string;
}

/** A non-loopback, non-link-local IPv4 address of this host, for EndpointSlices; undefined if none. */
export function hostAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.family === 'IPv4' && !a.internal && !a.address.startsWith('169.254.')) return a.address;
    }
  }
  return undefined;
}

function send(
  res: ServerResponse,
  status: number,
  body: string | Buffer,
  headers: Record<string, string>,
): void {
  if (res.destroyed) return;
  res.writeHead(status, headers);
  res.end(body);
}

/** Starts the server on 127.0.0.1 (or `listen`) and a free port. Unknown paths answer 404. */
export async function startWebhookServer(o: TestWebhookServerOptions = {}): Promise<TestWebhookServer> {
  const listen = o.listen ?? '127.0.0.1';
  const wildcard = listen === '0.0.0.0' || listen === '::';
  const defaultHost = wildcard ? '127.0.0.1' : listen;
  const sans = new Set([
    '127.0.0.1',
    '::1',
    'localhost',
    ...(wildcard ? [] : [listen]),
    ...(o.dnsNames ?? []),
  ]);
  const certificates = o.certificates ?? (await makeTestCertificates({ hosts: [...sans] }));
  const routes = new Map<string, { handler: ReviewHandler; options: RouteOptions }>();
  for (const [path, handler] of Object.entries(o.handlers ?? {})) routes.set(path, { handler, options: {} });
  const recorded = new Map<string, RecordedCall[]>();
  const counts = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();

  const server: Server = createServer(
    { key: certificates.keyPem, cert: certificates.certPem },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const [path = '', query = ''] = (req.url ?? '').split('?', 2);
        counts.set(path, (counts.get(path) ?? 0) + 1);
        const route = routes.get(path);
        if (route === undefined) {
          send(res, 404, '404 page not found\n', { 'content-type': 'text/plain; charset=utf-8' });
          return;
        }
        let review: JsonValue;
        try {
          review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as JsonValue;
        } catch {
          send(res, 400, 'the body is not JSON\n', { 'content-type': 'text/plain; charset=utf-8' });
          return;
        }
        if (!isJsonObject(review)) {
          send(res, 400, 'the body is not a JSON object\n', { 'content-type': 'text/plain; charset=utf-8' });
          return;
        }
        const call: WebhookCall = { path, query, headers: req.headers };
        const list = recorded.get(path) ?? [];
        list.push({ ...call, review });
        recorded.set(path, list);
        const answer = async (): Promise<void> => {
          try {
            const out = await route.handler(review, call);
            if (out instanceof RawAnswer) send(res, out.status, out.body, { ...out.headers });
            else send(res, 200, JSON.stringify(out), { 'content-type': 'application/json' });
          } catch (err) {
            send(res, 500, `handler failed: ${err instanceof Error ? err.message : String(err)}\n`, {
              'content-type': 'text/plain; charset=utf-8',
            });
          }
        };
        const delay = route.options.delayMs ?? 0;
        if (delay === Infinity) return;
        if (delay <= 0) {
          void answer();
          return;
        }
        const t = setTimeout(() => {
          timers.delete(t);
          void answer();
        }, delay);
        timers.add(t);
      });
    },
  );
  let connections = 0;
  server.on('secureConnection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, listen, resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    caBundle: certificates.caBundle,
    certificates,
    url: (path, host = defaultHost) => `https://${host.includes(':') ? `[${host}]` : host}:${port}${path}`,
    handle: (path, handler, options = {}) => {
      routes.set(path, { handler, options });
    },
    calls: (path) => counts.get(path) ?? 0,
    connections: () => connections,
    received: (path) => recorded.get(path) ?? [],
    close: async () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

export interface AdmissionAnswer {
  /** Default true. */
  readonly allowed?: boolean;
  /** response.status, e.g. `{ code: 403, message: 'no' }`. */
  readonly status?: JsonObject;
  /** A JSON patch (the operations; encoded as base64 with patchType JSONPatch). */
  readonly patch?: readonly JsonObject[];
  readonly warnings?: readonly string[];
  readonly auditAnnotations?: Readonly<Record<string, string>>;
  /** Extra or replacing fields of `response` (e.g. a wrong uid, a raw patch). */
  readonly response?: JsonObject;
}

/**
 * The usual answer to a review: same apiVersion and kind, `response.uid` the request's, allowed
 * unless told otherwise, and the optional status, patch, warnings and audit annotations.
 */
export function admissionResponse(review: JsonObject, answer: AdmissionAnswer = {}): JsonObject {
  const request = isJsonObject(review['request']) ? review['request'] : {};
  const response: JsonObject = { uid: typeof request['uid'] === 'string' ? request['uid'] : '' };
  response['allowed'] = answer.allowed ?? true;
  if (answer.status !== undefined) response['status'] = answer.status;
  if (answer.patch !== undefined) {
    response['patch'] = Buffer.from(JSON.stringify(answer.patch)).toString('base64');
    response['patchType'] = 'JSONPatch';
  }
  if (answer.warnings !== undefined) response['warnings'] = [...answer.warnings];
  if (answer.auditAnnotations !== undefined) response['auditAnnotations'] = { ...answer.auditAnnotations };
  Object.assign(response, answer.response ?? {});
  return {
    apiVersion: typeof review['apiVersion'] === 'string' ? review['apiVersion'] : 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    response,
  };
}
