import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../machinery/object.js';
import { clusterTrustBundleAttestPlugin } from './cluster-trust-bundle-attest.js';
import type { AdmissionAuthorizationRequest } from './dependencies.js';
import { attrsOf, runPlugin, statusOf, testDeps } from './testing/fake-admission-deps.js';

const bundle = (name: string, signerName?: string): KubeObject => ({
  apiVersion: 'certificates.k8s.io/v1alpha1',
  kind: 'ClusterTrustBundle',
  metadata: { name },
  spec: { ...(signerName !== undefined ? { signerName } : {}), trustBundle: '-----BEGIN CERTIFICATE-----' },
});

const write = (object: KubeObject, operation: 'CREATE' | 'UPDATE' = 'CREATE') =>
  attrsOf({
    operation,
    group: 'certificates.k8s.io',
    version: 'v1alpha1',
    resource: 'clustertrustbundles',
    kind: 'ClusterTrustBundle',
    object,
    ...(operation === 'UPDATE' ? { oldObject: object } : {}),
  });

const attest =
  (name: string) =>
  (r: AdmissionAuthorizationRequest): boolean =>
    r.verb === 'attest' &&
    r.apiGroup === 'certificates.k8s.io' &&
    r.resource === 'signers' &&
    r.name === name;

test('ClusterTrustBundleAttest validates creates and updates', () => {
  const p = clusterTrustBundleAttestPlugin(testDeps());
  assert.equal(p.name, 'ClusterTrustBundleAttest');
  assert.deepEqual([...p.operations], ['CREATE', 'UPDATE']);
});

test('attest on the signer or its domain wildcard allows the write', async () => {
  for (const granted of ['foo.com/bar', 'foo.com/*']) {
    const deps = testDeps({ features: ['ClusterTrustBundle'], allow: attest(granted) });
    for (const op of ['CREATE', 'UPDATE'] as const) {
      await runPlugin(
        clusterTrustBundleAttestPlugin(deps),
        write(bundle('foo.com:bar:abc', 'foo.com/bar'), op),
      );
    }
  }
});

test('without attest the write is refused with upstream’s text', async () => {
  const deps = testDeps({ features: ['ClusterTrustBundle'], allow: attest('abc.com/def') });
  for (const op of ['CREATE', 'UPDATE'] as const) {
    await assert.rejects(
      runPlugin(clusterTrustBundleAttestPlugin(deps), write(bundle('foo.com:bar:abc', 'foo.com/bar'), op)),
      (err) => {
        assert.deepEqual(statusOf(err), {
          code: 403,
          message:
            'clustertrustbundles.certificates.k8s.io "foo.com:bar:abc" is forbidden: user not permitted to attest for signerName "foo.com/bar"',
        });
        return true;
      },
    );
  }
});

test('bundles without a signer need nothing; with the gate off the plugin is inert', async () => {
  const on = testDeps({ features: ['ClusterTrustBundle'] });
  await runPlugin(clusterTrustBundleAttestPlugin(on), write(bundle('plain')));
  assert.equal(on.asked.length, 0);
  const off = testDeps();
  await runPlugin(clusterTrustBundleAttestPlugin(off), write(bundle('foo.com:bar:abc', 'foo.com/bar')));
  assert.equal(off.asked.length, 0);
});
