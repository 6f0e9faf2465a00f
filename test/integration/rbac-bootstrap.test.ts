/**
 * The v1.27 RBAC bootstrap policy is in place before the first request, and is
 * reconciled on every start as upstream's: with `autoupdate: "true"` what is missing (rules,
 * subjects, deleted objects) comes back and nothing is removed; with `"false"` the object is
 * left alone; a restart with nothing to reconcile writes nothing.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const rbac = '/apis/rbac.authorization.k8s.io/v1';

test('#12 bootstrap policy before the first request, reconciled on restart', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'nanokube-rbac-bootstrap-'));
  // The server running now: a failed assertion must not leave it (and the test process) running.
  let running: TestServer | undefined;
  try {
    let server = await startTestServer({ dataDir, controllers: false, nodes: 0, anonymousAuth: true });
    running = server;
    // The very first request, anonymous: allowed by system:public-info-viewer; discovery is not.
    const first = await server.request('GET', '/version', { credentials: 'none' });
    assert.equal(first.status, 200, first.text);
    assert.equal((await server.request('GET', '/api', { credentials: 'none' })).status, 403);
    const roles = (await server.request('GET', `${rbac}/clusterroles`)).json()['items'] as {
      metadata: { name: string };
    }[];
    assert.equal(roles.length, 62);
    assert.equal(
      ((await server.request('GET', `${rbac}/clusterrolebindings`)).json()['items'] as unknown[]).length,
      43,
    );
    assert.equal(((await server.request('GET', `${rbac}/roles`)).json()['items'] as unknown[]).length, 7);
    assert.equal(
      ((await server.request('GET', `${rbac}/rolebindings`)).json()['items'] as unknown[]).length,
      7,
    );
    const basicUser = (await server.request('GET', `${rbac}/clusterroles/system:basic-user`)).json();
    assert.deepEqual((basicUser['metadata'] as { annotations: unknown }).annotations, {
      'rbac.authorization.kubernetes.io/autoupdate': 'true',
    });

    // Change things: a rule removed and one added (autoupdate true), a protected role emptied,
    // a binding deleted, a subject removed.
    const put = async (path: string, body: Record<string, unknown>) => {
      const r = await server.request('PUT', path, { body });
      assert.equal(r.status, 200, r.text);
    };
    const extra = { verbs: ['get'], apiGroups: [''], resources: ['configmaps'] };
    await put(`${rbac}/clusterroles/system:basic-user`, {
      ...basicUser,
      rules: [(basicUser['rules'] as unknown[])[0], extra],
    });
    const discovery = (await server.request('GET', `${rbac}/clusterroles/system:discovery`)).json();
    await put(`${rbac}/clusterroles/system:discovery`, {
      ...discovery,
      metadata: {
        ...(discovery['metadata'] as object),
        annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' },
      },
      rules: [{ verbs: ['get'], nonResourceURLs: ['/version'] }],
    });
    assert.equal(
      (await server.request('DELETE', `${rbac}/clusterrolebindings/system:monitoring`)).status,
      200,
    );
    const publicInfo = (
      await server.request('GET', `${rbac}/clusterrolebindings/system:public-info-viewer`)
    ).json();
    await put(`${rbac}/clusterrolebindings/system:public-info-viewer`, {
      ...publicInfo,
      subjects: [(publicInfo['subjects'] as unknown[])[0]],
    });
    const untouched = (await server.request('GET', `${rbac}/clusterroles/cluster-admin`)).json();
    await server.stop({ keep: true });
    running = undefined;

    server = await startTestServer({ dataDir, controllers: false, nodes: 0, anonymousAuth: true });
    running = server;
    const after = (await server.request('GET', `${rbac}/clusterroles/system:basic-user`)).json();
    assert.deepEqual(after['rules'], [
      (basicUser['rules'] as unknown[])[0],
      extra,
      ...(basicUser['rules'] as unknown[]).slice(1),
    ]);
    const protectedRole = (await server.request('GET', `${rbac}/clusterroles/system:discovery`)).json();
    assert.deepEqual(protectedRole['rules'], [{ verbs: ['get'], nonResourceURLs: ['/version'] }]);
    assert.equal((await server.request('GET', `${rbac}/clusterrolebindings/system:monitoring`)).status, 200);
    const subjects = (
      await server.request('GET', `${rbac}/clusterrolebindings/system:public-info-viewer`)
    ).json()['subjects'] as { name: string }[];
    assert.deepEqual(
      subjects.map((s) => s.name),
      ['system:authenticated', 'system:unauthenticated'],
    );
    // Nothing to reconcile: not written again.
    const sameAdmin = (await server.request('GET', `${rbac}/clusterroles/cluster-admin`)).json();
    assert.equal(
      (sameAdmin['metadata'] as { resourceVersion: string }).resourceVersion,
      (untouched['metadata'] as { resourceVersion: string }).resourceVersion,
    );
    // The protected discovery role now grants only /version to authenticated users.
    const apis = await server.request('GET', '/apis', { headers: { 'Impersonate-User': 'someone' } });
    assert.equal(apis.status, 403);
    await server.stop({ keep: true });
    running = undefined;
  } finally {
    await running?.stop({ keep: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
});
