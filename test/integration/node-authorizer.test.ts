/**
 * `--authorization-mode=Node,RBAC`: a kubelet identity (`system:node:n1` in
 * `system:nodes`) reads the secret its pod mounts and not another, with upstream's 403 text;
 * the static node rules let it list pods; without the Node mode nothing grants it secrets.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { waitForAccess } from '../support/rbac.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const asNode = { 'Impersonate-User': 'system:node:n1', 'Impersonate-Group': 'system:nodes' };
const secret = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name },
  stringData: { a: 'b' },
});

describe('Node authorizer', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ controllers: false, nodes: 0, authorizationModes: ['Node', 'RBAC'] });
    for (const name of ['mounted', 'other']) {
      const r = await server.request('POST', '/api/v1/namespaces/default/secrets', { body: secret(name) });
      assert.equal(r.status, 201, r.text);
    }
    const pod = await server.request('POST', '/api/v1/namespaces/default/pods', {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'web' },
        spec: {
          nodeName: 'n1',
          containers: [{ name: 'c', image: 'nginx:1.25' }],
          volumes: [{ name: 's', secret: { secretName: 'mounted' } }],
        },
      },
    });
    assert.equal(pod.status, 201, pod.text);
    await waitForAccess(server, {
      user: 'system:node:n1',
      groups: ['system:nodes', 'system:authenticated'],
      resourceAttributes: { verb: 'get', resource: 'secrets', namespace: 'default', name: 'mounted' },
    });
  });
  after(() => server.stop());

  test('the node reads what its pod uses, not other secrets', async () => {
    const ok = await server.request('GET', '/api/v1/namespaces/default/secrets/mounted', { headers: asNode });
    assert.equal(ok.status, 200, ok.text);
    const refused = await server.request('GET', '/api/v1/namespaces/default/secrets/other', {
      headers: asNode,
    });
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'secrets "other" is forbidden: User "system:node:n1" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node \'n1\' and this object',
      reason: 'Forbidden',
      details: { name: 'other', kind: 'secrets' },
      code: 403,
    });
    const list = await server.request('GET', '/api/v1/namespaces/default/secrets', { headers: asNode });
    assert.equal(list.status, 403);
    assert.match(String(list.json()['message']), /: No Object name found$/);
    assert.equal((await server.request('GET', '/api/v1/pods', { headers: asNode })).status, 200);
    const rules = await server.request('POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', {
      headers: asNode,
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectRulesReview',
        spec: { namespace: 'default' },
      },
    });
    assert.equal(rules.status, 201, rules.text);
    const status = rules.json()['status'] as Record<string, unknown>;
    assert.equal(status['incomplete'], true);
    assert.equal(status['evaluationError'], 'node authorizer does not support user rule resolution');
  });

  test('without the Node mode, RBAC alone grants a node nothing of the kind', async () => {
    const rbacOnly = await startTestServer({ controllers: false, nodes: 0 });
    try {
      const r = await rbacOnly.request('GET', '/api/v1/pods', { headers: asNode });
      assert.equal(r.status, 403);
      assert.equal(
        r.json()['message'],
        'pods is forbidden: User "system:node:n1" cannot list resource "pods" in API group "" at the cluster scope',
      );
    } finally {
      await rbacOnly.stop();
    }
  });
});
