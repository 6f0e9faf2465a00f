/**
 * Integration: admission webhooks called for real requests, over HTTPS, by servers
 * running inside the test with a CA the test makes: a validating refusal, a mutating JSONPatch,
 * reinvocation (IfNeeded), timeouts under both failure policies, matchConditions that skip the
 * call (AM-08), a `service` reference reached through a hand-made EndpointSlice, a caBundle that
 * does not verify the server, dry run and side effects, warnings and audit annotations.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  admissionResponse,
  hostAddress,
  makeTestCertificates,
  startWebhookServer,
  type TestWebhookServer,
} from '../../src/admission/testing/webhook-server.js';
import type { JsonObject } from '../../src/util/json.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { waitFor } from '../support/poll.js';

type Json = Record<string, unknown>;
const v1 = '/apis/admissionregistration.k8s.io/v1';
const configMaps = (ns: string): string => `/api/v1/namespaces/${ns}/configmaps`;

function configMap(name: string, labels: Record<string, string> = {}): Json {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data: { k: 'v' } };
}

function hook(name: string, clientConfig: Json, extra: Json = {}): Json {
  return {
    name,
    clientConfig,
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    namespaceSelector: { matchLabels: { webhooks: 'on' } },
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    timeoutSeconds: 2,
    ...extra,
  };
}

describe('admission webhooks', () => {
  let s: TestServer;
  let w: TestWebhookServer;
  let probe = 0;
  before(async () => {
    s = await startTestServer({
      controllers: false,
      nodes: 0,
      featureGates: { AdmissionWebhookMatchConditions: true },
    });
    w = await startWebhookServer({
      dnsNames: ['hook.default.svc'],
      ...(hostAddress() !== undefined ? { listen: hostAddress()! } : {}),
    });
    const r = await s.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'wh', labels: { webhooks: 'on' } } },
    });
    assert.equal(r.status, 201, r.text);
  });
  after(async () => {
    await s.stop();
    await w.close();
  });

  const url = (path: string): Json => ({ url: w.url(path), caBundle: w.caBundle });

  /** Writes a configuration and waits until requests reach it (the server reads a watch cache). */
  async function install(
    kind: 'Validating' | 'Mutating',
    name: string,
    webhooks: Json[],
    path: string,
  ): Promise<void> {
    const r = await s.request('POST', `${v1}/${kind.toLowerCase()}webhookconfigurations`, {
      body: {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: `${kind}WebhookConfiguration`,
        metadata: { name },
        webhooks,
      },
    });
    assert.equal(r.status, 201, r.text);
    const before = w.calls(path);
    await waitFor(`${name} to be called`, async () => {
      probe++;
      await s.request('POST', configMaps('wh'), { body: configMap(`probe-${probe}`), headers: {} });
      return w.calls(path) > before;
    });
  }
  async function uninstall(kind: 'Validating' | 'Mutating', name: string): Promise<void> {
    const r = await s.request('DELETE', `${v1}/${kind.toLowerCase()}webhookconfigurations/${name}`);
    assert.equal(r.status, 200, r.text);
  }

  it('a validating webhook refuses with its message, and passes its warnings and audit annotations', async () => {
    w.handle('/deny', (review) => {
      const request = review['request'] as JsonObject;
      const name = (request['object'] as { metadata: { name: string } }).metadata.name;
      if (name.startsWith('bad-')) {
        return admissionResponse(review, {
          allowed: false,
          status: { code: 403, message: `${name} is not welcome` },
        });
      }
      return admissionResponse(review, {
        warnings: ['checked by the test'],
        auditAnnotations: { seen: name },
      });
    });
    await install('Validating', 'deny', [hook('deny.example.com', url('/deny'))], '/deny');
    const denied = await s.request('POST', configMaps('wh'), { body: configMap('bad-one') });
    assert.equal(denied.status, 403, denied.text);
    assert.equal(
      denied.json()['message'],
      'admission webhook "deny.example.com" denied the request: bad-one is not welcome',
    );
    const ok = await s.request('POST', configMaps('wh'), { body: configMap('good-one') });
    assert.equal(ok.status, 201, ok.text);
    assert.deepEqual(ok.warnings, ['checked by the test']);
    const review = w.received('/deny').at(-1)!.review;
    assert.equal(review['apiVersion'], 'admission.k8s.io/v1');
    const request = review['request'] as Json;
    assert.deepEqual(request['kind'], { group: '', version: 'v1', kind: 'ConfigMap' });
    assert.equal(request['operation'], 'CREATE');
    assert.equal(request['namespace'], 'wh');
    // Outside the namespace selector: not called.
    const calls = w.calls('/deny');
    assert.equal(
      (await s.request('POST', configMaps('default'), { body: configMap('bad-elsewhere') })).status,
      201,
    );
    assert.equal(w.calls('/deny'), calls);
    await uninstall('Validating', 'deny');
  });

  it('a mutating webhook patches the object; IfNeeded webhooks are reinvoked after a later change', async () => {
    w.handle('/observe', (review) => admissionResponse(review));
    w.handle('/label', (review) => {
      const labels =
        ((review['request'] as JsonObject)['object'] as { metadata: { labels?: Record<string, string> } })
          .metadata.labels ?? {};
      if ('mutated' in labels) return admissionResponse(review);
      // (an empty labels map is not sent: the first label makes the map)
      const patch =
        Object.keys(labels).length === 0
          ? { op: 'add', path: '/metadata/labels', value: { mutated: 'yes' } }
          : { op: 'add', path: '/metadata/labels/mutated', value: 'yes' };
      return admissionResponse(review, {
        patch: [patch],
      });
    });
    await install(
      'Mutating',
      'mutate',
      [
        hook('observe.example.com', url('/observe'), { reinvocationPolicy: 'IfNeeded' }),
        hook('label.example.com', url('/label'), { reinvocationPolicy: 'Never' }),
      ],
      '/label',
    );
    const observed = w.calls('/observe');
    const labelled = w.calls('/label');
    const r = await s.request('POST', configMaps('wh'), { body: configMap('to-mutate', { app: 'x' }) });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json<{ metadata: { labels: Json } }>().metadata.labels, { app: 'x', mutated: 'yes' });
    // observe ran before the patch and again after it (reinvocation); label only once.
    assert.equal(w.calls('/observe') - observed, 2);
    assert.equal(w.calls('/label') - labelled, 1);
    const second = w.received('/observe').at(-1)!.review;
    assert.equal(
      ((second['request'] as JsonObject)['object'] as { metadata: { labels: Json } }).metadata.labels[
        'mutated'
      ],
      'yes',
    );
    await uninstall('Mutating', 'mutate');
  });

  it('a webhook that does not answer in time: Ignore admits, Fail refuses', async () => {
    w.handle('/ok', (review) => admissionResponse(review));
    w.handle('/slow', (review) => admissionResponse(review), { delayMs: Infinity });
    await install(
      'Validating',
      'slow',
      [
        hook('ok.example.com', url('/ok')),
        hook('slow.example.com', url('/slow'), { timeoutSeconds: 3, failurePolicy: 'Ignore' }),
      ],
      '/ok',
    );
    // While a create waits for the hanging webhook, other writes go through.
    let settled = false;
    const pending = s.request('POST', configMaps('wh'), { body: configMap('slow-ignored') }).finally(() => {
      settled = true;
    });
    const other = await s.request('POST', configMaps('default'), { body: configMap('meanwhile') });
    assert.equal(other.status, 201, other.text);
    assert.equal(settled, false);
    const ignored = await pending;
    assert.equal(ignored.status, 201, ignored.text);
    // The request's own deadline bounds the call: a timeout, and nothing written.
    const late = await s.request('POST', `${configMaps('wh')}?timeout=1s`, { body: configMap('too-late') });
    assert.equal(late.status, 504, late.text);
    assert.equal(late.json()['reason'], 'Timeout');
    // Past the webhook's own 3 s too: the abandoned create was not completed behind the client's back.
    await new Promise((r) => setTimeout(r, 3500));
    assert.equal((await s.request('GET', `${configMaps('wh')}/too-late`)).status, 404);
    await uninstall('Validating', 'slow');
    await install(
      'Validating',
      'slow-fail',
      [
        hook('ok.example.com', url('/ok')),
        hook('slow.example.com', url('/slow'), { timeoutSeconds: 1, failurePolicy: 'Fail' }),
      ],
      '/ok',
    );
    const refused = await s.request('POST', configMaps('wh'), { body: configMap('slow-refused') });
    assert.equal(refused.status, 500, refused.text);
    assert.equal(refused.json()['reason'], 'InternalError');
    assert.match(
      String(refused.json()['message']),
      /^Internal error occurred: failed calling webhook "slow\.example\.com": failed to call webhook: Post "https:\/\/[^"]+\/slow\?timeout=1s": context deadline exceeded/,
    );
    await uninstall('Validating', 'slow-fail');
  });

  it('matchConditions skip the call (AM-08)', async () => {
    w.handle('/conditional', (review) =>
      admissionResponse(review, { allowed: false, status: { message: 'called' } }),
    );
    w.handle('/ok2', (review) => admissionResponse(review));
    await install(
      'Validating',
      'conditional',
      [
        hook('ok2.example.com', url('/ok2')),
        hook('conditional.example.com', url('/conditional'), {
          matchConditions: [
            { name: 'not-skipped', expression: "!(object.metadata.name.startsWith('skip-'))" },
            { name: 'not-probe', expression: "!(object.metadata.name.startsWith('probe-'))" },
          ],
        }),
      ],
      '/ok2',
    );
    const before = w.calls('/conditional');
    const skipped = await s.request('POST', configMaps('wh'), { body: configMap('skip-me') });
    assert.equal(skipped.status, 201, skipped.text);
    assert.equal(w.calls('/conditional'), before);
    const called = await s.request('POST', configMaps('wh'), { body: configMap('call-me') });
    assert.equal(called.status, 400, called.text);
    assert.equal(
      called.json()['message'],
      'admission webhook "conditional.example.com" denied the request: called',
    );
    assert.equal(w.calls('/conditional'), before + 1);
    await uninstall('Validating', 'conditional');
  });

  it('a service reference reaches the webhook through a hand-made EndpointSlice', async (t) => {
    const address = hostAddress();
    if (address === undefined) {
      t.skip('this host has no non-loopback IPv4 address for an EndpointSlice');
      return;
    }
    w.handle('/svc', (review) =>
      admissionResponse(review, { allowed: false, status: { message: 'via the service' } }),
    );
    const svc = await s.request('POST', '/api/v1/namespaces/default/services', {
      body: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'hook' },
        spec: { ports: [{ name: 'https', port: 443 }] },
      },
    });
    assert.equal(svc.status, 201, svc.text);
    const slice = await s.request('POST', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', {
      body: {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: { name: 'hook-1', labels: { 'kubernetes.io/service-name': 'hook' } },
        addressType: 'IPv4',
        endpoints: [{ addresses: [address] }],
        ports: [{ name: 'https', port: w.port }],
      },
    });
    assert.equal(slice.status, 201, slice.text);
    const config = {
      service: { namespace: 'default', name: 'hook', path: '/svc', port: 443 },
      caBundle: w.caBundle,
    };
    await install('Validating', 'svc', [hook('svc.example.com', config)], '/svc');
    const r = await s.request('POST', configMaps('wh'), { body: configMap('through-service') });
    assert.equal(r.status, 400, r.text);
    assert.equal(
      r.json()['message'],
      'admission webhook "svc.example.com" denied the request: via the service',
    );
    await uninstall('Validating', 'svc');
  });

  it('a caBundle that does not verify the server refuses the call', async () => {
    const other = await makeTestCertificates();
    w.handle('/untrusted', (review) => admissionResponse(review));
    const r = await s.request('POST', `${v1}/validatingwebhookconfigurations`, {
      body: {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        metadata: { name: 'untrusted' },
        webhooks: [hook('untrusted.example.com', { url: w.url('/untrusted'), caBundle: other.caBundle })],
      },
    });
    assert.equal(r.status, 201, r.text);
    const refused = await waitFor('the configuration to apply', async () => {
      probe++;
      const x = await s.request('POST', configMaps('wh'), { body: configMap(`probe-${probe}`) });
      return x.status === 500 ? x : undefined;
    });
    assert.match(
      String(refused.json()['message']),
      /failed calling webhook "untrusted\.example\.com": failed to call webhook: Post "[^"]+": tls: failed to verify certificate: x509: certificate signed by unknown authority/,
    );
    assert.equal(w.calls('/untrusted'), 0);
    await uninstall('Validating', 'untrusted');
  });

  it('a dry run refuses webhooks with side effects', async () => {
    w.handle('/effects', (review) => admissionResponse(review));
    await install(
      'Validating',
      'effects',
      [hook('effects.example.com', url('/effects'), { sideEffects: 'NoneOnDryRun' })],
      '/effects',
    );
    const r = await s.request('PATCH', `${v1}/validatingwebhookconfigurations/effects`, {
      body: { webhooks: [hook('effects.example.com', url('/effects'), { sideEffects: 'Some' })] },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(r.status, 422, r.text);
    // NoneOnDryRun is called on a dry run.
    const before = w.calls('/effects');
    const dry = await s.request('POST', `${configMaps('wh')}?dryRun=All`, { body: configMap('dry') });
    assert.equal(dry.status, 201, dry.text);
    assert.equal(w.calls('/effects'), before + 1);
    await uninstall('Validating', 'effects');
  });

  it('deletes: mutating webhooks are called without objects, validating ones with the stored object', async () => {
    w.handle('/guard-delete', (review) => {
      const request = review['request'] as JsonObject;
      const protectedName = typeof request['name'] === 'string' && request['name'].startsWith('keep-');
      return admissionResponse(review, protectedName ? { allowed: false, status: { message: 'kept' } } : {});
    });
    w.handle('/see-delete', (review) => admissionResponse(review));
    const onDelete = {
      rules: [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    };
    const created = await s.request('POST', `${v1}/mutatingwebhookconfigurations`, {
      body: {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'MutatingWebhookConfiguration',
        metadata: { name: 'guard-delete' },
        webhooks: [hook('guard.example.com', url('/guard-delete'), onDelete)],
      },
    });
    assert.equal(created.status, 201, created.text);
    const seen = await s.request('POST', `${v1}/validatingwebhookconfigurations`, {
      body: {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        metadata: { name: 'see-delete' },
        webhooks: [hook('see.example.com', url('/see-delete'), onDelete)],
      },
    });
    assert.equal(seen.status, 201, seen.text);
    for (const name of ['keep-me', 'drop-me']) {
      assert.equal((await s.request('POST', configMaps('wh'), { body: configMap(name) })).status, 201);
    }
    const refused = await waitFor('the delete webhook to apply', async () => {
      const r = await s.request('DELETE', `${configMaps('wh')}/keep-me`);
      return r.status === 400 ? r : undefined;
    });
    assert.equal(refused.json()['message'], 'admission webhook "guard.example.com" denied the request: kept');
    assert.equal((await s.request('DELETE', `${configMaps('wh')}/drop-me`)).status, 200);
    const mutatingReview = w.received('/guard-delete').at(-1)!.review['request'] as Json;
    assert.equal(mutatingReview['operation'], 'DELETE');
    assert.equal(mutatingReview['object'], null);
    assert.equal(mutatingReview['oldObject'], null);
    assert.equal((mutatingReview['options'] as Json)['kind'], 'DeleteOptions');
    const validatingReview = w.received('/see-delete').at(-1)!.review['request'] as Json;
    assert.equal((validatingReview['oldObject'] as { metadata: { name: string } }).metadata.name, 'drop-me');
    await uninstall('Mutating', 'guard-delete');
    await uninstall('Validating', 'see-delete');
  });

  it('metrics count calls and rejections with upstream names', async () => {
    const metrics = (await s.request('GET', '/metrics', { accept: 'text/plain' })).text;
    assert.match(
      metrics,
      /^apiserver_admission_webhook_rejection_count\{error_type="no_error",name="deny\.example\.com",operation="CREATE",rejection_code="403",type="validating"\} [1-9]/m,
    );
    assert.match(
      metrics,
      /^apiserver_admission_webhook_request_total\{code="200",name="label\.example\.com",operation="CREATE",rejected="false",type="admit"\} [1-9]/m,
    );
    assert.match(
      metrics,
      /^apiserver_admission_webhook_admission_duration_seconds_bucket\{le="0\.005",name="observe\.example\.com",operation="CREATE",rejected="false",type="admit"\}/m,
    );
    assert.match(
      metrics,
      /^apiserver_admission_webhook_fail_open_count\{name="slow\.example\.com",type="validating"\} [1-9]/m,
    );
  });
});
