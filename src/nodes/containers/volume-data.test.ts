import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VolumeSetupError, apiVolumeFiles, tokenKey, unreadSources } from './volume-data.js';

// The volume the ServiceAccount admission plugin adds to every pod.
const apiAccess = {
  name: 'kube-api-access-x1',
  projected: {
    defaultMode: 0o644,
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      {
        downwardAPI: {
          items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
        },
      },
    ],
  },
};
const pod = { metadata: { name: 'p', namespace: 'ns1' }, spec: { volumes: [apiAccess] } };

test('unreadSources: a volume whose token or ConfigMap the node has not read', () => {
  assert.equal(unreadSources(apiAccess, {}), true);
  const token = new Map([[tokenKey('kube-api-access-x1', 0), 'tok']]);
  assert.equal(unreadSources(apiAccess, { tokens: token }), true, 'the ConfigMap is not read');
  const objects = new Map([['configmap/kube-root-ca.crt', { 'ca.crt': 'CA' }]]);
  assert.equal(unreadSources(apiAccess, { objects }), true, 'the token is not requested');
  assert.equal(unreadSources(apiAccess, { objects, tokens: token }), false);
  // Read and not found is read: setting the volume up fails, as the kubelet's does.
  const missing = new Map([['configmap/kube-root-ca.crt', null]]);
  assert.equal(unreadSources(apiAccess, { objects: missing, tokens: token }), false);
  assert.throws(
    () => apiVolumeFiles(pod, apiAccess, { objects: missing, tokens: token }),
    (err: unknown) =>
      err instanceof VolumeSetupError && err.message === 'configmap kube-root-ca.crt not found',
  );
});

test('unreadSources: single-source volumes; a downward API volume reads nothing', () => {
  const secret = { name: 's', secret: { secretName: 'creds' } };
  assert.equal(unreadSources(secret, {}), true);
  assert.equal(unreadSources(secret, { objects: new Map([['secret/creds', { a: 'b' }]]) }), false);
  const cm = { name: 'c', configMap: { name: 'conf', optional: true } };
  assert.equal(unreadSources(cm, { objects: new Map([['configmap/conf', null]]) }), false);
  assert.equal(unreadSources({ name: 'd', downwardAPI: { items: [] } }, {}), false);
});

test('apiVolumeFiles: the ServiceAccount volume once its sources are read', () => {
  const files = apiVolumeFiles(pod, apiAccess, {
    objects: new Map([['configmap/kube-root-ca.crt', { 'ca.crt': 'CA' }]]),
    tokens: new Map([[tokenKey('kube-api-access-x1', 0), 'tok']]),
  });
  assert.deepEqual(
    [...files].map(([path, f]) => [path, f.content, f.mode]),
    [
      ['token', 'tok', 0o644],
      ['ca.crt', 'CA', 0o644],
      ['namespace', 'ns1', 0o644],
    ],
  );
});
