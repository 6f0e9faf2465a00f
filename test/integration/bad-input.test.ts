/**
 * Integration: bad input on the request path gets a Status error and loses nothing. A bounded,
 * deterministic table of malformed bodies, wrong kinds and types, bad patches, bad query
 * parameters and odd paths/methods, sent to several resources of an in-process server; after each
 * request the answer is a 4xx Status (or the 2xx upstream gives) and /healthz still says ok.
 */
import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../support/server.js';
import type { TestResponse, TestServer } from '../support/server.js';

interface Resource {
  readonly resource: string;
  readonly collection: string;
  readonly apiVersion: string;
  readonly kind: string;
  /** A valid object of the kind (without name). */
  readonly valid: Record<string, unknown>;
  /** Bodies with a wrong type or value deep in the kind's own fields. */
  readonly badFields: readonly Record<string, unknown>[];
}

const podSpec = { containers: [{ name: 'c', image: 'nginx' }] };
const template = { metadata: { labels: { app: 'a' } }, spec: { ...podSpec, restartPolicy: 'Never' } };

const resources: readonly Resource[] = [
  {
    resource: 'configmaps',
    collection: '/api/v1/namespaces/default/configmaps',
    apiVersion: 'v1',
    kind: 'ConfigMap',
    valid: { data: { a: 'b' } },
    badFields: [{ data: { a: 1 } }, { data: [] }, { binaryData: { a: '!!not base64' } }],
  },
  {
    resource: 'pods',
    collection: '/api/v1/namespaces/default/pods',
    apiVersion: 'v1',
    kind: 'Pod',
    valid: { spec: podSpec },
    badFields: [
      { spec: { containers: { name: 'c', image: 'i' } } },
      { spec: { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: '80' }] }] } },
      { spec: { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 1e300 }] }] } },
      { spec: { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: -1 }] }] } },
      { spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: 'lots' } } }] } },
    ],
  },
  {
    resource: 'services',
    collection: '/api/v1/namespaces/default/services',
    apiVersion: 'v1',
    kind: 'Service',
    valid: { spec: { ports: [{ port: 80 }] } },
    badFields: [
      { spec: { ports: [{ port: 'x' }] } },
      { spec: { ports: [{ port: 80, targetPort: {} }] } },
      { spec: { clusterIP: 'not-an-ip', ports: [{ port: 80 }] } },
    ],
  },
  {
    resource: 'namespaces',
    collection: '/api/v1/namespaces',
    apiVersion: 'v1',
    kind: 'Namespace',
    valid: {},
    badFields: [{ spec: { finalizers: 5 } }, { spec: { finalizers: [1] } }],
  },
  {
    resource: 'deployments',
    collection: '/apis/apps/v1/namespaces/default/deployments',
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    valid: { spec: { selector: { matchLabels: { app: 'a' } }, template: { ...template, spec: podSpec } } },
    badFields: [
      { spec: { replicas: 'NaN' } },
      { spec: { replicas: -1, selector: { matchLabels: { app: 'a' } }, template } },
      { spec: { replicas: 1.5 } },
      { spec: { selector: { matchLabels: { a: 1 } } } },
      { spec: { template: 5 } },
    ],
  },
  {
    resource: 'leases',
    collection: '/apis/coordination.k8s.io/v1/namespaces/default/leases',
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    valid: { spec: { holderIdentity: 'h' } },
    badFields: [
      { spec: { leaseDurationSeconds: 'NaN' } },
      { spec: { holderIdentity: 5 } },
      { spec: { acquireTime: '2020-13-45T99:99:99Z' } },
    ],
  },
  {
    resource: 'jobs',
    collection: '/apis/batch/v1/namespaces/default/jobs',
    apiVersion: 'batch/v1',
    kind: 'Job',
    valid: { spec: { template } },
    badFields: [
      { spec: { template, completions: -5 } },
      { spec: { template, backoffLimit: 'x' } },
      {
        spec: {
          template: { spec: { containers: [{ name: 'c', image: 'i', env: [{ name: 'A', valueFrom: 5 }] }] } },
        },
      },
    ],
  },
  {
    resource: 'cronjobs',
    collection: '/apis/batch/v1/namespaces/default/cronjobs',
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    valid: { spec: { schedule: '* * * * *', jobTemplate: { spec: { template } } } },
    badFields: [
      { spec: { schedule: 5 } },
      { spec: { schedule: '*/0 * * * *', jobTemplate: { spec: { template } } } },
      { spec: { schedule: '* * * * *', timeZone: '../../etc/passwd', jobTemplate: { spec: { template } } } },
    ],
  },
];

