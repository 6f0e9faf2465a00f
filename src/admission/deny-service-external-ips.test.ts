import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../machinery/object.js';
import { denyServiceExternalIPsPlugin } from './deny-service-external-ips.js';
import { attrsOf, runPlugin, statusOf, testDeps } from './testing/fake-admission-deps.js';

const svc = (externalIPs?: string[]): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'web', namespace: 'ns' },
  spec: { ports: [{ port: 80 }], ...(externalIPs ? { externalIPs } : {}) },
});

const write = (object: KubeObject, oldObject?: KubeObject, subresource = '') =>
  attrsOf({
    operation: oldObject ? 'UPDATE' : 'CREATE',
    resource: 'services',
    kind: 'Service',
    namespace: 'ns',
    subresource,
    object,
    ...(oldObject ? { oldObject } : {}),
  });

const plugin = denyServiceExternalIPsPlugin(testDeps());
const denied = 'services "web" is forbidden: Use of external IPs is denied by admission control';

async function refused(object: KubeObject, oldObject?: KubeObject): Promise<void> {
  await assert.rejects(runPlugin(plugin, write(object, oldObject)), (err) => {
    assert.deepEqual(statusOf(err), { code: 403, message: denied });
    return true;
  });
}

test('DenyServiceExternalIPs validates creates and updates', () => {
  assert.equal(plugin.name, 'DenyServiceExternalIPs');
  assert.deepEqual([...plugin.operations], ['CREATE', 'UPDATE']);
});

test('Services without external IPs pass', async () => {
  await runPlugin(plugin, write(svc()));
  await runPlugin(plugin, write(svc([])));
  await runPlugin(plugin, write(svc(), svc(['1.1.1.1'])));
});

test('new external IPs are refused on create and update', async () => {
  await refused(svc(['1.1.1.1']));
  await refused(svc(['1.1.1.1']), svc());
  await refused(svc(['1.1.1.1', '2.2.2.2']), svc(['1.1.1.1']));
});

test('keeping or dropping existing external IPs is allowed; status writes are ignored', async () => {
  await runPlugin(plugin, write(svc(['1.1.1.1']), svc(['1.1.1.1', '2.2.2.2'])));
  await runPlugin(plugin, write(svc(['2.2.2.2', '1.1.1.1']), svc(['1.1.1.1', '2.2.2.2'])));
  await runPlugin(plugin, write(svc(['9.9.9.9']), svc(), 'status'));
});
