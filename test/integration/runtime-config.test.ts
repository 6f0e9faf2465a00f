/**
 * Alpha group-versions are served only with --runtime-config and their feature gate, as
 * upstream; ClusterTrustBundle (certificates.k8s.io/v1alpha1, AM-11) is the first.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const refDir = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'shared',
  'reference',
  'kube-apiserver-v1.28.7',
  'alpha-gates-on',
);
const path = '/apis/certificates.k8s.io/v1alpha1';

describe('certificates.k8s.io/v1alpha1 ClusterTrustBundle behind --runtime-config and its gate', () => {
  let plain: TestServer;
  let onlyConfig: TestServer;
  let both: TestServer;
  before(async () => {
    [plain, onlyConfig, both] = await Promise.all([
      startTestServer({ controllers: false, storage: 'memory' }),
      startTestServer({
        controllers: false,
        storage: 'memory',
        runtimeConfig: 'certificates.k8s.io/v1alpha1=true',
      }),
      startTestServer({
        controllers: false,
        storage: 'memory',
        runtimeConfig: 'certificates.k8s.io/v1alpha1=true',
        featureGates: { ClusterTrustBundle: true },
      }),
    ]);
  });
  after(() => Promise.all([plain.stop(), onlyConfig.stop(), both.stop()]));

  test('not served by default, nor with only one of the two switches', async () => {
    assert.equal((await plain.request('GET', path)).status, 404);
    assert.equal((await onlyConfig.request('GET', path)).status, 404);
    assert.equal((await plain.request('GET', '/apis/certificates.k8s.io/v1')).status, 200);
  });

  test('served with both, and discovered as the reference server with alpha gates on', async () => {
    const r = await both.request('GET', path);
    assert.equal(r.status, 200);
    const file = join(refDir, 'discovery', 'apis_certificates.k8s.io_v1alpha1.json');
    if (!existsSync(file)) {
      console.log(`skipping the reference comparison: ${file} is absent`);
      return;
    }
    const ref = JSON.parse(readFileSync(file, 'utf8')) as { resources: unknown[] };
    assert.deepEqual(r.json<{ resources: unknown[] }>().resources, ref.resources);
    const group = (await both.request('GET', '/apis/certificates.k8s.io')).json<{
      preferredVersion: unknown;
    }>();
    assert.deepEqual(group.preferredVersion, { groupVersion: 'certificates.k8s.io/v1', version: 'v1' });
  });
});
