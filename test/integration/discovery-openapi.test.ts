/**
 * Integration: discovery (legacy and aggregated v2beta1 with ETag, AM-15) and OpenAPI v2/v3
 * (AM-16) compared with the reference kube-apiserver's documents where we serve the same kinds.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const refDir = join(process.cwd(), '../shared/reference/kube-apiserver-v1.28.7/default');
const haveRef = existsSync(refDir);
const skipRef = haveRef ? false : `reference data absent (${refDir}); run inside the nanokube workspace`;
const aggregatedAccept =
  'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

interface ApiResource {
  name: string;
  kind: string;
  verbs: string[];
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  storageVersionHash?: string;
}

describe('discovery and OpenAPI', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ storage: 'memory' });
  });
  after(() => s.stop());

  it('legacy /api and /apis list the served group-versions', async () => {
    const api = (await s.request('GET', '/api')).json<{ kind: string; versions: string[] }>();
    assert.equal(api.kind, 'APIVersions');
    assert.deepEqual(api.versions, ['v1']);
    const apis = (await s.request('GET', '/apis')).json<{
      groups: { name: string; preferredVersion: { groupVersion: string } }[];
    }>();
    assert.deepEqual(
      apis.groups.map((g) => g.preferredVersion.groupVersion),
      [
        'apiregistration.k8s.io/v1',
        'apps/v1',
        'events.k8s.io/v1',
        'authentication.k8s.io/v1',
        'authorization.k8s.io/v1',
        'autoscaling/v2',
        'batch/v1',
        'certificates.k8s.io/v1',
        'networking.k8s.io/v1',
        'policy/v1',
        'rbac.authorization.k8s.io/v1',
        'storage.k8s.io/v1',
        'admissionregistration.k8s.io/v1',
        'apiextensions.k8s.io/v1',
        'scheduling.k8s.io/v1',
        'coordination.k8s.io/v1',
        'node.k8s.io/v1',
        'discovery.k8s.io/v1',
        'flowcontrol.apiserver.k8s.io/v1beta3',
      ],
    );
  });

  it('resource lists match the reference server for the kinds served', { skip: skipRef }, async () => {
    for (const [path, file] of [
      ['/api/v1', 'api_v1.json'],
      ['/apis/apps/v1', 'apis_apps_v1.json'],
      ['/apis/autoscaling/v1', 'apis_autoscaling_v1.json'],
      ['/apis/autoscaling/v2', 'apis_autoscaling_v2.json'],
      ['/apis/batch/v1', 'apis_batch_v1.json'],
      ['/apis/rbac.authorization.k8s.io/v1', 'apis_rbac.authorization.k8s.io_v1.json'],
      ['/apis/networking.k8s.io/v1', 'apis_networking.k8s.io_v1.json'],
      ['/apis/policy/v1', 'apis_policy_v1.json'],
      ['/apis/scheduling.k8s.io/v1', 'apis_scheduling.k8s.io_v1.json'],
      ['/apis/node.k8s.io/v1', 'apis_node.k8s.io_v1.json'],
      ['/apis/certificates.k8s.io/v1', 'apis_certificates.k8s.io_v1.json'],
      ['/apis/flowcontrol.apiserver.k8s.io/v1beta2', 'apis_flowcontrol.apiserver.k8s.io_v1beta2.json'],
      ['/apis/flowcontrol.apiserver.k8s.io/v1beta3', 'apis_flowcontrol.apiserver.k8s.io_v1beta3.json'],
      ['/apis/coordination.k8s.io/v1', 'apis_coordination.k8s.io_v1.json'],
      ['/apis/events.k8s.io/v1', 'apis_events.k8s.io_v1.json'],
      ['/apis/discovery.k8s.io/v1', 'apis_discovery.k8s.io_v1.json'],
      ['/apis/storage.k8s.io/v1', 'apis_storage.k8s.io_v1.json'],
    ] as const) {
      const ours = (await s.request('GET', path)).json<{ resources: ApiResource[] }>().resources;
      const ref = (
        JSON.parse(readFileSync(join(refDir, 'discovery', file), 'utf8')) as { resources: ApiResource[] }
      ).resources;
      for (const r of ours) {
        const expected = ref.find((x) => x.name === r.name);
        assert.ok(expected, `${path} ${r.name} exists upstream`);
        assert.deepEqual(r, expected, `${path} ${r.name}`);
      }
    }
  });

  it('aggregated discovery v2beta1 with ETag and 304', async () => {
    const r = await s.request('GET', '/apis', { accept: aggregatedAccept });
    assert.equal(r.status, 200);
    assert.equal(
      r.headers['content-type'],
      'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList',
    );
    const etag = r.headers['etag'];
    // As kube-apiserver's ServeHTTPWithETag: a quoted upper-case SHA-512, public, varying by Accept.
    assert.match(String(etag), /^"[0-9A-F]{128}"$/);
    assert.equal(r.headers['cache-control'], 'public');
    assert.equal(r.headers['vary'], 'Accept');
    const doc = r.json<{ kind: string; items: { metadata: { name: string } }[] }>();
    assert.equal(doc.kind, 'APIGroupDiscoveryList');
    assert.deepEqual(
      doc.items.map((i) => i.metadata.name),
      [
        'apiregistration.k8s.io',
        'apps',
        'events.k8s.io',
        'authentication.k8s.io',
        'authorization.k8s.io',
        'autoscaling',
        'batch',
        'certificates.k8s.io',
        'networking.k8s.io',
        'policy',
        'rbac.authorization.k8s.io',
        'storage.k8s.io',
        'admissionregistration.k8s.io',
        'apiextensions.k8s.io',
        'scheduling.k8s.io',
        'coordination.k8s.io',
        'node.k8s.io',
        'discovery.k8s.io',
        'flowcontrol.apiserver.k8s.io',
      ],
    );
    const again = await s.request('GET', '/apis', {
      accept: aggregatedAccept,
      headers: { 'if-none-match': String(etag) },
    });
    assert.equal(again.status, 304);
    assert.equal(again.headers['cache-control'], 'public');
    assert.equal(again.headers['etag'], etag);
    const core = (await s.request('GET', '/api', { accept: aggregatedAccept })).json<{
      items: { versions: { version: string }[] }[];
    }>();
    assert.equal(core.items[0]?.versions[0]?.version, 'v1');
  });

  it('kubectl 1.30+ asks for v2 first: v2beta1 is chosen, not the legacy list', async () => {
    const newer =
      'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
    const r = await s.request('GET', '/apis', { accept: newer });
    assert.equal(r.json()['kind'], 'APIGroupDiscoveryList');
    const onlyV2 = await s.request('GET', '/api', {
      accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json',
    });
    assert.equal(onlyV2.json()['kind'], 'APIVersions');
  });

  it('aggregated entries match the reference for the kinds served', { skip: skipRef }, async () => {
    type Doc = {
      items: {
        metadata: { name?: string };
        versions: { version: string; resources: { resource: string }[] }[];
      }[];
    };
    const ours = (await s.request('GET', '/apis', { accept: aggregatedAccept })).json<Doc>();
    const ref = JSON.parse(readFileSync(join(refDir, 'discovery', 'aggregated_apis.json'), 'utf8')) as Doc;
    for (const g of ours.items) {
      const rg = ref.items.find((x) => x.metadata.name === g.metadata.name)!;
      for (const v of g.versions) {
        const rv = rg.versions.find((x) => x.version === v.version);
        // v1.27-only group-versions (authentication.k8s.io/v1beta1) are not in the v1.28 reference.
        if (rv === undefined) continue;
        for (const res of v.resources) {
          assert.deepEqual(
            res,
            rv.resources.find((x) => x.resource === res.resource),
            `${g.metadata.name}/${v.version} ${res.resource}`,
          );
        }
      }
    }
  });

  it('/openapi/v2 in JSON and in the protobuf kubectl asks for', async () => {
    const json = await s.request('GET', '/openapi/v2');
    assert.equal(json.status, 200);
    const doc = json.json<{
      swagger: string;
      definitions: Record<string, { 'x-kubernetes-group-version-kind'?: unknown }>;
    }>();
    assert.equal(doc.swagger, '2.0');
    assert.ok(doc.definitions['io.k8s.api.apps.v1.Deployment']?.['x-kubernetes-group-version-kind']);
    const pb = await s.request('GET', '/openapi/v2', {
      accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
    });
    assert.equal(pb.status, 200);
    assert.equal(pb.headers['content-type'], 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    const etag = String(pb.headers['etag']);
    const again = await s.request('GET', '/openapi/v2', {
      accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
      headers: { 'if-none-match': etag },
    });
    assert.equal(again.status, 304);
  });

  it('/openapi/v3 index points at hashed, immutable documents', async () => {
    const index = (await s.request('GET', '/openapi/v3')).json<{
      paths: Record<string, { serverRelativeURL: string }>;
    }>();
    const url = index.paths['apis/apps/v1']?.serverRelativeURL;
    assert.match(String(url), /^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{128}$/);
    const doc = await s.request('GET', String(url));
    assert.equal(doc.status, 200);
    assert.equal(doc.headers['cache-control'], 'public, immutable');
    const body = doc.json<{ openapi: string; components: { schemas: Record<string, unknown> } }>();
    assert.equal(body.openapi, '3.0.0');
    assert.ok(body.components.schemas['io.k8s.api.apps.v1.Deployment']);
    const stale = await s.request('GET', '/openapi/v3/apis/apps/v1?hash=0000');
    assert.equal(stale.status, 301);
    assert.equal(stale.headers['location'], url);
  });

  it('health endpoints answer like upstream, /version reports v1.27', async () => {
    assert.equal((await s.request('GET', '/livez')).text, 'ok');
    const verbose = await s.request('GET', '/readyz?verbose');
    assert.match(verbose.text, /^\[\+\]ping ok\n\[\+\]etcd ok\n\[\+\]shutdown ok\nreadyz check passed\n$/);
    assert.equal((await s.request('GET', '/healthz/etcd')).text, 'ok');
    const version = await s.request('GET', '/version');
    const v = version.json<{
      major: string;
      minor: string;
      gitVersion: string;
      gitCommit: string;
      gitTreeState: string;
      buildDate: string;
    }>();
    assert.equal(v.minor, '27');
    assert.match(v.gitVersion, /^v1\.27\.\d+\+nanokube/);
    // A release build's shape: a 40-hex commit, a tree state, an RFC 3339 build date.
    assert.match(v.gitCommit, /^[0-9a-f]{40}$/);
    assert.match(v.gitTreeState, /^(clean|dirty)$/);
    assert.match(v.buildDate, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // Written indented, as upstream's WriteRawJSON.
    assert.match(version.text, /^\{\n {2}"major": "1",/);
  });
});
