/**
 * The webhook transport (apiserver/webhook/post.ts) against a real HTTPS server
 * (admission/testing/webhook-server.ts), with the admission review on top. It lives in cmd/
 * because only cmd/ may import both apiserver/ and admission/.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { WebhookPostError, webhookPoster } from '../../apiserver/webhook/post.js';
import type { ServiceAddress } from '../../apiserver/webhook/post.js';
import {
  RawAnswer,
  admissionResponse,
  makeTestCertificates,
  startWebhookServer,
} from '../../admission/testing/webhook-server.js';
import type { TestWebhookServer } from '../../admission/testing/webhook-server.js';
import { attrsOf } from '../../admission/testing/fake-admission-deps.js';
import {
  createAdmissionReview,
  readAdmissionResponse,
  webhookCallError,
} from '../../admission/webhook/review.js';
import type { AdmissionReviewCall } from '../../admission/webhook/review.js';
import { StatusError } from '../../machinery/errors.js';
import type { JsonObject } from '../../util/json.js';

const target = {
  kind: { group: '', version: 'v1', kind: 'Pod' },
  resource: { group: '', version: 'v1', resource: 'pods' },
  subResource: '',
};

function review(): AdmissionReviewCall {
  return createAdmissionReview({
    admissionReviewVersions: ['v1'],
    attributes: attrsOf({
      resource: 'pods',
      kind: 'Pod',
      namespace: 'ns',
      object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' } },
    }),
    matched: target,
    request: target,
  });
}

const noServices = (): Promise<ServiceAddress> => Promise.reject(new Error('no services here'));

/** The error a promise rejects with. */
async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof Error);
    return err;
  }
  assert.fail('expected a failure');
}

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe('webhook transport', () => {
  let server: TestWebhookServer;
  before(async () => {
    server = await startWebhookServer({
      handlers: {
        '/allow': (r) => admissionResponse(r, { warnings: ['careful'] }),
        '/a/b': (r) => admissionResponse(r),
      },
    });
  });
  after(async () => {
    await server.close();
  });

  it('posts the review and returns the decoded answer', async () => {
    const post = webhookPoster({ resolveService: noServices });
    try {
      const call = review();
      const body = await post({ url: server.url('/allow'), caBundle: server.caBundle }, call.review, {
        timeoutMs: 10_000,
      });
      const response = readAdmissionResponse('allow.example.com', call, false, body);
      assert.equal(response.allowed, true);
      assert.deepEqual(response.warnings, ['careful']);
      const [seen] = server.received('/allow');
      assert.equal(seen?.query, 'timeout=10s');
      assert.equal(seen?.headers['user-agent'], 'kube-apiserver-admission');
      assert.equal(seen?.headers['content-type'], 'application/json');
      assert.deepEqual(seen?.review, call.review);
    } finally {
      post.close();
    }
  });

  it('cleans the path as client-go does and rounds the timeout up to seconds', async () => {
    const post = webhookPoster({ resolveService: noServices });
    try {
      await post({ url: server.url('/a/./b/'), caBundle: server.caBundle }, review().review, {
        timeoutMs: 1500,
      });
      assert.equal(server.received('/a/b').at(-1)?.query, 'timeout=2s');
      await post({ url: server.url('/a/b'), caBundle: server.caBundle }, review().review);
      assert.equal(server.received('/a/b').at(-1)?.query, 'timeout=30s');
    } finally {
      post.close();
    }
  });

  it('keeps one connection per client configuration and drops it on forget', async () => {
    const post = webhookPoster({ resolveService: noServices });
    try {
      const config = { url: server.url('/allow'), caBundle: server.caBundle };
      const before = server.connections();
      await post(config, review().review, { key: 'cfg-1/hook' });
      await post(config, review().review, { key: 'cfg-1/hook' });
      await post(config, review().review, { key: 'cfg-1/hook' });
      assert.equal(server.connections() - before, 1);
      post.forget('cfg-1/hook');
      await post(config, review().review, { key: 'cfg-1/hook' });
      assert.equal(server.connections() - before, 2);
      // Another key is another pool.
      await post(config, review().review, { key: 'cfg-2/hook' });
      assert.equal(server.connections() - before, 3);
    } finally {
      post.close();
    }
    const closed = await failure(
      post({ url: server.url('/allow'), caBundle: server.caBundle }, review().review, { timeoutMs: 10_000 }),
    );
    assert.equal(closed.message, `Post "${server.url('/allow')}?timeout=10s": the webhook client is closed`);
  });

  it('refuses a server its caBundle did not sign, with Go TLS text', async () => {
    const other = await makeTestCertificates();
    const post = webhookPoster({ resolveService: noServices });
    try {
      const err = await failure(
        post({ url: server.url('/allow'), caBundle: other.caBundle }, review().review, { timeoutMs: 10_000 }),
      );
      assert.equal(
        err.message,
        `Post "${server.url('/allow')}?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
      );
      assert.ok(err instanceof WebhookPostError && err.phase === 'call');
      // Without a caBundle the default CAs are used, which do not know the test CA either.
      const system = await failure(
        post({ url: server.url('/allow') }, review().review, { timeoutMs: 10_000 }),
      );
      assert.match(
        system.message,
        /tls: failed to verify certificate: x509: certificate signed by unknown authority$/,
      );
      const call = review();
      const wrapped = webhookCallError('deny.example.com', 'call', err);
      assert.equal(
        wrapped.message,
        `failed calling webhook "deny.example.com": failed to call webhook: Post "${server.url('/allow')}?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
      );
      assert.equal(wrapped.status.code, 400);
      assert.ok(call.uid !== '');
    } finally {
      post.close();
    }
  });

  it('refuses caBundles that hold no certificate as client-go does', async () => {
    const post = webhookPoster({ resolveService: noServices });
    try {
      const garbage = await failure(
        post(
          { url: server.url('/allow'), caBundle: Buffer.from('not pem').toString('base64') },
          review().review,
        ),
      );
      assert.equal(garbage.message, 'unable to load root certificates: unable to parse bytes as PEM block');
      assert.ok(garbage instanceof WebhookPostError && garbage.phase === 'client');
      const keyOnly = Buffer.from('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n').toString(
        'base64',
      );
      const noCa = await failure(post({ url: server.url('/allow'), caBundle: keyOnly }, review().review));
      assert.equal(
        noCa.message,
        'unable to load root certificates: no valid certificate authority data seen',
      );
      assert.equal(
        webhookCallError('h', 'call', noCa).message,
        'failed calling webhook "h": could not get REST client: unable to load root certificates: no valid certificate authority data seen',
      );
    } finally {
      post.close();
    }
  });

  it('checks the host against the SANs as Go does', async () => {
    const dnsOnly = await startWebhookServer({
      certificates: await makeTestCertificates({ hosts: ['hook.default.svc'] }),
      handlers: { '/allow': (r) => admissionResponse(r) },
    });
    const post = webhookPoster({
      resolveService: () => Promise.resolve({ host: '127.0.0.1', port: dnsOnly.port }),
    });
    try {
      const ip = await failure(
        post({ url: dnsOnly.url('/allow'), caBundle: dnsOnly.caBundle }, review().review, {
          timeoutMs: 10_000,
        }),
      );
      assert.equal(
        ip.message,
        `Post "${dnsOnly.url('/allow')}?timeout=10s": tls: failed to verify certificate: x509: cannot validate certificate for 127.0.0.1 because it doesn't contain any IP SANs`,
      );
      // The service name is what the certificate must carry.
      const ok = await post(
        {
          service: { namespace: 'default', name: 'hook', path: '/allow', port: 443 },
          caBundle: dnsOnly.caBundle,
        },
        review().review,
      );
      assert.equal((ok as JsonObject)['kind'], 'AdmissionReview');
      const other = await failure(
        post(
          { service: { namespace: 'other', name: 'hook', path: '/allow' }, caBundle: dnsOnly.caBundle },
          review().review,
          { timeoutMs: 10_000 },
        ),
      );
      assert.equal(
        other.message,
        'Post "https://hook.other.svc:443/allow?timeout=10s": tls: failed to verify certificate: x509: certificate is valid for hook.default.svc, not hook.other.svc',
      );
    } finally {
      post.close();
      await dnsOnly.close();
    }
  });

  it('refuses a certificate with only a Common Name, and an expired one', async () => {
    const cnOnly = await startWebhookServer({
      certificates: await makeTestCertificates({ hosts: [], commonName: 'hook.default.svc' }),
      handlers: { '/allow': (r) => admissionResponse(r) },
    });
    const expired = await startWebhookServer({
      certificates: await makeTestCertificates({
        notBefore: new Date(Date.now() - 7200_000),
        notAfter: new Date(Date.now() - 3600_000),
      }),
      handlers: { '/allow': (r) => admissionResponse(r) },
    });
    const post = webhookPoster({
      resolveService: () => Promise.resolve({ host: '127.0.0.1', port: cnOnly.port }),
    });
    try {
      const legacy = await failure(
        post(
          { service: { namespace: 'default', name: 'hook', path: '/allow' }, caBundle: cnOnly.caBundle },
          review().review,
          { timeoutMs: 10_000 },
        ),
      );
      assert.equal(
        legacy.message,
        'Post "https://hook.default.svc:443/allow?timeout=10s": tls: failed to verify certificate: x509: certificate relies on legacy Common Name field, use SANs instead',
      );
      const old = await failure(
        post({ url: expired.url('/allow'), caBundle: expired.caBundle }, review().review, {
          timeoutMs: 10_000,
        }),
      );
      assert.equal(
        old.message,
        `Post "${expired.url('/allow')}?timeout=10s": tls: failed to verify certificate: x509: certificate has expired or is not yet valid`,
      );
    } finally {
      post.close();
      await cnOnly.close();
      await expired.close();
    }
  });

  it('gives up at the deadline with context deadline exceeded', async () => {
    server.handle('/hang', (r) => admissionResponse(r), { delayMs: Infinity });
    const post = webhookPoster({ resolveService: noServices });
    try {
      const started = Date.now();
      const err = await failure(
        post({ url: server.url('/hang'), caBundle: server.caBundle }, review().review, { timeoutMs: 300 }),
      );
      assert.ok(Date.now() - started < 2000);
      assert.equal(err.message, `Post "${server.url('/hang')}?timeout=1s": context deadline exceeded`);
      assert.ok(err instanceof WebhookPostError && err.deadlineExceeded && !err.canceled);
      assert.equal(server.calls('/hang'), 1);
    } finally {
      post.close();
    }
  });

  it('stops when the caller aborts, with context canceled', async () => {
    server.handle('/slow', (r) => admissionResponse(r), { delayMs: 5000 });
    const post = webhookPoster({ resolveService: noServices });
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const err = await failure(
        post({ url: server.url('/slow'), caBundle: server.caBundle }, review().review, {
          timeoutMs: 10_000,
          signal: controller.signal,
        }),
      );
      assert.equal(err.message, `Post "${server.url('/slow')}?timeout=10s": context canceled`);
      assert.ok(err instanceof WebhookPostError && err.canceled && !err.deadlineExceeded);
      const calls = server.calls('/slow');
      const already = await failure(
        post({ url: server.url('/slow'), caBundle: server.caBundle }, review().review, {
          timeoutMs: 10_000,
          signal: AbortSignal.abort(),
        }),
      );
      assert.equal(already.message, `Post "${server.url('/slow')}?timeout=10s": context canceled`);
      assert.equal(server.calls('/slow'), calls);
    } finally {
      post.close();
    }
  });

  it('words answers outside 200-206 as client-go does', async () => {
    const post = webhookPoster({ resolveService: noServices });
    const status = async (answer: RawAnswer): Promise<StatusError> => {
      server.handle('/raw', () => answer);
      const err = await failure(
        post({ url: server.url('/raw'), caBundle: server.caBundle }, review().review),
      );
      assert.ok(err instanceof StatusError, err.message);
      return err;
    };
    try {
      const boom = await status(new RawAnswer(500, 'boom\n', { 'content-type': 'text/plain' }));
      assert.equal(boom.code, 500);
      assert.equal(boom.reason, 'InternalError');
      assert.equal(boom.message, 'an error on the server ("boom") has prevented the request from succeeding');
      assert.deepEqual(boom.status.details, {
        causes: [{ reason: 'UnexpectedServerResponse', message: 'boom' }],
      });
      const json = await status(new RawAnswer(500, '{"a":1}', { 'content-type': 'application/json' }));
      assert.equal(
        json.message,
        'an error on the server ("unknown") has prevented the request from succeeding',
      );
      const notFound = await status(new RawAnswer(404, 'nope', { 'content-type': 'text/plain' }));
      assert.equal(notFound.message, 'the server could not find the requested resource');
      assert.equal(notFound.reason, 'NotFound');
      const forbidden = await status(new RawAnswer(403, 'go away', { 'content-type': 'text/plain' }));
      assert.equal(forbidden.message, 'go away');
      const teapot = await status(new RawAnswer(418, 'tea', { 'content-type': 'text/plain' }));
      assert.equal(
        teapot.message,
        'the server responded with the status code 418 but did not return more information',
      );
      assert.equal(teapot.reason, '');
      const busy = await status(new RawAnswer(429, '', { 'retry-after': '7' }));
      assert.equal(
        busy.message,
        'the server has received too many requests and has asked us to try again later',
      );
      assert.equal(busy.status.details?.retryAfterSeconds, 7);
      const statusBody = await status(
        new RawAnswer(
          400,
          JSON.stringify({
            kind: 'Status',
            apiVersion: 'v1',
            status: 'Failure',
            message: 'bad thing',
            reason: 'BadRequest',
            code: 400,
          }),
          { 'content-type': 'application/json' },
        ),
      );
      assert.equal(statusBody.message, 'bad thing');
      assert.equal(statusBody.reason, 'BadRequest');
      assert.equal(statusBody.code, 400);
      // 204 is a success without a body.
      server.handle('/raw', () => new RawAnswer(204));
      const empty = await failure(
        post({ url: server.url('/raw'), caBundle: server.caBundle }, review().review),
      );
      assert.equal(
        empty.message,
        '0-length response with status code: 204 and content type: application/json',
      );
      server.handle('/raw', () => new RawAnswer(200, 'x{', { 'content-type': 'application/json' }));
      const bad = await failure(
        post({ url: server.url('/raw'), caBundle: server.caBundle }, review().review),
      );
      assert.equal(
        bad.message,
        "couldn't get version/kind; json parse error: invalid character 'x' looking for beginning of value",
      );
    } finally {
      post.close();
    }
  });

  it('bounds the answer body', async () => {
    const post = webhookPoster({ resolveService: noServices, maxResponseBytes: 1024 });
    const big = JSON.stringify({ pad: 'x'.repeat(2000) });
    const message =
      'unexpected error when reading response body. Please retry. Original error: the response body exceeds the limit of 1024 bytes';
    try {
      server.handle('/big', () => new RawAnswer(200, big, { 'content-type': 'application/json' }));
      const declared = await failure(
        post({ url: server.url('/big'), caBundle: server.caBundle }, review().review),
      );
      assert.equal(declared.message, message);
      server.handle(
        '/big',
        () => new RawAnswer(200, big, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }),
      );
      const streamed = await failure(
        post({ url: server.url('/big'), caBundle: server.caBundle }, review().review),
      );
      assert.equal(streamed.message, message);
      server.handle(
        '/big',
        () => new RawAnswer(200, JSON.stringify({ pad: 'x' }), { 'content-type': 'application/json' }),
      );
      assert.deepEqual(await post({ url: server.url('/big'), caBundle: server.caBundle }, review().review), {
        pad: 'x',
      });
    } finally {
      post.close();
    }
  });

  it('reports refused connections and unresolvable services as client-go does', async () => {
    const port = await closedPort();
    const post = webhookPoster({
      resolveService: (_ns, name) => Promise.reject(new Error(`service "${name}" not found`)),
    });
    try {
      const refused = await failure(
        post({ url: `https://127.0.0.1:${port}/x`, caBundle: server.caBundle }, review().review, {
          timeoutMs: 10_000,
        }),
      );
      assert.equal(
        refused.message,
        `Post "https://127.0.0.1:${port}/x?timeout=10s": dial tcp 127.0.0.1:${port}: connect: connection refused`,
      );
      const missing = await failure(
        post({ service: { namespace: 'default', name: 'hook', path: '/validate' } }, review().review, {
          timeoutMs: 10_000,
        }),
      );
      assert.equal(
        missing.message,
        'Post "https://hook.default.svc:443/validate?timeout=10s": service "hook" not found',
      );
      const none = await failure(post({}, review().review));
      assert.equal(none.message, 'webhook configuration must have either service or URL');
    } finally {
      post.close();
    }
  });

  it('keeps working for a CRD conversion caller (two arguments, default timeout)', async () => {
    server.handle('/convert', (r) => ({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'ConversionReview',
      response: {
        uid: (r['request'] as JsonObject)['uid'] ?? '',
        result: { status: 'Success' },
        convertedObjects: [],
      },
    }));
    const post = webhookPoster({ resolveService: noServices });
    try {
      const conversionPost: (clientConfig: JsonObject, review: JsonObject) => Promise<unknown> = post;
      const out = await conversionPost(
        { url: server.url('/convert'), caBundle: server.caBundle },
        {
          apiVersion: 'apiextensions.k8s.io/v1',
          kind: 'ConversionReview',
          request: { uid: 'u1', objects: [] },
        },
      );
      assert.equal(((out as JsonObject)['response'] as JsonObject)['uid'], 'u1');
      assert.equal(server.received('/convert').at(-1)?.query, 'timeout=30s');
    } finally {
      post.close();
    }
  });
});
