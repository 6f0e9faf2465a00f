/**
 * Server-side apply from the typed clients (AM-23): `apply` and `applyStatus` send a PATCH
 * of content type application/apply-patch+yaml with the configuration's JSON, to the object's
 * path, with fieldManager (required), force and dryRun.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse as parseYaml } from 'yaml';
import type { JsonObject } from '../util/json.js';
import { ApiError } from './api-error.js';
import { appsV1, coreV1 } from './applyconfigurations/index.js';
import type { RequestOptions } from './rest-client.js';
import { RestClient } from './rest-client.js';
import type { Transport, TransportRequest } from './transport.js';
import type { ApplyOptions, RestLike } from './typed-client.js';
import { typedClients } from './typed-client.js';

interface Sent {
  readonly method: string;
  readonly path: string;
  readonly options: RequestOptions;
}

/** Records every request and answers with the body sent back. */
function recorder() {
  const sent: Sent[] = [];
  const rest: RestLike = {
    request(method, path, options = {}) {
      sent.push({ method, path, options });
      const body = options.body;
      return Promise.resolve(typeof body === 'object' && body !== null ? { ...(body as JsonObject) } : {});
    },
    watch: () => {
      throw new Error('no watches here');
    },
  };
  return { rest, sent };
}

const applyContentType = 'application/apply-patch+yaml';

test('AM-23 apply sends a PATCH of application/apply-patch+yaml with fieldManager, force, dryRun', async () => {
  const { rest, sent } = recorder();
  const c = typedClients(rest);
  const config = appsV1
    .deployment('d', 'ns')
    .withLabels({ app: 'x' })
    .withSpec(
      appsV1
        .deploymentSpec()
        .withReplicas(3)
        .withTemplate(
          coreV1
            .podTemplateSpec()
            .withSpec(coreV1.podSpec().withContainers(coreV1.container().withName('a'))),
        ),
    );
  const got = await c.apps.v1.deployments.apply(config, { fieldManager: 'me', force: true, dryRun: true });
  assert.equal(got.spec?.replicas, 3);
  await c.apps.v1.deployments.apply(config, { fieldManager: 'me' });
  assert.deepEqual(
    sent.map((s) => `${s.method} ${s.path} ${s.options.contentType ?? ''}`),
    [
      `PATCH /apis/apps/v1/namespaces/ns/deployments/d?dryRun=All&fieldManager=me&force=true ${applyContentType}`,
      `PATCH /apis/apps/v1/namespaces/ns/deployments/d?fieldManager=me ${applyContentType}`,
    ],
  );
  assert.deepEqual(sent[0]!.options.body, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', namespace: 'ns', labels: { app: 'x' } },
    spec: { replicas: 3, template: { spec: { containers: [{ name: 'a' }] } } },
  });
});

test('AM-23 apply: the namespace from the configuration or the scope; cluster-scoped kinds; plain objects', async () => {
  const { rest, sent } = recorder();
  const c = typedClients(rest);
  await c.core.v1.configMaps.apply(coreV1.configMap('cm').withData({ k: 'v' }), {
    namespace: 'scope',
    fieldManager: 'm',
  });
  await c.core.v1.configMaps.apply(coreV1.configMap('cm', 'own'), { namespace: 'own', fieldManager: 'm' });
  await c.core.v1.nodes.apply(coreV1.node('n1').withLabels({ zone: 'a' }), { fieldManager: 'm' });
  await c.core.v1.configMaps.apply(
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'plain', namespace: 'p' }, data: { a: 'b' } },
    { fieldManager: 'm' },
  );
  assert.deepEqual(
    sent.map((s) => `${s.method} ${s.path}`),
    [
      'PATCH /api/v1/namespaces/scope/configmaps/cm?fieldManager=m',
      'PATCH /api/v1/namespaces/own/configmaps/cm?fieldManager=m',
      'PATCH /api/v1/nodes/n1?fieldManager=m',
      'PATCH /api/v1/namespaces/p/configmaps/plain?fieldManager=m',
    ],
  );
  assert.deepEqual(sent[3]!.options.body, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'plain', namespace: 'p' },
    data: { a: 'b' },
  });
});

