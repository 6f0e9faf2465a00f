/**
 * moveKeys, which brings stores of nanokube's first key layout to kube-apiserver's: every key
 * under a prefix moves with its value and lease, a move whose target prefix lies under its
 * source (services → services/specs) and one into it (endpoints → services/endpoints) do not
 * catch each other's keys, whatever the page size the keys are read in, and a key that changed meanwhile fails the move without losing it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMemoryKv } from './memory/memory-kv.js';
import { moveKeys } from './relayout.js';
import { bytes, text } from './testing/helpers.js';
import { prefixEnd } from './types.js';
import type { KvStore } from './types.js';

async function keys(kv: KvStore): Promise<[string, string, boolean][]> {
  const r = await kv.range({ key: '/registry', end: prefixEnd('/registry') });
  return r.kvs.map((k) => [k.key, text(k.value), k.lease !== 0]);
}

for (const pageSize of [512, 1]) {
  test(`keys move under their new prefixes with values and leases; overlapping prefixes stay apart (pages of ${pageSize})`, async () => {
    const kv = createMemoryKv({});
    const lease = await kv.grantLease(3600);
    await kv.create('/registry/services/default/kubernetes', bytes('svc'));
    await kv.create('/registry/services/specs/x', bytes('svc in namespace specs'));
    await kv.create('/registry/endpoints/default/kubernetes', bytes('ep'));
    await kv.create('/registry/apps/deployments/ns/web', bytes('dep'));
    await kv.create('/registry/events/ns/e', bytes('ev'), { lease: lease.id });
    await kv.create('/registry/pods/ns/p', bytes('pod'));
    const moved = await moveKeys(
      kv,
      [
        { from: '/registry/endpoints/', to: '/registry/services/endpoints/' },
        { from: '/registry/services/', to: '/registry/services/specs/' },
        { from: '/registry/apps/deployments/', to: '/registry/deployments/' },
      ],
      { pageSize },
    );
    assert.equal(moved, 4);
    assert.deepEqual(await keys(kv), [
      ['/registry/deployments/ns/web', 'dep', false],
      ['/registry/events/ns/e', 'ev', true],
      ['/registry/pods/ns/p', 'pod', false],
      ['/registry/services/endpoints/default/kubernetes', 'ep', false],
      ['/registry/services/specs/default/kubernetes', 'svc', false],
      ['/registry/services/specs/specs/x', 'svc in namespace specs', false],
    ]);
    assert.equal(
      await moveKeys(kv, [{ from: '/registry/apps/deployments/', to: '/registry/deployments/' }]),
      0,
    );
    await kv.close();
  });
}

test('a target that exists already fails the move, and nothing of that batch is lost', async () => {
  const kv = createMemoryKv({});
  await kv.create('/registry/apps/deployments/ns/web', bytes('old'));
  await kv.create('/registry/deployments/ns/web', bytes('new'));
  await assert.rejects(
    moveKeys(kv, [{ from: '/registry/apps/deployments/', to: '/registry/deployments/' }]),
    /moving keys from \/registry\/apps\/deployments\/ to \/registry\/deployments\/: a key changed meanwhile or its new place is taken/,
  );
  assert.deepEqual(await keys(kv), [
    ['/registry/apps/deployments/ns/web', 'old', false],
    ['/registry/deployments/ns/web', 'new', false],
  ]);
  await kv.close();
});