/** JSON nested `depth` objects deep (built as text: JSON.stringify itself cannot go that deep). */
function nested(depth: number): string {
  return '{"a":'.repeat(depth) + '{}' + '}'.repeat(depth);
}

interface Case {
  readonly method: string;
  readonly path: string;
  readonly raw?: string;
  readonly contentType?: string;
  /** Accepted status codes; default: any 4xx. */
  readonly expect?: readonly number[];
}

const jsonPatch = 'application/json-patch+json';
const mergePatch = 'application/merge-patch+json';
const smPatch = 'application/strategic-merge-patch+json';

function casesFor(r: Resource, existing: string): Case[] {
  const doc = (metadata: unknown, extra: Record<string, unknown> = {}): string =>
    JSON.stringify({ apiVersion: r.apiVersion, kind: r.kind, metadata, ...r.valid, ...extra });
  const post = (raw: string, expect?: readonly number[]): Case => ({
    method: 'POST',
    path: r.collection,
    raw,
    ...(expect !== undefined ? { expect } : {}),
  });
  const obj = `${r.collection}/${existing}`;
  const out: Case[] = [
    // Bodies that are not JSON objects.
    post('not json'),
    post('{"metadata":'),
    post('[]'),
    post('"a string"'),
    post('42'),
    post('null'),
    post(nested(10_000)),
    post('['.repeat(10_000) + ']'.repeat(10_000)),
    // Wrong types at every level.
    post(doc('a string')),
    post(doc(['x'])),
    post(doc({ name: 5 })),
    post(doc({ name: 'x', labels: ['a'] })),
    post(doc({ name: 'x', labels: { a: 1 } })),
    post(doc({ name: 'x', annotations: 'a' })),
    post(doc({ name: 'x', finalizers: [1] })),
    post(doc({ name: 'x', generation: 'x' })),
    // ConfigMap has no spec: an unknown field is dropped with a warning, as upstream does.
    post(doc({ name: 'spec' }, { spec: 5 }), r.resource === 'configmaps' ? [201] : undefined),
    post(doc({ name: 'spec-list' }, { spec: [] }), r.resource === 'configmaps' ? [201] : undefined),
    post(
      `{"apiVersion":"${r.apiVersion}","kind":"${r.kind}","metadata":{"name":"x","generation":99999999999999999999999}}`,
    ),
    post(
      `{"apiVersion":"${r.apiVersion}","kind":"${r.kind}","metadata":{"name":"deep"},"spec":${nested(10_000)}}`,
    ),
    ...r.badFields.map((f) => post(doc({ name: 'bad-field' }, f))),
    // resourceVersion on a create: upstream refuses a numeric one with a reason-less 500 and
    // drops one that does not parse.
    post(doc({ name: 'rv-set', resourceVersion: '5' }), [500]),
    post(doc({ name: `rv-abc-${r.resource}`, resourceVersion: 'abc' }), [201]),
    // Names.
    post(doc({ name: 'a'.repeat(300) })),
    post(doc({ name: 'ünïcødé' })),
    post(doc({ name: '' })),
    post(doc({ name: 'a/b' })),
    post(doc({ name: '..' })),
    post(doc({ generateName: 'a'.repeat(300) })),
    post(doc({ generateName: 'gen-' }), [201]),
    post(doc({ name: `both-${r.resource}`, generateName: 'gen-' }), [201]),
    // Wrong apiVersion/kind.
    post(JSON.stringify({ apiVersion: 'v9', kind: r.kind, metadata: { name: 'x' } })),
    post(JSON.stringify({ apiVersion: r.apiVersion, kind: 'Wrong', metadata: { name: 'x' } })),
    post(JSON.stringify({ apiVersion: 5, kind: r.kind, metadata: { name: 'x' } })),
    post(JSON.stringify({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'x' } })),
    // YAML that is no document, and a self-referencing alias.
    { method: 'POST', path: r.collection, raw: 'a: [', contentType: 'application/yaml' },
    { method: 'POST', path: r.collection, raw: 'a: &a [*a]', contentType: 'application/yaml' },
    { method: 'POST', path: r.collection, raw: '{}', contentType: 'text/plain' },
    // PUT.
    { method: 'PUT', path: obj, raw: 'x' },
    { method: 'PUT', path: obj, raw: '[]' },
    { method: 'PUT', path: obj, raw: doc({ name: 'other-name' }) },
    { method: 'PUT', path: obj, raw: doc({ name: existing, resourceVersion: '1' }) },
    { method: 'PUT', path: obj, raw: doc({ name: existing }, { metadata: 5 }) },
    // The scale subresource must not read a bad body as "replicas: 0".
    ...(r.resource === 'deployments'
      ? [
          { method: 'PUT', path: `${obj}/scale`, raw: '[]' },
          { method: 'PUT', path: `${obj}/scale`, raw: '{}' },
          { method: 'PUT', path: `${obj}/scale`, raw: 'x' },
          { method: 'PATCH', path: `${obj}/scale`, raw: 'x', contentType: mergePatch },
          { method: 'PATCH', path: `${obj}/scale`, raw: '5', contentType: mergePatch },
          { method: 'PATCH', path: `${obj}/scale`, raw: '{}', contentType: 'text/plain' },
        ]
      : []),
    // PATCH, each type with bodies it cannot apply.
    { method: 'PATCH', path: obj, raw: 'x', contentType: jsonPatch },
    { method: 'PATCH', path: obj, raw: '{}', contentType: jsonPatch },
    { method: 'PATCH', path: obj, raw: '[{"op":"bogus","path":"/a"}]', contentType: jsonPatch },
    { method: 'PATCH', path: obj, raw: '[{"op":"add","path":"no-slash","value":1}]', contentType: jsonPatch },
    { method: 'PATCH', path: obj, raw: '[{"op":"remove","path":"/nope/deeper"}]', contentType: jsonPatch },
    {
      method: 'PATCH',
      path: obj,
      raw: '[{"op":"replace","path":"/metadata","value":5}]',
      contentType: jsonPatch,
    },
    // Upstream's json-patch ignores a non-object replacement of the whole document.
    {
      method: 'PATCH',
      path: obj,
      raw: '[{"op":"replace","path":"","value":null}]',
      contentType: jsonPatch,
      expect: [200],
    },
    {
      method: 'PATCH',
      path: obj,
      raw: '[{"op":"test","path":"/metadata/name","value":"z"}]',
      contentType: jsonPatch,
    },
    {
      method: 'PATCH',
      path: obj,
      raw: '[{"op":"replace","path":"/kind","value":"Other"}]',
      contentType: jsonPatch,
    },
    { method: 'PATCH', path: obj, raw: '5', contentType: mergePatch },
    { method: 'PATCH', path: obj, raw: '"s"', contentType: mergePatch },
    { method: 'PATCH', path: obj, raw: '{"metadata":5}', contentType: mergePatch },
    { method: 'PATCH', path: obj, raw: '{"metadata":{"labels":[1]}}', contentType: mergePatch },
    { method: 'PATCH', path: obj, raw: '{"metadata":{"name":"renamed"}}', contentType: mergePatch },
    { method: 'PATCH', path: obj, raw: `{"spec":${nested(10_000)}}`, contentType: mergePatch },
    { method: 'PATCH', path: obj, raw: `{"metadata":{"labels":${nested(999)}}}`, contentType: mergePatch },
    { method: 'PATCH', path: obj, raw: '[]', contentType: smPatch },
    { method: 'PATCH', path: obj, raw: '{"metadata":{"$patch":"delete"}}', contentType: smPatch },
    {
      method: 'PATCH',
      path: obj,
      raw: '{"metadata":{"finalizers":[{"$patch":"delete"}]}}',
      contentType: smPatch,
    },
    // An order list for a list the patch does not touch changes nothing (the object keeps its RV).
    {
      method: 'PATCH',
      path: obj,
      raw: '{"metadata":{"$setElementOrder/finalizers":[{"x":1}]}}',
      contentType: smPatch,
      expect: [200],
    },
    // Upstream passes this strategic-merge error through unconverted: 500 with no reason.
    {
      method: 'PATCH',
      path: obj,
      raw: '{"metadata":{"$setElementOrder/finalizers":{}}}',
      contentType: smPatch,
      expect: [500],
    },
    // A directive for a list the object does not have is a no-op (the object keeps its RV).
    {
      method: 'PATCH',
      path: obj,
      raw: '{"metadata":{"$deleteFromPrimitiveList/finalizers":5}}',
      contentType: smPatch,
      expect: [200, 400],
    },
    { method: 'PATCH', path: obj, raw: `{"spec":${nested(10_000)}}`, contentType: smPatch },
    { method: 'PATCH', path: obj, raw: '{}', contentType: 'text/plain' },
    { method: 'PATCH', path: `${r.collection}/missing`, raw: '{}', contentType: mergePatch },
    // DELETE bodies that are no DeleteOptions.
    { method: 'DELETE', path: `${r.collection}/missing`, raw: 'x' },
    { method: 'DELETE', path: `${r.collection}/missing`, raw: '[]' },
    { method: 'DELETE', path: obj, raw: '{"propagationPolicy":"Bogus"}' },
    { method: 'DELETE', path: obj, raw: `{"preconditions":{"uid":"not-the-uid"}}` },
    { method: 'DELETE', path: obj, raw: `{"preconditions":{"resourceVersion":"1"}}` },
    { method: 'DELETE', path: `${obj}?gracePeriodSeconds=x` },
    // Query parameters.
    ...[
      'limit=abc',
      'limit=99999999999999999999',
      'resourceVersion=abc',
      'resourceVersion=99999999999999999999999',
      'resourceVersionMatch=Bogus&resourceVersion=1',
      'watch=1&timeoutSeconds=x',
      'watch=1&resourceVersion=abc',
      'fieldSelector=a==b==c',
      'fieldSelector=bogus.field=1',
      'labelSelector=(((',
      'labelSelector=a%20in%20(',
      'continue=abc',
    ].map((q): Case => ({ method: 'GET', path: `${r.collection}?${q}` })),
    { method: 'GET', path: `${r.collection}?limit=-1`, expect: [200] },
    { method: 'GET', path: `${r.collection}?limit=9223372036854775807`, expect: [200] },
    { method: 'GET', path: `${r.collection}?watch=1&timeoutSeconds=-1`, expect: [200] },
    { method: 'GET', path: `${obj}?resourceVersion=abc` },
    { method: 'POST', path: `${r.collection}?fieldValidation=Bogus`, raw: doc({ name: 'fv' }) },
    // Paths and methods.
    { method: 'GET', path: `${obj}/bogus` },
    { method: 'PUT', path: `${obj}/bogus`, raw: '{}' },
    { method: 'POST', path: obj, raw: doc({ name: existing }) },
    { method: 'GET', path: `${r.collection}/a%2Fb` },
    { method: 'PUT', path: `${r.collection}/a%2Fb`, raw: doc({ name: 'a/b' }) },
    // Dot segments must not resolve to another path (`.../configmaps/..` is the namespace).
    { method: 'GET', path: `${r.collection}/%2e%2e` },
    { method: 'DELETE', path: `${r.collection}/%2e%2e` },
    { method: 'DELETE', path: `${r.collection}/%2E%2e/%2e%2e/kube-system` },
    { method: 'PUT', path: `${r.collection}/.`, raw: doc({ name: '.' }) },
    { method: 'GET', path: `${r.collection}/%E2%82` },
    { method: 'OPTIONS', path: obj },
    { method: 'TRACE', path: r.collection },
  ];
  return out;
}

