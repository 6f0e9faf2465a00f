/**
 * Integration: ResourceQuota admission beyond pods — `count/<resource>.<group>` of a
 * custom resource (the quota controller finds it in discovery and hands usage back on delete),
 * Service node ports, a BestEffort-scoped quota, and `limitedResources` from the admission
 * configuration file (PriorityClass scopes that must be covered by a quota).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { JsonObject } from '../../src/util/json.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { waitFor } from '../support/poll.js';

const dir = mkdtempSync(join(tmpdir(), 'admission-quota-'));
const configPath = join(dir, 'admission.yaml');
writeFileSync(
  configPath,
  [
    'apiVersion: apiserver.config.k8s.io/v1',
    'kind: AdmissionConfiguration',
    'plugins:',
    '- name: ResourceQuota',
    '  configuration:',
    '    apiVersion: apiserver.config.k8s.io/v1',
    '    kind: ResourceQuotaConfiguration',
    '    limitedResources:',
    '    - resource: pods',
    '      matchScopes:',
    '      - {scopeName: PriorityClass, operator: In, values: [cluster-services]}',
    '',
  ].join('\n'),
);

const pod = (name: string, spec: JsonObject = {}): JsonObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
});

describe('ResourceQuota admission: custom resources, services, scopes and limited resources', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ nodes: 0, admission: { configFile: configPath } });
  });
  after(async () => {
    await s.stop();
  });

  const namespace = async (name: string): Promise<void> => {
    assert.equal(
      (
        await s.request('POST', '/api/v1/namespaces', {
          body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
        })
      ).status,
      201,
    );
    await waitFor(
      `the default service account of ${name}`,
      async () =>
        (await s.request('GET', `/api/v1/namespaces/${name}/serviceaccounts/default`)).status === 200,
    );
  };
  const quota = async (ns: string, name: string, spec: JsonObject): Promise<void> => {
    const r = await s.request('POST', `/api/v1/namespaces/${ns}/resourcequotas`, {
      body: { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name }, spec },
    });
    assert.equal(r.status, 201, r.text);
    const hard = Object.keys(spec['hard'] as JsonObject);
    await waitFor(`the usage of ${ns}/${name}`, async () => {
      const q = (await s.request('GET', `/api/v1/namespaces/${ns}/resourcequotas/${name}`)).json<{
        status?: { used?: JsonObject };
      }>();
      return hard.every((k) => q.status?.used?.[k] !== undefined);
    });
  };
  const used = async (ns: string, name: string): Promise<JsonObject> =>
    (await s.request('GET', `/api/v1/namespaces/${ns}/resourcequotas/${name}`)).json<{
      status: { used: JsonObject };
    }>().status.used;

  it('count/<resource>.<group> of a custom resource is charged, refused past hard and handed back on delete', async () => {
    const crd = await s.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      body: {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'widgets.example.com' },
        spec: {
          group: 'example.com',
          scope: 'Namespaced',
          names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
            },
          ],
        },
      },
    });
    assert.equal(crd.status, 201, crd.text);
    await waitFor(
      'widgets served',
      async () => (await s.request('GET', '/apis/example.com/v1/widgets')).status === 200,
    );
    await namespace('crq');
    await quota('crq', 'widgets', { hard: { 'count/widgets.example.com': '1' } });
    const widget = (name: string) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name } });
    const path = '/apis/example.com/v1/namespaces/crq/widgets';
    assert.equal((await s.request('POST', path, { body: widget('a') })).status, 201);
    const b = await s.request('POST', path, { body: widget('b') });
    assert.equal(b.status, 403);
    assert.equal(
      b.json().message,
      'widgets.example.com "b" is forbidden: exceeded quota: widgets, requested: count/widgets.example.com=1, used: count/widgets.example.com=1, limited: count/widgets.example.com=1',
    );
    assert.equal((await s.request('DELETE', `${path}/a`)).status, 200);
    await waitFor('the quota controller to hand the widget back', async () => {
      return (await used('crq', 'widgets'))['count/widgets.example.com'] === '0';
    });
    assert.equal((await s.request('POST', path, { body: widget('c') })).status, 201);
  });

  it('services.nodeports counts the ports of NodePort Services', async () => {
    await namespace('svcq');
    await quota('svcq', 'ports', { hard: { 'services.nodeports': '1', services: '5' } });
    const r = await s.request('POST', '/api/v1/namespaces/svcq/services', {
      body: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'two' },
        spec: {
          type: 'NodePort',
          ports: [
            { name: 'a', port: 80 },
            { name: 'b', port: 81 },
          ],
        },
      },
    });
    assert.equal(r.status, 403);
    assert.equal(
      r.json().message,
      'services "two" is forbidden: exceeded quota: ports, requested: services.nodeports=2, used: services.nodeports=0, limited: services.nodeports=1',
    );
    const one = await s.request('POST', '/api/v1/namespaces/svcq/services', {
      body: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'one' },
        spec: { type: 'NodePort', ports: [{ port: 80 }] },
      },
    });
    assert.equal(one.status, 201, one.text);
    assert.deepEqual(await used('svcq', 'ports'), { services: '1', 'services.nodeports': '1' });
  });

  it('a BestEffort-scoped quota limits only BestEffort pods', async () => {
    await namespace('beq');
    await quota('beq', 'be', { hard: { pods: '1' }, scopes: ['BestEffort'] });
    assert.equal((await s.request('POST', '/api/v1/namespaces/beq/pods', { body: pod('be1') })).status, 201);
    const second = await s.request('POST', '/api/v1/namespaces/beq/pods', { body: pod('be2') });
    assert.equal(second.status, 403);
    assert.equal(
      second.json().message,
      'pods "be2" is forbidden: exceeded quota: be, requested: pods=1, used: pods=1, limited: pods=1',
    );
    const burstable = await s.request('POST', '/api/v1/namespaces/beq/pods', {
      body: pod('burstable', {
        containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '10m' } } }],
      }),
    });
    assert.equal(burstable.status, 201, burstable.text);
  });

  it('limitedResources: a pod of a limited PriorityClass needs a quota covering that scope', async () => {
    const pc = await s.request('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', {
      body: {
        apiVersion: 'scheduling.k8s.io/v1',
        kind: 'PriorityClass',
        metadata: { name: 'cluster-services' },
        value: 1000,
      },
    });
    assert.equal(pc.status, 201, pc.text);
    await namespace('limited');
    const critical = (name: string) => pod(name, { priorityClassName: 'cluster-services' });
    const refused = await waitFor('the class to reach the cache', async () => {
      const r = await s.request('POST', '/api/v1/namespaces/limited/pods', { body: critical('p1') });
      return r.status === 500 ? r : undefined;
    });
    assert.deepEqual(refused.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'insufficient quota to match these scopes: [{PriorityClass In [cluster-services]}]',
      code: 500,
    });
    // Other pods are not limited.
    assert.equal(
      (await s.request('POST', '/api/v1/namespaces/limited/pods', { body: pod('plain') })).status,
      201,
    );
    await quota('limited', 'critical', {
      hard: { pods: '1' },
      scopeSelector: {
        matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['cluster-services'] }],
      },
    });
    assert.equal(
      (await s.request('POST', '/api/v1/namespaces/limited/pods', { body: critical('p2') })).status,
      201,
    );
    const over = await s.request('POST', '/api/v1/namespaces/limited/pods', { body: critical('p3') });
    assert.equal(over.status, 403);
    assert.equal(
      over.json().message,
      'pods "p3" is forbidden: exceeded quota: critical, requested: pods=1, used: pods=1, limited: pods=1',
    );
  });
});
