/**
 * With the official JavaScript client: @kubernetes/client-node 1.x creates a CRD
 * (ApiextensionsV1Api), waits for it to be Established, and drives its custom resources through
 * CustomObjectsApi (create, get, list, merge patch, status, a CEL refusal, delete) against the
 * real `nanokube serve` process.
 */
/* eslint-disable @typescript-eslint/no-unsafe-class-instance-assignment -- the client's models are plain
   data classes and object literals are its documented way to build request bodies. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ApiException, ApiextensionsV1Api, CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import { skipWithoutDist, spawnServer } from './support-client/spawn-server.js';
import type { SpawnedServer } from './support-client/spawn-server.js';

type Obj = Record<string, unknown>;
const group = 'stable.example.com';

const definition: V1CustomResourceDefinition = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `widgets.${group}` },
  spec: {
    group,
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: { size: { type: 'integer', minimum: 1 }, color: { type: 'string' } },
                // The client's model names it x_kubernetes_validations (serialized as x-kubernetes-validations).
                x_kubernetes_validations: [{ rule: "self.color != 'red'", message: 'no red widgets' }],
              },
              status: { type: 'object', properties: { ready: { type: 'boolean' } } },
            },
          },
        },
      },
    ],
  },
};

describe('#10 @kubernetes/client-node with custom resources', { skip: skipWithoutDist }, () => {
  let dataDir = '';
  let server: SpawnedServer | undefined;
  let ext: ApiextensionsV1Api;
  let custom: CustomObjectsApi;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'nanokube-e2e-'));
    server = await spawnServer({ dataDir });
    const kc = new KubeConfig();
    kc.loadFromFile(server.kubeconfigPath);
    ext = kc.makeApiClient(ApiextensionsV1Api);
    custom = kc.makeApiClient(CustomObjectsApi);
  });
  after(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates the CRD and sees it Established', async () => {
    await ext.createCustomResourceDefinition({ body: definition });
    for (let i = 0; ; i++) {
      const crd = await ext.readCustomResourceDefinition({ name: `widgets.${group}` });
      if (crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) break;
      assert.ok(i < 200, 'Established within 10 s');
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  it('drives the custom resources through CustomObjectsApi', async () => {
    const base = { group, version: 'v1', namespace: 'default', plural: 'widgets' };
    const created = (await custom.createNamespacedCustomObject({
      ...base,
      body: {
        apiVersion: `${group}/v1`,
        kind: 'Widget',
        metadata: { name: 'w' },
        spec: { size: 2, color: 'blue' },
      },
    })) as Obj;
    assert.equal((created['metadata'] as Obj)['name'], 'w');
    const got = (await custom.getNamespacedCustomObject({ ...base, name: 'w' })) as Obj;
    assert.deepEqual(got['spec'], { size: 2, color: 'blue' });
    const list = (await custom.listNamespacedCustomObject(base)) as Obj;
    assert.equal((list['items'] as Obj[]).length, 1);
    const patched = (await custom.patchNamespacedCustomObject({
      ...base,
      name: 'w',
      // The client sends patches as application/json-patch+json.
      body: [{ op: 'replace', path: '/spec/size', value: 3 }],
    })) as Obj;
    assert.equal((patched['spec'] as Obj)['size'], 3);
    const status = (await custom.replaceNamespacedCustomObjectStatus({
      ...base,
      name: 'w',
      body: { ...patched, status: { ready: true } },
    })) as Obj;
    assert.deepEqual(status['status'], { ready: true });
    await custom.deleteNamespacedCustomObject({ ...base, name: 'w' });
  });

  it('reports a CEL refusal as a 422 with the rule message', async () => {
    const err = await custom
      .createNamespacedCustomObject({
        group,
        version: 'v1',
        namespace: 'default',
        plural: 'widgets',
        body: {
          apiVersion: `${group}/v1`,
          kind: 'Widget',
          metadata: { name: 'r' },
          spec: { size: 1, color: 'red' },
        },
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    assert.ok(err instanceof ApiException, String(err));
    assert.equal(err.code, 422);
    assert.match(
      String(err.body),
      /Widget.stable.example.com \\"r\\" is invalid: spec: Invalid value: \\"object\\": no red widgets/,
    );
  });
});
