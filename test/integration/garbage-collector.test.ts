/**
 * The garbage collector (kube-controller-manager v1.27 behaviour) against the
 * in-process server, through the client only: background, foreground (blockOwnerDeletion) and
 * orphan propagation, dangling owners (absent, or present with another uid), cluster-scoped
 * owners, invalid namespace references, chains, cycles, and resources added while it runs.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { arr, def, obj, ref, str } from '../../src/apis/schema/dsl.js';
import type { ResourceInfo } from '../../src/apis/resource.js';
import { allVerbs } from '../../src/apis/resource.js';
import { ApiError } from '../../src/client/api-error.js';
import { RestClient } from '../../src/client/rest-client.js';
import { GarbageCollector } from '../../src/controllers/garbage-collector/index.js';
import type { GarbageCollectorEvent } from '../../src/controllers/garbage-collector/index.js';
import type { RegistryResource } from '../../src/registry/resource.js';
import { defineStrategy } from '../../src/registry/strategies/base.js';
import type { JsonObject } from '../../src/util/json.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

type Meta = {
  name: string;
  uid: string;
  namespace?: string;
  resourceVersion: string;
  deletionTimestamp?: string;
  finalizers?: string[];
  ownerReferences?: OwnerRef[];
};
type Obj = { metadata: Meta } & Record<string, unknown>;
interface OwnerRef {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  blockOwnerDeletion?: boolean;
  controller?: boolean;
}

const ns = 'gc';
const otherNs = 'gc-other';
const cms = (n = ns): string => `/api/v1/namespaces/${n}/configmaps`;
const secrets = `/api/v1/namespaces/${ns}/secrets`;
const clusterRoles = '/apis/rbac.authorization.k8s.io/v1/clusterroles';

/** Polls `check` until it returns true (generous deadline; no timing is asserted). */
async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) assert.fail(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function ownerRef(o: Obj, apiVersion: string, kind: string, extra: Partial<OwnerRef> = {}): OwnerRef {
  return { apiVersion, kind, name: o.metadata.name, uid: o.metadata.uid, ...extra };
}

describe('garbage collector', () => {
  let s: TestServer;
  let client: RestClient;
  let gc: GarbageCollector;
  const stop = new AbortController();
  let running: Promise<void>;
  const errors: unknown[] = [];
  const events: GarbageCollectorEvent[] = [];

  before(async () => {
    s = await startTestServer({ controllers: false, storage: 'memory' });
    client = new RestClient({
      server: `https://127.0.0.1:${s.port}`,
      ca: s.pki.caCert,
      cert: s.pki.adminCert,
      key: s.pki.adminKey,
    });
    for (const name of [ns, otherNs]) {
      await client.request('POST', '/api/v1/namespaces', {
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
      });
    }
    gc = new GarbageCollector({
      client,
      onError: (err) => errors.push(err),
      workers: 4,
      resyncPeriodMs: 300,
      recordEvent: (e) => events.push(e),
    });
    running = gc.run(stop.signal);
    await eventually('the collector monitors configmaps', () =>
      Promise.resolve(gc.monitoredResources().includes('v1/configmaps')),
    );
  });

  after(async () => {
    stop.abort();
    await running;
    client.close();
    await s.stop();
  });

  async function create(path: string, body: JsonObject): Promise<Obj> {
    return (await client.request('POST', path, { body })) as unknown as Obj;
  }

  function cm(name: string, owners: OwnerRef[] = [], finalizers?: string[]): JsonObject {
    return {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name,
        ...(owners.length > 0 ? { ownerReferences: owners as unknown as JsonObject[] } : {}),
        ...(finalizers !== undefined ? { finalizers } : {}),
      },
    };
  }

  function secret(name: string, owners: OwnerRef[]): JsonObject {
    return {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name, ownerReferences: owners as unknown as JsonObject[] },
    };
  }

  async function get(path: string): Promise<Obj | undefined> {
    try {
      return (await client.request('GET', path)) as unknown as Obj;
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return undefined;
      throw err;
    }
  }

  const gone = (path: string) => async () => (await get(path)) === undefined;

  async function del(path: string, propagationPolicy?: string): Promise<void> {
    await client.request('DELETE', path, {
      body: propagationPolicy !== undefined ? { propagationPolicy } : {},
    });
  }

  /** Records the DELETED order of configmaps from now on. */
  function watchDeletions(rv: string): { names: string[]; stop: () => Promise<void> } {
    const names: string[] = [];
    const ac = new AbortController();
    const done = (async () => {
      for await (const ev of client.watch(`${cms()}?watch=1&resourceVersion=${rv}`, ac.signal)) {
        const meta = ev.object['metadata'] as { name?: string } | undefined;
        if (ev.type === 'DELETED' && meta?.name !== undefined) names.push(meta.name);
      }
    })();
    return {
      names,
      stop: async () => {
        ac.abort();
        await done;
      },
    };
  }

  it('background: dependents (ConfigMaps, Secrets) of a deleted owner are deleted', async () => {
    const owner = await create(cms(), cm('bg-owner'));
    const r = ownerRef(owner, 'v1', 'ConfigMap');
    await create(cms(), cm('bg-dep-1', [r]));
    await create(cms(), cm('bg-dep-2', [{ ...r, controller: true, blockOwnerDeletion: true }]));
    await create(secrets, secret('bg-secret', [r]));
    await del(`${cms()}/bg-owner`);
    assert.equal(await get(`${cms()}/bg-owner`), undefined);
    await eventually('bg-dep-1 deleted', gone(`${cms()}/bg-dep-1`));
    await eventually('bg-dep-2 deleted', gone(`${cms()}/bg-dep-2`));
    await eventually('bg-secret deleted', gone(`${secrets}/bg-secret`));
  });

  it('a dependent with a live owner and with another live owner stays', async () => {
    const a = await create(cms(), cm('multi-a'));
    const b = await create(cms(), cm('multi-b'));
    await create(cms(), cm('multi-dep', [ownerRef(a, 'v1', 'ConfigMap'), ownerRef(b, 'v1', 'ConfigMap')]));
    await del(`${cms()}/multi-a`);
    // The reference to the absent owner is removed; the object stays while b lives.
    await eventually('the dangling reference is removed', async () => {
      const dep = await get(`${cms()}/multi-dep`);
      assert.ok(dep !== undefined, 'multi-dep must not be deleted while multi-b exists');
      return (dep.metadata.ownerReferences ?? []).length === 1;
    });
    assert.equal((await get(`${cms()}/multi-dep`))?.metadata.ownerReferences?.[0]?.name, 'multi-b');
    await del(`${cms()}/multi-b`);
    await eventually('multi-dep deleted with its last owner', gone(`${cms()}/multi-dep`));
  });

  it('foreground: blocking dependents go first; the owner waits for them, then goes', async () => {
    const owner = await create(cms(), cm('fg-owner'));
    const r = ownerRef(owner, 'v1', 'ConfigMap', { blockOwnerDeletion: true });
    await create(cms(), cm('fg-dep', [r]));
    // A dependent kept by its own finalizer holds the owner.
    const held = await create(cms(), cm('fg-held', [r], ['example.com/hold']));
    await create(secrets, secret('fg-secret', [{ ...r, blockOwnerDeletion: false }]));
    const w = watchDeletions(held.metadata.resourceVersion);
    await del(`${cms()}/fg-owner`, 'Foreground');
    const marked = await get(`${cms()}/fg-owner`);
    assert.deepEqual(marked?.metadata.finalizers, ['foregroundDeletion']);
    await eventually('fg-dep deleted', gone(`${cms()}/fg-dep`));
    await eventually('fg-secret deleted', gone(`${secrets}/fg-secret`));
    await eventually('fg-held marked for deletion', async () => {
      return (await get(`${cms()}/fg-held`))?.metadata.deletionTimestamp !== undefined;
    });
    // fg-held still exists (its finalizer), so the owner must still exist too.
    assert.ok((await get(`${cms()}/fg-owner`)) !== undefined, 'the owner waits for its blocking dependent');
    await client.request('PATCH', `${cms()}/fg-held`, {
      body: { metadata: { finalizers: null } },
      contentType: 'application/merge-patch+json',
    });
    await eventually('fg-owner deleted', gone(`${cms()}/fg-owner`));
    await w.stop();
    assert.ok(w.names.indexOf('fg-held') < w.names.indexOf('fg-owner'), w.names.join(','));
    assert.ok(w.names.indexOf('fg-dep') < w.names.indexOf('fg-owner'), w.names.join(','));
  });

  it('orphan: dependents lose the ownerReference and stay; the owner goes', async () => {
    const owner = await create(cms(), cm('or-owner'));
    const other = await create(cms(), cm('or-other'));
    const r = ownerRef(owner, 'v1', 'ConfigMap', { blockOwnerDeletion: true });
    const dep = await create(cms(), cm('or-dep', [r, ownerRef(other, 'v1', 'ConfigMap')]));
    const sec = await create(secrets, secret('or-secret', [r]));
    // Orphaning acts on the dependents the GC's graph knows, as upstream's: one its informers have
    // not delivered yet is later found with its owner gone, and collected. Wait until both are
    // known (a quiet server delivers them within a flush round; a loaded one may not).
    await eventually('the GC graph has the dependents', () =>
      Promise.resolve(gc.graphHasUid(dep.metadata.uid) && gc.graphHasUid(sec.metadata.uid)),
    );
    await del(`${cms()}/or-owner`, 'Orphan');
    await eventually('or-owner deleted', gone(`${cms()}/or-owner`));
    const depAfter = await get(`${cms()}/or-dep`);
    assert.deepEqual(
      depAfter?.metadata.ownerReferences?.map((o) => o.name),
      ['or-other'],
    );
    const secAfter = await get(`${secrets}/or-secret`);
    assert.ok(secAfter !== undefined);
    assert.equal(secAfter.metadata.ownerReferences, undefined);
  });

  it('dangling: an owner uid not found, or found under another uid, counts as absent', async () => {
    const ghost = { apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: randomUUID() };
    await create(cms(), cm('dangling-dep', [ghost]));
    await eventually('dangling-dep deleted', gone(`${cms()}/dangling-dep`));

    const live = await create(cms(), cm('renamed-owner'));
    await create(cms(), cm('wrong-uid-dep', [{ ...ownerRef(live, 'v1', 'ConfigMap'), uid: randomUUID() }]));
    await eventually('wrong-uid-dep deleted', gone(`${cms()}/wrong-uid-dep`));
    assert.ok((await get(`${cms()}/renamed-owner`)) !== undefined);
  });

  it('cluster-scoped owners own namespaced and cluster-scoped dependents', async () => {
    const role = await create(clusterRoles, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'gc-owner-role' },
    });
    const r = ownerRef(role, 'rbac.authorization.k8s.io/v1', 'ClusterRole');
    await create(cms(), cm('cluster-owned', [r]));
    await create(clusterRoles, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'gc-dep-role', ownerReferences: [r as unknown as JsonObject] },
    });
    await del(`${clusterRoles}/gc-owner-role`);
    await eventually('the namespaced dependent is deleted', gone(`${cms()}/cluster-owned`));
    await eventually('the cluster-scoped dependent is deleted', gone(`${clusterRoles}/gc-dep-role`));
  });

  it('invalid references: another namespace is absent (event); a cluster-scoped dependent of a namespaced owner stays', async () => {
    const owner = await create(cms(), cm('ns-owner'));
    const r = ownerRef(owner, 'v1', 'ConfigMap');
    // Named from another namespace: that namespace has no such owner, so the dependent goes.
    await create(cms(otherNs), cm('cross-ns-dep', [r]));
    await eventually('cross-ns-dep deleted', gone(`${cms(otherNs)}/cross-ns-dep`));
    assert.ok((await get(`${cms()}/ns-owner`)) !== undefined);
    await eventually('an OwnerRefInvalidNamespace event', () =>
      Promise.resolve(
        events.some(
          (e) =>
            e.reason === 'OwnerRefInvalidNamespace' &&
            e.involvedObject.name === 'cross-ns-dep' &&
            e.message ===
              `ownerRef [v1/ConfigMap, namespace: ${otherNs}, name: ns-owner, uid: ${owner.metadata.uid}] does not exist in namespace "${otherNs}"`,
        ),
      ),
    );
    // A cluster-scoped object cannot have a namespaced owner: upstream leaves it alone, even
    // once its named owner is gone.
    await create(clusterRoles, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'gc-invalid-dep', ownerReferences: [r as unknown as JsonObject] },
    });
    await del(`${cms()}/ns-owner`);
    // A later dangling dependent is collected: the queue has moved past the invalid one.
    await create(cms(), cm('after-invalid', [{ ...r, name: 'ghost2', uid: randomUUID() }]));
    await eventually('after-invalid deleted', gone(`${cms()}/after-invalid`));
    assert.ok((await get(`${clusterRoles}/gc-invalid-dep`)) !== undefined, 'not deleted wrongly');
  });

  it('a chain of three is collected in the background, and in the foreground bottom-up', async () => {
    const a = await create(cms(), cm('chain-a'));
    const b = await create(cms(), cm('chain-b', [ownerRef(a, 'v1', 'ConfigMap')]));
    await create(cms(), cm('chain-c', [ownerRef(b, 'v1', 'ConfigMap')]));
    await del(`${cms()}/chain-a`);
    await eventually('chain-b deleted', gone(`${cms()}/chain-b`));
    await eventually('chain-c deleted', gone(`${cms()}/chain-c`));

    const x = await create(cms(), cm('fchain-a'));
    const y = await create(
      cms(),
      cm('fchain-b', [ownerRef(x, 'v1', 'ConfigMap', { blockOwnerDeletion: true })]),
    );
    const z = await create(
      cms(),
      cm('fchain-c', [ownerRef(y, 'v1', 'ConfigMap', { blockOwnerDeletion: true })]),
    );
    const w = watchDeletions(z.metadata.resourceVersion);
    await del(`${cms()}/fchain-a`, 'Foreground');
    await eventually('fchain-a deleted', gone(`${cms()}/fchain-a`));
    // Watch events go out in rounds: the last deletion may reach the watch just after the GET.
    await eventually('the watch saw fchain-a go', () => Promise.resolve(w.names.includes('fchain-a')));
    await w.stop();
    const order = ['fchain-c', 'fchain-b', 'fchain-a'].map((n) => w.names.indexOf(n));
    assert.ok(order[0]! >= 0 && order[0]! < order[1]! && order[1]! < order[2]!, w.names.join(','));
  });

  it('a cycle of blocking references does not deadlock a foreground deletion', async () => {
    const a = await create(cms(), cm('cycle-a'));
    const b = await create(
      cms(),
      cm('cycle-b', [ownerRef(a, 'v1', 'ConfigMap', { blockOwnerDeletion: true })]),
    );
    await client.request('PATCH', `${cms()}/cycle-a`, {
      body: { metadata: { ownerReferences: [ownerRef(b, 'v1', 'ConfigMap', { blockOwnerDeletion: true })] } },
      contentType: 'application/merge-patch+json',
    });
    await del(`${cms()}/cycle-a`, 'Foreground');
    await eventually('cycle-a deleted', gone(`${cms()}/cycle-a`));
    await eventually('cycle-b deleted', gone(`${cms()}/cycle-b`));
  });

  it('a resource served later is discovered and collected', async () => {
    const info: ResourceInfo = {
      group: 'gc.nanokube.io',
      version: 'v1',
      kind: 'Gadget',
      resource: 'gadgets',
      singular: 'gadget',
      namespaced: true,
      definition: 'io.nanokube.gc.v1.Gadget',
      verbs: allVerbs,
    };
    const gadgets: RegistryResource = { info, strategy: defineStrategy({ namespaced: true }) };
    s.resources.add(gadgets, [
      def(
        'io.nanokube.gc.v1.Gadget',
        obj({
          apiVersion: str(),
          kind: str(),
          metadata: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', { default: {} }),
        }),
        [['gc.nanokube.io', 'v1', 'Gadget']],
      ),
      def(
        'io.nanokube.gc.v1.GadgetList',
        obj({
          apiVersion: str(),
          kind: str(),
          items: arr(ref('io.nanokube.gc.v1.Gadget', { default: {} })),
          metadata: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta', { default: {} }),
        }),
        [['gc.nanokube.io', 'v1', 'GadgetList']],
      ),
    ]);
    const path = `/apis/gc.nanokube.io/v1/namespaces/${ns}/gadgets`;
    await eventually('gadgets monitored', () =>
      Promise.resolve(gc.monitoredResources().includes('gc.nanokube.io/v1/gadgets')),
    );
    const owner = await create(path, {
      apiVersion: 'gc.nanokube.io/v1',
      kind: 'Gadget',
      metadata: { name: 'g-owner' },
    });
    await create(path, {
      apiVersion: 'gc.nanokube.io/v1',
      kind: 'Gadget',
      metadata: {
        name: 'g-dep',
        ownerReferences: [ownerRef(owner, 'gc.nanokube.io/v1', 'Gadget') as unknown as JsonObject],
      },
    });
    await create(cms(), cm('g-cm', [ownerRef(owner, 'gc.nanokube.io/v1', 'Gadget')]));
    await del(`${path}/g-owner`);
    await eventually('g-dep deleted', gone(`${path}/g-dep`));
    await eventually('g-cm deleted', gone(`${cms()}/g-cm`));
  });

  it('reported no unexpected errors', () => {
    const unexpected = errors.filter((e) => !/not all resource monitors/.test(String(e)));
    assert.deepEqual(unexpected.map(String), []);
  });
});