describe('bad input gets a Status error and loses nothing', () => {
  let s: TestServer;
  const existing = new Map<string, { name: string; resourceVersion: string }>();

  before(async () => {
    s = await startTestServer({ controllers: false });
    for (const r of resources) {
      const name = `fz-${r.resource}`;
      const res = await s.request('POST', r.collection, {
        body: { apiVersion: r.apiVersion, kind: r.kind, metadata: { name }, ...r.valid },
      });
      assert.equal(res.status, 201, `${r.resource}: ${res.text}`);
      const meta = res.json<{ metadata: { resourceVersion: string } }>().metadata;
      existing.set(r.resource, { name, resourceVersion: meta.resourceVersion });
    }
  });
  after(() => s.stop());

  function describeCase(c: Case): string {
    return `${c.method} ${c.path.slice(0, 120)} ${c.contentType ?? ''} ${(c.raw ?? '').slice(0, 100)}`;
  }

  async function send(c: Case): Promise<TestResponse> {
    return s.request(c.method, c.path, {
      ...(c.raw !== undefined ? { raw: c.raw } : {}),
      ...(c.contentType !== undefined ? { contentType: c.contentType } : {}),
    });
  }

  function checkAnswer(c: Case, r: TestResponse): void {
    const what = `${describeCase(c)} => ${r.status} ${r.text.slice(0, 300)}`;
    if (c.expect !== undefined) assert.ok(c.expect.includes(r.status), what);
    else assert.ok(r.status >= 400 && r.status < 500, what);
    if (r.status < 400) return;
    let body: Record<string, unknown>;
    try {
      body = r.json();
    } catch {
      assert.fail(`not JSON: ${what}`);
    }
    assert.equal(body['kind'], 'Status', what);
    assert.equal(body['apiVersion'], 'v1', what);
    assert.equal(body['status'], 'Failure', what);
    assert.equal(body['code'], r.status, what);
    assert.equal(typeof body['message'], 'string', what);
    // Never an InternalError for a client mistake; the upstream pass-through 500s carry no reason.
    if (r.status === 500) assert.equal(body['reason'], undefined, what);
  }

  for (const r of resources) {
    it(`${r.resource}: every bad request answers a Status, the server stays healthy`, async () => {
      const target = existing.get(r.resource)!;
      for (const c of casesFor(r, target.name)) {
        checkAnswer(c, await send(c));
        const health = await s.request('GET', '/healthz');
        assert.equal(health.text, 'ok', `healthz after ${describeCase(c)}`);
      }
      // Nothing rejected was written: the existing object is unchanged, rejected names absent.
      const got = await s.request('GET', `${r.collection}/${target.name}`);
      assert.equal(got.status, 200);
      assert.equal(
        got.json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion,
        target.resourceVersion,
      );
      for (const name of [
        'x',
        'deep',
        'rv-set',
        'bad-field',
        'fv',
        'a'.repeat(300),
        'other-name',
        'renamed',
      ]) {
        const absent = await s.request('GET', `${r.collection}/${name}`);
        assert.equal(absent.status, 404, `${r.resource}/${name}: ${absent.text.slice(0, 200)}`);
      }
    });
  }

  it('the namespaces a dot-segment path points at are still there', async () => {
    for (const ns of ['default', 'kube-system']) {
      const r = await s.request('GET', `/api/v1/namespaces/${ns}`);
      assert.equal(r.status, 200, r.text);
      assert.equal(
        r.json<{ metadata: { deletionTimestamp?: string } }>().metadata.deletionTimestamp,
        undefined,
      );
    }
  });

  it('watches whose client goes away are released (200 opened and aborted)', async () => {
    const timers = (): number => process.getActiveResourcesInfo().filter((x) => x === 'Timeout').length;
    const baseline = timers();
    const openWatch = (i: number) =>
      new Promise<() => void>((resolve, reject) => {
        const req = httpsRequest(
          {
            host: '127.0.0.1',
            port: s.port,
            method: 'GET',
            path: `/api/v1/namespaces/default/configmaps?watch=1&labelSelector=w%3D${i}`,
            ca: s.pki.caCert,
            cert: s.pki.adminCert,
            key: s.pki.adminKey,
            agent: false,
          },
          (res) => {
            assert.equal(res.statusCode, 200);
            resolve(() => req.destroy());
          },
        );
        req.on('error', (e: NodeJS.ErrnoException) => {
          if (e.code !== 'ECONNRESET') reject(e);
        });
        req.end();
      });
    for (let round = 0; round < 4; round++) {
      const closers = await Promise.all(Array.from({ length: 50 }, (_, i) => openWatch(round * 50 + i)));
      // Each open watch holds its timeout timer in the server.
      assert.ok(timers() >= baseline + 50, `open watches hold timers: ${timers()} vs ${baseline}`);
      for (const close of closers) close();
      const deadline = Date.now() + 5000;
      while (timers() > baseline + 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.ok(timers() <= baseline + 5, `round ${round}: ${timers()} timers left, baseline ${baseline}`);
    }
    // timeoutSeconds=0 means the server's default, not "end at once".
    const ended = await new Promise<boolean>((resolve, reject) => {
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          port: s.port,
          path: '/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=0',
          ca: s.pki.caCert,
          cert: s.pki.adminCert,
          key: s.pki.adminKey,
          agent: false,
        },
        (res) => {
          let done = false;
          res.on('end', () => (done = true));
          res.resume();
          setTimeout(() => {
            resolve(done);
            req.destroy();
          }, 300);
        },
      );
      req.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code !== 'ECONNRESET') reject(e);
      });
      req.end();
    });
    assert.equal(ended, false);
    // Events still flow to a new watch after the churn.
    const r = await s.request('GET', '/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1');
    assert.equal(r.status, 200);
    assert.equal((await s.request('GET', '/healthz')).text, 'ok');
  });

  it('HEAD answers without a body and leaves the server healthy', async () => {
    const r = await s.request('HEAD', '/api/v1/namespaces/default/configmaps');
    assert.equal(r.status, 200);
    assert.equal(r.text, '');
    const missing = await s.request('HEAD', '/api/v1/namespaces/default/configmaps/missing');
    assert.equal(missing.status, 404);
    assert.equal((await s.request('GET', '/healthz')).text, 'ok');
  });
});
