/**
 * Typed clients: path and query building, the requests each verb sends (against a recording
 * stand-in for RestClient), the kind check at the JSON boundary, and the shape of the generated
 * types (scripts/gen-client-types.mjs).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { allDefinitions } from '../apis/generated/index.js';
import type { JsonObject } from '../util/json.js';
import type { RequestOptions } from './rest-client.js';
import { queryString, resourcePath } from './typed-client-paths.js';
import { typedClients } from './typed-client.js';
import type { RestLike } from './typed-client.js';
import type { appsV1, coreV1 } from './types/index.js';
import type { WatchEvent } from './watch-event.js';

interface Sent {
  readonly method: string;
  readonly path: string;
  readonly options: RequestOptions;
}

/** Records every request and answers with `answer` (by default: the body sent back). */
function recorder(answer?: (s: Sent) => JsonObject, events: readonly WatchEvent[] = []) {
  const sent: Sent[] = [];
  const watched: string[] = [];
  const rest: RestLike = {
    request(method, path, options = {}) {
      const s = { method, path, options };
      sent.push(s);
      const body = options.body;
      const echo: JsonObject =
        typeof body === 'object' && body !== null && !Array.isArray(body) ? { ...(body as JsonObject) } : {};
      return Promise.resolve(answer?.(s) ?? echo);
    },
    async *watch(path) {
      watched.push(path);
      await Promise.resolve();
      yield* events;
    },
  };
  return { rest, sent, watched };
}

const pods = { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true, subresources: {} };
const nodes = {
  group: '',
  version: 'v1',
  resource: 'nodes',
  kind: 'Node',
  namespaced: false,
  subresources: {},
};
const deployments = { ...pods, group: 'apps', resource: 'deployments', kind: 'Deployment' };

test('#7 resourcePath: core and named groups, namespaces, names, subresources, encoding', () => {
  assert.equal(resourcePath(pods), '/api/v1/pods');
  assert.equal(resourcePath(pods, { namespace: 'ns' }), '/api/v1/namespaces/ns/pods');
  assert.equal(resourcePath(pods, { namespace: '' }), '/api/v1/pods');
  assert.equal(
    resourcePath(pods, { namespace: 'ns', name: 'p', subresource: 'status' }),
    '/api/v1/namespaces/ns/pods/p/status',
  );
  assert.equal(
    resourcePath(deployments, { namespace: 'a b', name: 'x/y' }),
    '/apis/apps/v1/namespaces/a%20b/deployments/x%2Fy',
  );
  assert.equal(resourcePath(nodes, { name: 'n1' }), '/api/v1/nodes/n1');
  assert.throws(() => resourcePath(nodes, { namespace: 'ns' }), TypeError);
  assert.throws(() => resourcePath(pods, { name: 'p' }), /namespaced: p needs a namespace/);
  assert.throws(() => resourcePath(pods, { namespace: 'ns', subresource: 'status' }), TypeError);
  assert.throws(() => resourcePath(nodes, { name: '' }), TypeError);
});

test('#7 queryString keeps the defined parameters in order', () => {
  assert.equal(queryString({}), '');
  assert.equal(queryString({ a: undefined }), '');
  assert.equal(
    queryString({ watch: 1, labelSelector: 'a=b,c', x: undefined, b: true }),
    '?watch=1&labelSelector=a%3Db%2Cc&b=true',
  );
});

