/**
 * Which resource's encryption a storage key falls under, in kube-apiserver's key layout:
 * `deployments` is apps', `services/specs` core Services', a dotted first segment not served is a
 * custom resource's group.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { etcdResourcePath } from '../../registry/generic/keys.js';
import { keyResource } from './encryption.js';
import { servedResources } from './resources.js';

const byPath = new Map(
  servedResources().map((r) => [
    etcdResourcePath(r.info),
    { group: r.info.group, resource: r.info.resource },
  ]),
);

test('storage keys map to their group resources', () => {
  const of = (key: string) => keyResource(key, byPath);
  assert.deepEqual(of('/registry/secrets/ns/s'), { group: '', resource: 'secrets' });
  assert.deepEqual(of('/registry/deployments/ns/d'), { group: 'apps', resource: 'deployments' });
  assert.deepEqual(of('/registry/services/specs/ns/s'), { group: '', resource: 'services' });
  assert.deepEqual(of('/registry/services/endpoints/ns/s'), { group: '', resource: 'endpoints' });
  assert.deepEqual(of('/registry/minions/n'), { group: '', resource: 'nodes' });
  assert.deepEqual(of('/registry/ingress/ns/i'), { group: 'networking.k8s.io', resource: 'ingresses' });
  assert.deepEqual(of('/registry/leases/ns/l'), { group: 'coordination.k8s.io', resource: 'leases' });
  assert.deepEqual(of('/registry/apiextensions.k8s.io/customresourcedefinitions/c'), {
    group: 'apiextensions.k8s.io',
    resource: 'customresourcedefinitions',
  });
  assert.deepEqual(of('/registry/example.com/widgets/ns/w'), { group: 'example.com', resource: 'widgets' });
  assert.equal(of('/elsewhere/x'), undefined);
});
