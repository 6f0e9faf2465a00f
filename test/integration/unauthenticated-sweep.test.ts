/**
 * The security acceptance sweep: every path the server serves (each resource's
 * collection, item and subresources from discovery, every verb, the non-resource paths) is tried
 * without credentials, with a certificate from a foreign CA and with a bearer token nothing issued.
 * Nothing gets anything but 401 or 403, and nothing is written. The only exception is upstream's:
 * with anonymous requests allowed, `system:public-info-viewer` lets anyone read the health and
 * version paths.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { clientCert, newCa } from '../support/certs.js';
import type { CertAndKey } from '../support/certs.js';
import { startTestServer } from '../support/server.js';
import type { RequestOptions, TestServer } from '../support/server.js';

interface ApiResource {
  readonly name: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
}

const publicInfo = new Set(['/healthz', '/livez', '/readyz', '/version', '/version/']);

const nonResourcePaths = [
  ...publicInfo,
  '/',
  '/api',
  '/apis',
  '/openapi/v2',
  '/openapi/v3',
  '/metrics',
  '/healthz/ping',
  '/readyz/etcd',
  '/livez/ping',
  '/.well-known/openid-configuration',
  '/openid/v1/jwks',
  '/debug/api_priority_and_fairness/dump_priority_levels',
  '/debug/pprof/',
  '/logs/',
];

/** Every resource path discovery lists, with the HTTP methods that reach its verbs. */
async function servedPaths(server: TestServer): Promise<{ method: string; path: string }[]> {
  const groupVersions: string[] = ['/api/v1'];
  const groups = (await server.request('GET', '/apis')).json<{
    groups: { versions: { groupVersion: string }[] }[];
  }>();
  for (const g of groups.groups) for (const v of g.versions) groupVersions.push(`/apis/${v.groupVersion}`);
  const out: { method: string; path: string }[] = [];
  for (const base of groupVersions) {
    out.push({ method: 'GET', path: base });
    const list = (await server.request('GET', base)).json<{ resources: ApiResource[] }>();
    for (const r of list.resources) {
      const [resource, subresource] = r.name.split('/') as [string, string | undefined];
      const collection = r.namespaced ? `${base}/namespaces/default/${resource}` : `${base}/${resource}`;
      const item = `${collection}/sweep-target`;
      const path = subresource === undefined ? collection : `${item}/${subresource}`;
      for (const verb of r.verbs) {
        if (subresource !== undefined) {
          const method = { get: 'GET', create: 'POST', update: 'PUT', patch: 'PATCH' }[verb];
          if (method !== undefined) out.push({ method, path });
          continue;
        }
        if (verb === 'list') out.push({ method: 'GET', path: collection });
        if (verb === 'watch') out.push({ method: 'GET', path: `${collection}?watch=true` });
        if (verb === 'create') out.push({ method: 'POST', path: collection });
        if (verb === 'deletecollection') out.push({ method: 'DELETE', path: collection });
        if (verb === 'get') out.push({ method: 'GET', path: item });
        if (verb === 'update') out.push({ method: 'PUT', path: item });
        if (verb === 'patch') out.push({ method: 'PATCH', path: item });
        if (verb === 'delete') out.push({ method: 'DELETE', path: item });
      }
    }
  }
  for (const path of nonResourcePaths) out.push({ method: 'GET', path });
  return out;
}

const body = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'sweep-target', namespace: 'default' },
  data: { written: 'yes' },
};

async function sweep(
  server: TestServer,
  paths: readonly { method: string; path: string }[],
  options: RequestOptions,
): Promise<Map<number, string[]>> {
  const byStatus = new Map<number, string[]>();
  for (const { method, path } of paths) {
    const r = await server.request(method, path, {
      ...options,
      ...(method === 'POST' || method === 'PUT' ? { body } : {}),
      ...(method === 'PATCH'
        ? { body: { data: { written: 'yes' } }, contentType: 'application/merge-patch+json' }
        : {}),
    });
    const list = byStatus.get(r.status) ?? [];
    list.push(`${method} ${path}`);
    byStatus.set(r.status, list);
  }
  return byStatus;
}

async function assertNothingWritten(server: TestServer): Promise<void> {
  const cm = await server.request('GET', '/api/v1/namespaces/default/configmaps/sweep-target');
  assert.equal(cm.status, 404, 'the sweep must not have written anything');
  const ns = await server.request('GET', '/api/v1/namespaces/default');
  assert.equal(ns.status, 200, 'the sweep must not have deleted the default namespace');
}

describe('no credentials, no access: the whole API swept', () => {
  let server: TestServer;
  let paths: { method: string; path: string }[];
  let foreign: CertAndKey;

  before(async () => {
    server = await startTestServer({ controllers: false, nodes: 0, anonymousAuth: false });
    paths = await servedPaths(server);
    foreign = await clientCert(await newCa(), 'CN=mallory, O=system:masters');
  });
  after(() => server.stop());

  test('the sweep covers the catalogue', () => {
    assert.ok(paths.length > 500, `only ${paths.length} requests to try`);
  });

  test('without credentials every request is 401 (anonymous off), health included', async () => {
    const byStatus = await sweep(server, paths, { credentials: 'none' });
    assert.deepEqual([...byStatus.keys()], [401], JSON.stringify(Object.fromEntries(byStatus), null, 1));
    await assertNothingWritten(server);
  });

  test('a certificate from another CA is 401 everywhere, even when it claims system:masters', async () => {
    const byStatus = await sweep(server, paths, { credentials: foreign });
    assert.deepEqual([...byStatus.keys()], [401], JSON.stringify(Object.fromEntries(byStatus), null, 1));
    await assertNothingWritten(server);
  });

  test('a bearer token nothing issued is 401 everywhere', async () => {
    const forged =
      'eyJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJrdWJlcm5ldGVzL3NlcnZpY2VhY2NvdW50Iiwic3ViIjoic3lzdGVtOmFkbWluIn0.c2lnbmF0dXJl';
    for (const token of [forged, 'not-a-token']) {
      const byStatus = await sweep(server, paths, {
        credentials: 'none',
        headers: { authorization: `Bearer ${token}` },
      });
      assert.deepEqual([...byStatus.keys()], [401], JSON.stringify(Object.fromEntries(byStatus), null, 1));
    }
    await assertNothingWritten(server);
  });
});

describe('--anonymous-auth=true: system:anonymous reads only the public information paths', () => {
  let server: TestServer;
  let paths: { method: string; path: string }[];

  before(async () => {
    server = await startTestServer({ controllers: false, nodes: 0, anonymousAuth: true });
    paths = await servedPaths(server);
  });
  after(() => server.stop());

  test('every request is 403 but GETs of /healthz, /livez, /readyz and /version', async () => {
    const byStatus = await sweep(server, paths, { credentials: 'none' });
    const allowed = byStatus.get(200) ?? [];
    assert.deepEqual(
      allowed.sort(),
      [...publicInfo].map((p) => `GET ${p}`).sort(),
      'only the public information paths answer',
    );
    byStatus.delete(200);
    assert.deepEqual([...byStatus.keys()], [403], JSON.stringify(Object.fromEntries(byStatus), null, 1));
    await assertNothingWritten(server);
  });
});