test('#7 each verb sends its method, path, query, body and content type', async () => {
  const { rest, sent } = recorder((s) =>
    s.method === 'GET' && s.path.startsWith('/apis/apps/v1/deployments')
      ? { kind: 'DeploymentList', items: [] }
      : s.method === 'DELETE' && s.path.includes('?')
        ? { kind: 'DeploymentList', items: [] }
        : s.method === 'DELETE'
          ? { kind: 'Status', status: 'Success' }
          : { kind: 'Deployment', metadata: { name: 'd', namespace: 'ns' } },
  );
  const c = typedClients(rest).apps.v1.deployments;
  const d: appsV1.Deployment = {
    metadata: { name: 'd', namespace: 'ns' },
    spec: { selector: {}, template: {} },
  };
  await c.get('d', { namespace: 'ns', resourceVersion: '5' });
  await c.list({ labelSelector: 'app=x', fieldSelector: 'metadata.name=d', limit: 10, continue: 'tok' });
  await c.create(d, { dryRun: true, fieldManager: 'me' });
  await c.update(d);
  await c.updateStatus(d);
  await c.patch('d', { spec: { replicas: 2 } }, 'strategic', { namespace: 'ns' });
  await c.patch('d', [{ op: 'replace', path: '/spec/replicas', value: 3 }], 'json', { namespace: 'ns' });
  await c.patch('d', { metadata: { labels: { a: null } } }, 'merge', { namespace: 'ns' });
  const deleted = await c.delete('d', {
    namespace: 'ns',
    propagationPolicy: 'Foreground',
    gracePeriodSeconds: 0,
    preconditions: { uid: 'u1' },
    dryRun: true,
  });
  assert.equal(deleted, undefined);
  await c.deleteCollection({ namespace: 'ns', labelSelector: 'app=x' });
  assert.deepEqual(
    sent.map((s) => `${s.method} ${s.path}`),
    [
      'GET /apis/apps/v1/namespaces/ns/deployments/d?resourceVersion=5',
      'GET /apis/apps/v1/deployments?labelSelector=app%3Dx&fieldSelector=metadata.name%3Dd&limit=10&continue=tok',
      'POST /apis/apps/v1/namespaces/ns/deployments?dryRun=All&fieldManager=me',
      'PUT /apis/apps/v1/namespaces/ns/deployments/d',
      'PUT /apis/apps/v1/namespaces/ns/deployments/d/status',
      'PATCH /apis/apps/v1/namespaces/ns/deployments/d',
      'PATCH /apis/apps/v1/namespaces/ns/deployments/d',
      'PATCH /apis/apps/v1/namespaces/ns/deployments/d',
      'DELETE /apis/apps/v1/namespaces/ns/deployments/d',
      'DELETE /apis/apps/v1/namespaces/ns/deployments?labelSelector=app%3Dx',
    ],
  );
  assert.deepEqual(
    sent.slice(5, 8).map((s) => s.options.contentType),
    ['application/strategic-merge-patch+json', 'application/json-patch+json', 'application/merge-patch+json'],
  );
  assert.deepEqual(sent[8]!.options.body, {
    apiVersion: 'v1',
    kind: 'DeleteOptions',
    propagationPolicy: 'Foreground',
    gracePeriodSeconds: 0,
    preconditions: { uid: 'u1' },
    dryRun: ['All'],
  });
  assert.deepEqual(sent[2]!.options.body, d);
});

test('#7 namespaces: required for namespaced objects, refused for cluster-scoped ones', async () => {
  const { rest, sent } = recorder((s) => ({ kind: s.path.includes('nodes') ? 'Node' : 'ConfigMap' }));
  const c = typedClients(rest);
  await assert.rejects(c.core.v1.configMaps.get('x'), TypeError);
  await assert.rejects(c.core.v1.configMaps.create({ metadata: { name: 'x' } }), TypeError);
  await assert.rejects(c.core.v1.configMaps.update({ metadata: { name: 'x' } }), TypeError);
  await assert.rejects(c.core.v1.nodes.update({}), /update needs metadata.name/);
  await assert.rejects(c.core.v1.nodes.get('n', { namespace: 'ns' }), TypeError);
  // The object's namespace is used when none is given; a cluster-scoped object ignores its own.
  await c.core.v1.configMaps.create({ metadata: { name: 'x', namespace: 'from-object' } });
  await c.core.v1.nodes.create({ metadata: { name: 'n', namespace: 'ignored' } });
  assert.deepEqual(
    sent.map((s) => s.path),
    ['/api/v1/namespaces/from-object/configmaps', '/api/v1/nodes'],
  );
});

test('#7 the JSON boundary checks the kind the server answers with', async () => {
  const { rest } = recorder(() => ({ kind: 'Secret', metadata: { name: 'x' } }));
  await assert.rejects(
    typedClients(rest).core.v1.configMaps.get('x', { namespace: 'ns' }),
    /expected a ConfigMap from the server, got "Secret"/,
  );
});

