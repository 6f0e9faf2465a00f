/**
 * APIResponseCompression end to end: kubectl 1.27 (Go's transport asks for gzip on every request)
 * and @kubernetes/client-node (node-fetch asks too) read a ConfigMap list of about 200 KiB that
 * nanokube sends gzipped, as kube-apiserver v1.27 does.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { itStopsCleanly, kubectlSession, kubectlSkip } from './support/session.js';

const configMaps = Array.from(
  { length: 25 },
  (_, i) => `---
apiVersion: v1
kind: ConfigMap
metadata: {name: gz-${i}}
data: {blob: ${'x'.repeat(8 * 1024)}}
`,
).join('');

describe('large lists gzipped to kubectl and client-node', { skip: kubectlSkip }, () => {
  const s = kubectlSession({ args: ['--controllers=', '--nodes', '0'] });

  it('kubectl get -o json: the answer came gzipped (Vary: Accept-Encoding) and decodes whole', async () => {
    await s.ok(['apply', '-f', '-'], { input: configMaps });
    const r = await s.run(['get', 'configmaps', '-o', 'json', '-v=8']);
    assert.equal(r.code, 0, r.stderr);
    // Go's transport removes Content-Encoding once it has inflated the body; Vary stays.
    assert.match(r.stderr, /GET https:\/\/\S+\/api\/v1\/namespaces\/default\/configmaps\?limit=500/);
    assert.match(r.stderr, /Vary: Accept-Encoding/);
    const list = JSON.parse(r.stdout) as { items: { metadata: { name: string } }[] };
    assert.equal(list.items.filter((i) => i.metadata.name.startsWith('gz-')).length, 25);
  });

  it('one ConfigMap (about 16 KiB with its last-applied annotation) is not compressed', async () => {
    const r = await s.run(['get', 'configmap', 'gz-0', '-o', 'json', '-v=8']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /Response Headers/);
    assert.doesNotMatch(r.stderr, /Vary: Accept-Encoding/);
  });

  it('client-node lists the ConfigMaps through the gzipped answer', async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(s.server.kubeconfigPath);
    const core = kc.makeApiClient(CoreV1Api);
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    const mine = list.items.filter((i) => i.metadata?.name?.startsWith('gz-') === true);
    assert.equal(mine.length, 25);
    assert.equal(mine[0]?.data?.['blob']?.length, 8 * 1024);
  });

  itStopsCleanly(s);
});
