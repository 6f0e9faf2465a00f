// Unit tests: the webhook dispatchers over a fake transport — patches and reinvocation, failure
// policies, denials, exempt resources, dry run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import { StatusError } from '../../machinery/errors.js';
import type { JsonObject } from '../../util/json.js';
import { admissionChain } from '../chain.js';
import type { WebhookTransport } from '../dependencies.js';
import { attrsOf, testDeps } from '../testing/fake-admission-deps.js';
import { admissionResponse } from '../testing/webhook-server.js';
import { mutatingWebhookPlugin, validatingWebhookPlugin } from './plugins.js';

type Handler = (review: JsonObject) => JsonObject | Promise<JsonObject>;

function transport(handlers: Record<string, Handler>): WebhookTransport & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    post: async (clientConfig, body) => {
      const url = typeof clientConfig['url'] === 'string' ? clientConfig['url'] : '';
      calls.push(url);
      const h = handlers[url];
      if (h === undefined) throw new Error(`Post "${url}": dial tcp: connection refused`);
      return h(body);
    },
    forget: () => undefined,
  };
}

function config(kind: 'Mutating' | 'Validating', name: string, hooks: Record<string, unknown>[]): KubeObject {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: `${kind}WebhookConfiguration`,
    metadata: { name, uid: name, resourceVersion: '1' },
    webhooks: hooks.map((h) => ({
      rules: [{ operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      namespaceSelector: {},
      objectSelector: {},
      matchPolicy: 'Equivalent',
      failurePolicy: 'Fail',
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
      timeoutSeconds: 10,
      ...h,
    })),
  };
}

const cm = (): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'c', namespace: 'ns' },
});
const ns = {
  group: '',
  resource: 'namespaces',
  object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } },
};

function objectOf(review: JsonObject): { metadata: { labels?: Record<string, string> } } {
  return (review['request'] as JsonObject)['object'] as never;
}

test('mutating: patches apply in order; IfNeeded webhooks are called again after a later patch', async () => {
  const t = transport({
    a: (r) => admissionResponse(r),
    b: (r) =>
      objectOf(r).metadata.labels?.['b'] === undefined
        ? admissionResponse(r, { patch: [{ op: 'add', path: '/metadata/labels', value: { b: '1' } }] })
        : admissionResponse(r),
  });
  const deps = {
    ...testDeps({
      objects: [
        ns,
        {
          group: 'admissionregistration.k8s.io',
          resource: 'mutatingwebhookconfigurations',
          object: config('Mutating', 'm', [
            { name: 'a.example.com', clientConfig: { url: 'a' }, reinvocationPolicy: 'IfNeeded' },
            { name: 'b.example.com', clientConfig: { url: 'b' }, reinvocationPolicy: 'Never' },
          ]),
        },
      ],
    }),
    webhooks: t,
  };
  const chain = admissionChain([mutatingWebhookPlugin(deps)]);
  const annotations: Record<string, string> = {};
  const a = {
    ...attrsOf({ resource: 'configmaps', kind: 'ConfigMap', namespace: 'ns', object: cm() }),
    object: cm(),
    addAuditAnnotation: (k: string, v: string) => void (annotations[k] = v),
  };
  await chain.mutate(a);
  assert.deepEqual(a.object.metadata.labels, { b: '1' });
  assert.deepEqual(t.calls, ['a', 'b', 'a']);
  assert.deepEqual(JSON.parse(annotations['mutation.webhook.admission.k8s.io/round_0_index_1']!), {
    configuration: 'm',
    webhook: 'b.example.com',
    mutated: true,
  });
  assert.equal(
    (JSON.parse(annotations['mutation.webhook.admission.k8s.io/round_1_index_0']!) as { mutated: boolean })
      .mutated,
    false,
  );
});

test('validating: denial, call failure under Fail and Ignore, exempt configuration kinds, dry run', async () => {
  const hooks = (extra: Record<string, unknown>) => [
    { name: 'deny.example.com', clientConfig: { url: 'deny' }, ...extra },
  ];
  const t = transport({
    deny: (r) => admissionResponse(r, { allowed: false, status: { reason: 'NotAllowed' } }),
  });
  const with_ = (extra: Record<string, unknown>) => ({
    ...testDeps({
      objects: [
        ns,
        {
          group: 'admissionregistration.k8s.io',
          resource: 'validatingwebhookconfigurations',
          object: config('Validating', 'v', hooks(extra)),
        },
      ],
    }),
    webhooks: t,
  });
  const a = attrsOf({ resource: 'configmaps', kind: 'ConfigMap', namespace: 'ns', object: cm() });
  const denied = await validatingWebhookPlugin(with_({})).validate!(a)?.then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(denied instanceof StatusError);
  assert.equal(denied.code, 400);
  assert.equal(denied.message, 'admission webhook "deny.example.com" denied the request: NotAllowed');
  const down = with_({ clientConfig: { url: 'down' } });
  const failed = await validatingWebhookPlugin(down).validate!(a)?.then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(failed instanceof StatusError);
  assert.equal(failed.code, 500);
  assert.equal(
    failed.message,
    'Internal error occurred: failed calling webhook "deny.example.com": failed to call webhook: Post "down": dial tcp: connection refused',
  );
  const annotations: Record<string, string> = {};
  await validatingWebhookPlugin(with_({ clientConfig: { url: 'down' }, failurePolicy: 'Ignore' })).validate!({
    ...a,
    addAuditAnnotation: (k, v) => void (annotations[k] = v),
  });
  assert.deepEqual(annotations, {
    'failed-open.validating.webhook.admission.k8s.io/round_0_index_0': 'deny.example.com',
  });
  // Webhook configurations themselves are never sent to webhooks.
  const exempt = attrsOf({
    group: 'admissionregistration.k8s.io',
    resource: 'validatingwebhookconfigurations',
    kind: 'ValidatingWebhookConfiguration',
    object: cm(),
  });
  const everything = with_({
    rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }],
  });
  await validatingWebhookPlugin(everything).validate!(exempt);
  // A dry run may not reach a webhook with side effects.
  const dry = await validatingWebhookPlugin(with_({ sideEffects: 'Some' })).validate!({
    ...a,
    dryRun: true,
  })?.then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(dry instanceof StatusError);
  assert.equal(dry.message, 'admission webhook "deny.example.com" does not support dry run');
});