test('AM-23 applyStatus patches the status subresource', async () => {
  const { rest, sent } = recorder();
  const c = typedClients(rest);
  await c.apps.v1.deployments.applyStatus(
    appsV1.deployment('d', 'ns').withStatus(appsV1.deploymentStatus().withReadyReplicas(2)),
    { fieldManager: 'controller', force: true },
  );
  assert.deepEqual(
    sent.map((s) => `${s.method} ${s.path} ${s.options.contentType ?? ''}`),
    [
      `PATCH /apis/apps/v1/namespaces/ns/deployments/d/status?fieldManager=controller&force=true ${applyContentType}`,
    ],
  );
  assert.deepEqual(sent[0]!.options.body, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', namespace: 'ns' },
    status: { readyReplicas: 2 },
  });
  await assert.rejects(
    // @ts-expect-error -- config maps have no status subresource
    c.core.v1.configMaps.applyStatus(coreV1.configMap('x', 'ns'), { fieldManager: 'm' }),
    /configmaps has no status subresource/,
  );
  assert.equal(sent.length, 1);
});

test('AM-23 apply refuses what client-go refuses, before sending anything', async () => {
  const { rest, sent } = recorder();
  const c = typedClients(rest);
  const cm = coreV1.configMap('x', 'ns');
  await assert.rejects(
    c.core.v1.configMaps.apply(cm, {} as unknown as ApplyOptions),
    (e: unknown) => e instanceof Error && /configmaps: apply needs a fieldManager/.test(e.message),
  );
  await assert.rejects(c.core.v1.configMaps.apply(cm, { fieldManager: '' }), /needs a fieldManager/);
  await assert.rejects(
    c.core.v1.configMaps.apply(
      { apiVersion: 'v1', kind: 'ConfigMap' },
      { namespace: 'ns', fieldManager: 'm' },
    ),
    /configmaps: apply needs metadata.name/,
  );
  await assert.rejects(
    // @ts-expect-error -- a Secret is not a ConfigMap (and the kind is checked at run time too)
    c.core.v1.configMaps.apply(coreV1.secret('x', 'ns'), { fieldManager: 'm' }),
    /kind "Secret", expected "ConfigMap"/,
  );
  await assert.rejects(
    c.apps.v1.deployments.apply(
      { apiVersion: 'apps/v1beta1', kind: 'Deployment', metadata: { name: 'd' } },
      {
        namespace: 'ns',
        fieldManager: 'm',
      },
    ),
    /apiVersion "apps\/v1beta1", expected "apps\/v1"/,
  );
  await assert.rejects(
    c.core.v1.configMaps.apply(cm, { namespace: 'other', fieldManager: 'm' }),
    /metadata.namespace ns but namespace other given/,
  );
  await assert.rejects(c.core.v1.configMaps.apply(coreV1.configMap('x'), { fieldManager: 'm' }), TypeError);
  await assert.rejects(
    c.core.v1.nodes.apply(coreV1.node('n'), { namespace: 'ns', fieldManager: 'm' }),
    TypeError,
  );
  assert.deepEqual(sent, []);
});

test('AM-23 apply over a RestClient: the header, a JSON body that reads as YAML, a 415 as ApiError', async () => {
  const requests: TransportRequest[] = [];
  const transport: Transport = {
    send(request) {
      requests.push(request);
      const status = requests.length === 1 ? 200 : 415;
      const answer =
        status === 200
          ? { kind: 'Pod', apiVersion: 'v1', metadata: { name: 'p', namespace: 'ns' } }
          : { kind: 'Status', status: 'Failure', code: 415, reason: 'UnsupportedMediaType' };
      return Promise.resolve({
        status,
        body: (async function* () {
          await Promise.resolve();
          yield Buffer.from(JSON.stringify(answer));
        })(),
        cancel: () => undefined,
      });
    },
    stats: () => ({ sessions: 0, streams: 0 }),
    close: () => undefined,
  };
  const pods = typedClients(new RestClient({ transport })).core.v1.pods;
  const config = coreV1
    .pod('p', 'ns')
    .withSpec(coreV1.podSpec().withContainers(coreV1.container().withName('c')));
  const pod = await pods.apply(config, { fieldManager: 'kubectl' });
  assert.equal(pod.metadata?.name, 'p');
  await assert.rejects(pods.apply(config, { fieldManager: 'kubectl' }), (e: unknown) => {
    return e instanceof ApiError && e.code === 415;
  });
  const r = requests[0]!;
  assert.equal(r.method, 'PATCH');
  assert.equal(r.path, '/api/v1/namespaces/ns/pods/p?fieldManager=kubectl');
  assert.equal(r.headers['content-type'], applyContentType);
  assert.deepEqual(JSON.parse(r.body!), config.build());
  assert.deepEqual(parseYaml(r.body!), config.build());
});
