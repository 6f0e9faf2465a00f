import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SimHttpRequest, SimHttpResponse } from '../../machinery/http-exchange.js';
import { HandlerPanic } from './http-answer.js';
import type { ServeContext } from './http-answer.js';
import { admissionWebhookServe, crdConversionServe } from './webhook-servers.js';

const now = Date.UTC(2026, 0, 2, 3, 4, 5);

const ctx = {
  hostname: 'sample-webhook-0',
  podIP: '10.244.0.5',
  fs: { read: () => undefined },
  state: new Map(),
  log: () => undefined,
  net: {
    resolve: () => [],
    tcp: () => '',
    udp: () => undefined,
    http: () => {
      throw new Error('no network in these tests');
    },
  },
  get: () => {
    throw new Error('no network in these tests');
  },
  now,
} satisfies ServeContext;

function post(path: string, body: unknown, headers: Record<string, string> = {}): SimHttpRequest {
  return {
    method: 'POST',
    path,
    rawQuery: 'timeout=10s',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    tls: true,
  };
}

function review(request: Record<string, unknown>, apiVersion = 'admission.k8s.io/v1'): unknown {
  return {
    apiVersion,
    kind: 'AdmissionReview',
    request: { uid: 'u-1', resource: { group: '', version: 'v1', resource: 'configmaps' }, ...request },
  };
}

function responseOf(r: SimHttpResponse): Record<string, unknown> {
  assert.equal(r.status, 200, r.body);
  return (JSON.parse(r.body) as { response: Record<string, unknown> }).response;
}

const serve = admissionWebhookServe('');

describe('agnhost webhook (AdmissionWebhook specs)', () => {
  it('answers /readyz and Go 404s elsewhere', () => {
    assert.equal(serve({ ...post('/readyz', ''), method: 'GET' }, ctx).body, 'ok');
    const missing = serve(post('/nope', review({})), ctx);
    assert.equal(missing.status, 404);
    assert.equal(missing.body, '404 page not found\n');
  });

  it('leaves a request that is not application/json unanswered (an empty 200), as serve() does', () => {
    const r = serve(
      post('/always-deny', review({}), { 'content-type': 'application/json; charset=utf-8' }),
      ctx,
    );
    assert.equal(r.status, 200);
    assert.equal(r.body, '');
  });

  it('refuses bodies it cannot decode with 400 and the decoder error', () => {
    const r = serve(post('/always-deny', '{"apiVersion":"v1"}'), ctx);
    assert.equal(r.status, 400);
    assert.equal(r.body, `Request could not be decoded: Object 'Kind' is missing in '{"apiVersion":"v1"}'\n`);
    const pod = serve(post('/always-deny', { apiVersion: 'v1', kind: 'Pod' }), ctx);
    assert.equal(pod.body, 'Unsupported group version kind: /v1, Kind=Pod\n');
  });

  it('always-deny answers in the review version asked, with its uid and Go field order', () => {
    const r = serve(post('/always-deny', review({}, 'admission.k8s.io/v1beta1')), ctx);
    assert.equal(r.headers['Content-Type'], 'application/json');
    assert.equal(
      r.body,
      '{"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1beta1","response":{"uid":"u-1","allowed":false,"status":{"metadata":{},"message":"this webhook denies all requests"}}}',
    );
  });

  it('/pods refuses unwanted labels and container names, and never answers wait-forever', () => {
    const pods = { group: '', version: 'v1', resource: 'pods' };
    const bad = {
      metadata: { labels: { 'webhook-e2e-test': 'webhook-disallow' } },
      spec: { containers: [{ name: 'webhook-disallow' }] },
    };
    const r = responseOf(serve(post('/pods', review({ resource: pods, object: bad })), ctx));
    assert.equal(r['allowed'], false);
    assert.deepEqual(r['status'], {
      metadata: {},
      message: 'the pod contains unwanted label; the pod contains unwanted container name;',
    });
    const forever = serve(
      post(
        '/pods',
        review({ resource: pods, object: { metadata: { labels: { 'webhook-e2e-test': 'wait-forever' } } } }),
      ),
      ctx,
    );
    assert.equal(forever.delayMs, Infinity);
    const wrong = responseOf(serve(post('/pods', review({ object: {} })), ctx));
    assert.deepEqual(wrong['status'], { metadata: {}, message: 'expect resource to be { v1 pods}' });
  });

  it('/configmaps refuses by data and by operation; a wrong resource panics the handler', () => {
    const create = responseOf(
      serve(
        post(
          '/configmaps',
          review({ operation: 'CREATE', object: { data: { 'webhook-e2e-test': 'webhook-disallow' } } }),
        ),
        ctx,
      ),
    );
    assert.deepEqual(create, {
      uid: 'u-1',
      allowed: false,
      status: { metadata: {}, reason: 'the configmap contains unwanted key and value' },
    });
    const del = responseOf(
      serve(
        post(
          '/configmaps',
          review({
            operation: 'DELETE',
            oldObject: { data: { 'webhook-e2e-test': 'webhook-nondeletable' } },
          }),
        ),
        ctx,
      ),
    );
    assert.equal(
      (del['status'] as { reason: string }).reason,
      'the configmap cannot be deleted because it contains unwanted key and value',
    );
    assert.throws(
      () =>
        serve(
          post('/configmaps', review({ resource: { group: 'x', version: 'v1', resource: 'configmaps' } })),
          ctx,
        ),
      HandlerPanic,
    );
  });

  it('/mutating-configmaps patches stage 1, then stage 2 (a JSONPatch in base64)', () => {
    const first = responseOf(
      serve(post('/mutating-configmaps', review({ object: { data: { 'mutation-start': 'yes' } } })), ctx),
    );
    assert.equal(first['patchType'], 'JSONPatch');
    const patch = JSON.parse(Buffer.from(String(first['patch']), 'base64').toString()) as unknown;
    assert.deepEqual(patch, [{ op: 'add', path: '/data/mutation-stage-1', value: 'yes' }]);
    const second = responseOf(
      serve(
        post(
          '/mutating-configmaps',
          review({ object: { data: { 'mutation-start': 'yes', 'mutation-stage-1': 'yes' } } }),
        ),
        ctx,
      ),
    );
    assert.deepEqual(JSON.parse(Buffer.from(String(second['patch']), 'base64').toString()), [
      { op: 'add', path: '/data/mutation-stage-2', value: 'yes' },
    ]);
  });

  it('/always-allow-delay-5s answers after five seconds', () => {
    const r = serve(post('/always-allow-delay-5s', review({})), ctx);
    assert.equal(r.delayMs, 5000);
    assert.equal(responseOf(r)['allowed'], true);
  });

  it('/pods/attach refuses stdin attach to container1 of to-be-attached-pod only', () => {
    const attach = (options: Record<string, unknown>): Record<string, unknown> =>
      responseOf(
        serve(
          post(
            '/pods/attach',
            review({
              name: 'to-be-attached-pod',
              resource: { group: '', version: 'v1', resource: 'pods' },
              subResource: 'attach',
              object: { kind: 'PodAttachOptions', apiVersion: 'v1', ...options },
            }),
          ),
          ctx,
        ),
      );
    assert.equal(attach({ stdin: true, container: 'container1' })['allowed'], false);
    assert.equal(attach({ stdin: false, container: 'container1' })['allowed'], true);
  });

  it('/crd refuses a CRD labelled webhook-disallow', () => {
    const crd = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' };
    const r = responseOf(
      serve(
        post(
          '/crd',
          review({
            resource: crd,
            object: { metadata: { labels: { 'webhook-e2e-test': 'webhook-disallow' } } },
          }),
        ),
        ctx,
      ),
    );
    assert.deepEqual(r['status'], { metadata: {}, message: 'the crd contains unwanted label' });
  });
});