test('#7 subresources: typed per resource, their own kind, a Status from eviction', async () => {
  const { rest, sent } = recorder((s) =>
    s.path.endsWith('/eviction')
      ? { kind: 'Status', status: 'Success', code: 201 }
      : { kind: 'Scale', spec: { replicas: 4 } },
  );
  const c = typedClients(rest);
  const scale = await c.apps.v1.deployments.subresource('d', 'scale', { namespace: 'ns' }).get();
  assert.equal(scale.spec?.replicas, 4);
  const evicted = await c.core.v1.pods
    .subresource('p', 'eviction', { namespace: 'ns' })
    .create({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p', namespace: 'ns' } });
  assert.equal(evicted, undefined);
  assert.deepEqual(
    sent.map((s) => `${s.method} ${s.path}`),
    ['GET /apis/apps/v1/namespaces/ns/deployments/d/scale', 'POST /api/v1/namespaces/ns/pods/p/eviction'],
  );
  // @ts-expect-error -- config maps have no subresources
  assert.throws(() => c.core.v1.configMaps.subresource('x', 'status', { namespace: 'ns' }), TypeError);
});

test('#7 watch: the path carries watch=1 and the options; events come typed', async () => {
  const events: WatchEvent[] = [
    { type: 'ADDED', object: { kind: 'Pod', metadata: { name: 'p' } } },
    { type: 'BOOKMARK', object: { kind: 'Pod', metadata: { resourceVersion: '9' } } },
    { type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired' } },
  ];
  const { rest, watched } = recorder(undefined, events);
  const got: string[] = [];
  for await (const e of typedClients(rest).core.v1.pods.watch(new AbortController().signal, {
    namespace: 'ns',
    resourceVersion: '5',
    allowWatchBookmarks: true,
  })) {
    if (e.type === 'ERROR') got.push(`${e.type} ${e.object.code ?? 0}`);
    else got.push(`${e.type} ${e.object.metadata?.name ?? e.object.metadata?.resourceVersion ?? ''}`);
  }
  assert.deepEqual(got, ['ADDED p', 'BOOKMARK 9', 'ERROR 410']);
  assert.deepEqual(watched, [
    '/api/v1/namespaces/ns/pods?watch=1&resourceVersion=5&allowWatchBookmarks=true',
  ]);
});

test('#7 the clientset: one descriptor per resource, create-only reviews', () => {
  const { rest } = recorder();
  const c = typedClients(rest);
  assert.deepEqual(c.core.v1.pods.resource, {
    group: '',
    version: 'v1',
    resource: 'pods',
    kind: 'Pod',
    listKind: 'PodList',
    namespaced: true,
    subresources: { binding: 'Binding', ephemeralcontainers: 'Pod', eviction: 'Eviction', status: 'Pod' },
  });
  assert.equal(c.storage.v1.csiDrivers.resource.resource, 'csidrivers');
  assert.equal(c.apiregistration.v1.apiServices.resource.kind, 'APIService');
  assert.equal(c.autoscaling.v2.horizontalPodAutoscalers.resource.version, 'v2');
  assert.equal(c.authorization.v1.subjectAccessReviews.resource.listKind, undefined);
  assert.equal('list' in c.authorization.v1.subjectAccessReviews, true); // the same class at runtime
});

const typesDir = new URL('./types/', import.meta.url);
const typesOf = (mod: string): string => readFileSync(new URL(`${mod}.ts`, typesDir), 'utf8');

test('#7 generated types: one export per definition, fields from the schemas', () => {
  const files = new Map<string, string>();
  for (const d of allDefinitions()) {
    const pkg = d.name.slice(0, d.name.lastIndexOf('.'));
    const mod = pkg
      .replace(/^io\.k8s\.api\./, '')
      .replace(/^io\.k8s\.apimachinery\.pkg\.apis\./, '')
      .replace(/^io\.k8s\.apimachinery\.pkg\./, '')
      .replace(/^io\.k8s\.apiextensions-apiserver\.pkg\.apis\./, '')
      .replace(/^io\.k8s\.kube-aggregator\.pkg\.apis\./, '');
    if (!files.has(mod)) files.set(mod, typesOf(mod));
    const short = d.name.slice(d.name.lastIndexOf('.') + 1);
    assert.match(files.get(mod)!, new RegExp(`^export (interface|type) ${short}\\b`, 'm'), d.name);
  }
  const core = typesOf('core.v1');
  const block = (name: string): string =>
    /\n(export interface [\s\S]*?\n\})/.exec(core.slice(core.indexOf(`export interface ${name} {`) - 1))![1]!;
  assert.match(block('PodSpec'), /^ {2}containers: Container\[\];$/m);
  assert.match(block('PodSpec'), /^ {2}nodeName\?: string;$/m);
  assert.match(block('Container'), /^ {2}name: string;$/m);
  assert.match(block('ContainerPort'), /^ {2}containerPort: number;$/m);
  assert.match(block('ResourceRequirements'), /^ {2}limits\?: Record<string, apiResource\.Quantity>;$/m);
  assert.match(block('HTTPGetAction'), /^ {2}port: utilIntstr\.IntOrString;$/m);
  assert.match(block('Pod'), /^ {2}metadata\?: metaV1\.ObjectMeta;$/m);
  assert.match(block('ServiceSpec'), /^ {2}externalTrafficPolicy\?: 'Cluster' \| 'Local';$/m);
  assert.match(typesOf('util.intstr'), /^export type IntOrString = number \| string;$/m);
  assert.match(typesOf('api.resource'), /^export type Quantity = string;$/m);
  assert.match(typesOf('meta.v1'), /^export type Time = string;$/m);
  assert.match(typesOf('runtime'), /^export type RawExtension = unknown;$/m);
  assert.match(typesOf('apiextensions.v1'), /^export type JSON = unknown;$/m);
});

test('#7 generated types check at compile time', () => {
  const container: coreV1.Container = { name: 'nginx', ports: [{ containerPort: 80 }] };
  // @ts-expect-error -- a container needs a name
  const nameless: coreV1.Container = { image: 'nginx' };
  const probe: coreV1.Probe = { httpGet: { port: 'http' }, tcpSocket: { port: 8080 } };
  const pod: coreV1.Pod = { metadata: { name: 'p' }, spec: { containers: [container] } };
  // @ts-expect-error -- not a phase
  const phase: coreV1.PodStatus = { phase: 'Sleeping' };
  assert.equal(pod.spec?.containers[0]?.name, 'nginx');
  assert.ok(nameless && probe && phase);
});
