/**
 * Integration: namespace deletion goes through Terminating — new content is refused with upstream's
 * 403 — and the namespace controller empties it and finalizes it (NamespaceLifecycle).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

async function until(cond: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not met in time');
}

describe('namespace lifecycle', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.stop());

  it('a deleted namespace is Terminating, refuses new content, then disappears with its content', async () => {
    await s.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'gone' } },
    });
    // Content with a finalizer holds the namespace in Terminating until the finalizer is removed.
    const held = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'held', finalizers: ['example.com/hold'] },
    };
    assert.equal((await s.request('POST', '/api/v1/namespaces/gone/configmaps', { body: held })).status, 201);
    assert.equal(
      (
        await s.request('POST', '/api/v1/namespaces/gone/secrets', {
          body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } },
        })
      ).status,
      201,
    );
    const del = await s.request('DELETE', '/api/v1/namespaces/gone');
    assert.equal(del.status, 200);
    assert.equal((del.json()['status'] as { phase: string }).phase, 'Terminating');

    const refused = await s.request('POST', '/api/v1/namespaces/gone/configmaps', {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'late' } },
    });
    assert.equal(refused.status, 403);
    assert.equal(
      refused.json()['message'],
      'configmaps "late" is forbidden: unable to create new content in namespace gone because it is being terminated',
    );
    assert.deepEqual((refused.json()['details'] as { causes: unknown[] }).causes, [
      {
        reason: 'NamespaceTerminating',
        message: 'namespace gone is being terminated',
        field: 'metadata.namespace',
      },
    ]);

    // The controller deletes what it can; the secret goes, the held configmap waits.
    await until(async () => (await s.request('GET', '/api/v1/namespaces/gone/secrets/s')).status === 404);
    assert.equal((await s.request('GET', '/api/v1/namespaces/gone')).status, 200);
    await s.request('PATCH', '/api/v1/namespaces/gone/configmaps/held', {
      raw: '{"metadata":{"finalizers":null}}',
      contentType: 'application/merge-patch+json',
    });
    await until(async () => (await s.request('GET', '/api/v1/namespaces/gone')).status === 404);
  });

  it('every active namespace gets a default ServiceAccount and kube-root-ca.crt, recreated when deleted', async () => {
    await s.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fresh' } },
    });
    await until(
      async () => (await s.request('GET', '/api/v1/namespaces/fresh/serviceaccounts/default')).status === 200,
    );
    await until(
      async () =>
        (await s.request('GET', '/api/v1/namespaces/fresh/configmaps/kube-root-ca.crt')).status === 200,
    );
    const ca = (await s.request('GET', '/api/v1/namespaces/fresh/configmaps/kube-root-ca.crt')).json<{
      data: Record<string, string>;
    }>();
    assert.equal(ca.data['ca.crt'], s.pki.caCert);
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      await until(
        async () =>
          (await s.request('GET', `/api/v1/namespaces/${ns}/serviceaccounts/default`)).status === 200,
      );
    }
    const before = (await s.request('GET', '/api/v1/namespaces/fresh/serviceaccounts/default')).json<{
      metadata: { uid: string };
    }>();
    assert.equal((await s.request('DELETE', '/api/v1/namespaces/fresh/serviceaccounts/default')).status, 200);
    await until(async () => {
      const r = await s.request('GET', '/api/v1/namespaces/fresh/serviceaccounts/default');
      return r.status === 200 && r.json<{ metadata: { uid: string } }>().metadata.uid !== before.metadata.uid;
    });
  });
  it('kube-root-ca.crt is recreated when deleted and put back when its data is changed', async () => {
    // Upstream's "should guarantee kube-root-ca.crt exist in any namespace" [Conformance].
    await s.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'root-ca' } },
    });
    const path = '/api/v1/namespaces/root-ca/configmaps/kube-root-ca.crt';
    await until(async () => (await s.request('GET', path)).status === 200);
    const first = (await s.request('GET', path)).json<{
      metadata: { uid: string; annotations: Record<string, string> };
    }>();
    assert.match(first.metadata.annotations['kubernetes.io/description'] ?? '', /^Contains a CA bundle/);
    assert.equal((await s.request('DELETE', path)).status, 200);
    await until(async () => {
      const r = await s.request('GET', path);
      return r.status === 200 && r.json<{ metadata: { uid: string } }>().metadata.uid !== first.metadata.uid;
    });
    const put = await s.request('PUT', path, {
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'kube-root-ca.crt' },
        data: { 'ca.crt': '' },
      },
    });
    assert.equal(put.status, 200);
    await until(async () => {
      const cm = (await s.request('GET', path)).json<{
        data?: Record<string, string>;
        metadata: { annotations?: Record<string, string> };
      }>();
      return (
        cm.data?.['ca.crt'] === s.pki.caCert &&
        cm.metadata.annotations?.['kubernetes.io/description'] !== undefined
      );
    });
  });
});