describe('agnhost crd-conversion-webhook', () => {
  const convert = crdConversionServe();
  const conversion = (desiredAPIVersion: string, objects: unknown[]): Record<string, unknown> => {
    const r = convert(
      post('/crdconvert', {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'ConversionReview',
        request: { uid: 'c-1', desiredAPIVersion, objects },
      }),
      ctx,
    );
    assert.equal(r.status, 200, r.body);
    return (JSON.parse(r.body) as { response: Record<string, unknown> }).response;
  };

  it('converts v1 hostPort into v2 host and port, and back', () => {
    const up = conversion('stable.example.com/v2', [
      {
        apiVersion: 'stable.example.com/v1',
        kind: 'E2e',
        metadata: { name: 'a' },
        hostPort: 'localhost:8080',
      },
    ]);
    assert.deepEqual(up, {
      uid: 'c-1',
      convertedObjects: [
        {
          apiVersion: 'stable.example.com/v2',
          host: 'localhost',
          kind: 'E2e',
          metadata: { name: 'a' },
          port: '8080',
        },
      ],
      result: { metadata: {}, status: 'Success' },
    });
    const down = conversion('stable.example.com/v1', [
      { apiVersion: 'stable.example.com/v2', kind: 'E2e', metadata: { name: 'a' }, host: 'h' },
    ]);
    assert.deepEqual(down['convertedObjects'], [
      { apiVersion: 'stable.example.com/v1', hostPort: 'h:', kind: 'E2e', metadata: { name: 'a' } },
    ]);
  });

  it('fails the whole review on a bad hostPort or a conversion to the same version', () => {
    const bad = conversion('stable.example.com/v2', [
      { apiVersion: 'stable.example.com/v1', kind: 'E2e', hostPort: 'a:b:c' },
    ]);
    assert.deepEqual(bad, {
      uid: 'c-1',
      convertedObjects: null,
      result: { metadata: {}, status: 'Failure', message: 'invalid hostPort value `a:b:c`' },
    });
    const same = conversion('stable.example.com/v1', [{ apiVersion: 'stable.example.com/v1', kind: 'E2e' }]);
    assert.equal(
      (same['result'] as { message: string }).message,
      'conversion from a version to itself should not call the webhook: stable.example.com/v1',
    );
  });

  it('refuses other content types with 400', () => {
    const r = convert(post('/crdconvert', '{}', { 'content-type': 'text/plain' }), ctx);
    assert.equal(r.status, 400);
    assert.equal(r.body, 'invalid Content-Type header `text/plain`\n');
  });
});
