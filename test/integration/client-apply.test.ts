/**
 * AM-23: server-side apply from nanokube's typed client with the generated apply
 * configurations, against a real in-process server: create by apply, the managedFields entry, a
 * conflict as ApiError 409 with the upstream message, force, and applyStatus on /status.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApiError } from '../../src/client/api-error.js';
import { appsV1, coreV1 } from '../../src/client/applyconfigurations/index.js';
import type { RestClient } from '../../src/client/rest-client.js';
import { typedClients } from '../../src/client/typed-client.js';
import type { Clientset } from '../../src/client/typed-client.js';
import { adminClient, startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const ns = 'client-apply';

describe('#9 AM-23 typed client apply against the server', () => {
  let s: TestServer;
  let rest: RestClient;
  let c: Clientset;
  before(async () => {
    s = await startTestServer({ controllers: false });
    rest = adminClient(s);
    c = typedClients(rest);
    await c.core.v1.namespaces.create({ metadata: { name: ns } });
  });
  after(async () => {
    rest.close();
    await s.stop();
  });

  const web = (image: string, replicas: number) =>
    appsV1
      .deployment('web', ns)
      .withLabels({ app: 'web' })
      .withSpec(
        appsV1
          .deploymentSpec()
          .withReplicas(replicas)
          .withSelector({ matchLabels: { app: 'web' } })
          .withTemplate(
            coreV1
              .podTemplateSpec()
              .withLabels({ app: 'web' })
              .withSpec(
                coreV1.podSpec().withContainers(coreV1.container().withName('nginx').withImage(image)),
              ),
          ),
      );

  it('apply creates the Deployment, owned by the field manager', async () => {
    const d = await c.apps.v1.deployments.apply(web('nginx:1', 2), { fieldManager: 'my-controller' });
    assert.equal(d.spec?.replicas, 2);
    const entries = d.metadata?.managedFields ?? [];
    assert.deepEqual(
      entries.map((e) => [e.manager, e.operation, e.apiVersion]),
      [['my-controller', 'Apply', 'apps/v1']],
    );
  });

  it('another manager changing the image conflicts (409 ApiError), then takes it with force', async () => {
    await assert.rejects(
      c.apps.v1.deployments.apply(web('nginx:2', 2), { fieldManager: 'other' }),
      (err: unknown) =>
        err instanceof ApiError &&
        err.code === 409 &&
        /Apply failed with 1 conflict: conflict with "my-controller": \.spec\.template\.spec\.containers\[name="nginx"\]\.image$/.test(
          err.message,
        ),
    );
    const d = await c.apps.v1.deployments.apply(web('nginx:2', 2), { fieldManager: 'other', force: true });
    assert.equal(d.spec?.template?.spec?.containers[0]?.image, 'nginx:2');
  });

  it('applyStatus writes status through /status with subresource "status"', async () => {
    const d = await c.apps.v1.deployments.applyStatus(
      appsV1.deployment('web', ns).withStatus(appsV1.deploymentStatus().withObservedGeneration(9)),
      { fieldManager: 'status-writer' },
    );
    assert.equal(d.status?.observedGeneration, 9);
    const entry = (d.metadata?.managedFields ?? []).find((e) => e.manager === 'status-writer');
    assert.equal(entry?.subresource, 'status');
    assert.deepEqual(entry?.fieldsV1, { 'f:status': { 'f:observedGeneration': {} } });
  });
});
