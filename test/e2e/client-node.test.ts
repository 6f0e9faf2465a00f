/**
 * End to end with the official JavaScript client: @kubernetes/client-node 1.x against the real
 * `nanokube serve` process, configured only from the kubeconfig the server writes.
 */
/* eslint-disable @typescript-eslint/no-unsafe-class-instance-assignment -- the client's models are plain
   data classes and object literals are its documented way to build request bodies. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ApiException, AppsV1Api, CoreV1Api, KubeConfig, Watch } from '@kubernetes/client-node';
import type { KubernetesObject, V1ConfigMap, V1Deployment } from '@kubernetes/client-node';
import { skipWithoutDist, spawnServer } from './support-client/spawn-server.js';
import type { SpawnedServer } from './support-client/spawn-server.js';

const ns = 'e2e-client-node';

interface WatchEvent {
  readonly type: string;
  readonly name: string;
  readonly resourceVersion: string;
  readonly data: Record<string, string> | undefined;
}

/** Resolves when `predicate` holds for the collected events, or rejects after `timeoutMs`. */
function waitFor(
  events: WatchEvent[],
  predicate: (e: WatchEvent[]) => boolean,
  timeoutMs: number,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = (): void => {
      if (predicate(events)) return resolve();
      if (Date.now() - started > timeoutMs) {
        return reject(
          new Error(`watch events not seen within ${timeoutMs} ms; got ${JSON.stringify(events)}`),
        );
      }
      setTimeout(tick, 20);
    };
    tick();
  });
}

describe('@kubernetes/client-node against nanokube serve', { skip: skipWithoutDist }, () => {
  let dataDir = '';
  let server: SpawnedServer | undefined;
  let kc: KubeConfig;
  let core: CoreV1Api;
  let apps: AppsV1Api;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'nanokube-e2e-'));
    server = await spawnServer({ dataDir });
    kc = new KubeConfig();
    kc.loadFromFile(server.kubeconfigPath);
    core = kc.makeApiClient(CoreV1Api);
    apps = kc.makeApiClient(AppsV1Api);
  });

  after(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loads the kubeconfig the server wrote', () => {
    assert.equal(kc.getCurrentCluster()?.server, server!.url);
    assert.equal(kc.getCurrentContext(), 'nanokube');
  });

  it('creates a namespace and a ConfigMap', async () => {
    const created = await core.createNamespace({
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
    });
    assert.equal(created.metadata?.name, ns);
    assert.equal(created.status?.phase, 'Active');
    const read = await core.readNamespace({ name: ns });
    assert.equal(read.metadata?.uid, created.metadata?.uid);

    const cm = await core.createNamespacedConfigMap({
      namespace: ns,
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'first', labels: { app: 'a' } },
        data: { greeting: 'hello' },
      },
    });
    assert.equal(cm.metadata?.namespace, ns);
    assert.ok(cm.metadata?.uid !== undefined && cm.metadata.uid.length > 0);
    assert.ok(cm.metadata?.resourceVersion !== undefined);
    assert.ok(cm.metadata?.creationTimestamp instanceof Date, 'creationTimestamp parsed as a Date');
    assert.deepEqual(cm.data, { greeting: 'hello' });
  });

  it('lists ConfigMaps with a label selector', async () => {
    await core.createNamespacedConfigMap({
      namespace: ns,
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'second', labels: { app: 'b' } },
        data: { x: '1' },
      },
    });
    const a = await core.listNamespacedConfigMap({ namespace: ns, labelSelector: 'app=a' });
    assert.deepEqual(
      a.items.map((i) => i.metadata?.name),
      ['first'],
    );
    const both = await core.listNamespacedConfigMap({ namespace: ns, labelSelector: 'app in (a,b)' });
    assert.deepEqual(both.items.map((i) => i.metadata?.name).sort(), ['first', 'second']);
    const none = await core.listNamespacedConfigMap({ namespace: ns, labelSelector: 'app=zzz' });
    assert.deepEqual(none.items, []);
    assert.ok(none.metadata?.resourceVersion !== undefined, 'list carries a resourceVersion');
  });

  it('watches ConfigMaps: ADDED, MODIFIED, DELETED', { timeout: 15_000 }, async () => {
    const list = await core.listNamespacedConfigMap({ namespace: ns });
    const events: WatchEvent[] = [];
    let watchError: unknown;
    const watch = new Watch(kc);
    const controllerPromise = watch.watch(
      `/api/v1/namespaces/${ns}/configmaps`,
      { resourceVersion: list.metadata?.resourceVersion, allowWatchBookmarks: false },
      (type: string, obj: KubernetesObject & { data?: Record<string, string> }) => {
        events.push({
          type,
          name: obj.metadata?.name ?? '',
          resourceVersion: obj.metadata?.resourceVersion ?? '',
          data: obj.data,
        });
      },
      (err: unknown) => {
        if (err !== null && err !== undefined && !(err instanceof Error && err.name === 'AbortError'))
          watchError = err;
      },
    );
    try {
      const created = await core.createNamespacedConfigMap({
        namespace: ns,
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watched' }, data: { v: '1' } },
      });
      const replaced = await core.replaceNamespacedConfigMap({
        name: 'watched',
        namespace: ns,
        body: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'watched', resourceVersion: created.metadata!.resourceVersion! },
          data: { v: '2' },
        },
      });
      assert.notEqual(replaced.metadata?.resourceVersion, created.metadata?.resourceVersion);
      await core.deleteNamespacedConfigMap({ name: 'watched', namespace: ns });

      const mine = (e: WatchEvent[]): WatchEvent[] => e.filter((x) => x.name === 'watched');
      await waitFor(events, (e) => mine(e).length >= 3 || watchError !== undefined, 10_000);
      assert.equal(watchError, undefined, `watch failed: ${String(watchError)}`);
      const seen = mine(events);
      assert.deepEqual(
        seen.map((e) => e.type),
        ['ADDED', 'MODIFIED', 'DELETED'],
      );
      assert.equal(seen[0]!.resourceVersion, created.metadata?.resourceVersion);
      assert.deepEqual(seen[1]!.data, { v: '2' });
      assert.equal(seen[1]!.resourceVersion, replaced.metadata?.resourceVersion);
      assert.ok(
        BigInt(seen[2]!.resourceVersion) > BigInt(seen[1]!.resourceVersion),
        'DELETED carries a newer resourceVersion',
      );
      assert.deepEqual(
        events.filter((e) => e.name !== 'watched'),
        [],
        'a watch from the list resourceVersion replays nothing older',
      );
    } finally {
      (await controllerPromise).abort();
    }
  });

  it('creates a Deployment through AppsV1Api and reads it back', async () => {
    const body: V1Deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', labels: { app: 'web' } },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx:1.25', ports: [{ containerPort: 80 }] }] },
        },
      },
    };
    const created = await apps.createNamespacedDeployment({ namespace: ns, body });
    assert.equal(created.metadata?.name, 'web');
    assert.equal(created.metadata?.generation, 1);
    const read = await apps.readNamespacedDeployment({ name: 'web', namespace: ns });
    assert.equal(read.metadata?.uid, created.metadata?.uid);
    assert.equal(read.spec?.replicas, 1);
    assert.equal(read.spec?.strategy?.type, 'RollingUpdate');
    assert.equal(read.spec?.strategy?.rollingUpdate?.maxSurge, '25%');
    assert.equal(read.spec?.strategy?.rollingUpdate?.maxUnavailable, '25%');
    assert.equal(read.spec?.revisionHistoryLimit, 10);
    assert.equal(read.spec?.progressDeadlineSeconds, 600);
    const c = read.spec?.template.spec?.containers[0];
    assert.equal(c?.image, 'nginx:1.25');
    assert.equal(c?.ports?.[0]?.protocol, 'TCP');
    assert.equal(c?.imagePullPolicy, 'IfNotPresent');
    const list = await apps.listNamespacedDeployment({ namespace: ns });
    assert.deepEqual(
      list.items.map((d) => d.metadata?.name),
      ['web'],
    );
  });

  // Upstream's create handler decodes with the endpoint's group/version/kind as defaults, so a body
  // without apiVersion/kind (the client-node README style) is accepted.
  it('accepts typed bodies without apiVersion/kind, as upstream does', async () => {
    const created = await core.createNamespacedConfigMap({
      namespace: ns,
      body: { metadata: { name: 'no-type-meta' }, data: { a: 'b' } },
    });
    assert.equal(created.kind, 'ConfigMap');
    assert.equal(created.apiVersion, 'v1');
    const nsCreated = await core.createNamespace({ body: { metadata: { name: `${ns}-bare` } } });
    assert.equal(nsCreated.kind, 'Namespace');
  });

  it('a 404 read surfaces as an ApiException with code 404', async () => {
    const err = await core.readNamespacedConfigMap({ name: 'missing', namespace: ns }).then(
      (cm: V1ConfigMap) => assert.fail(`expected 404, got ${JSON.stringify(cm)}`),
      (e: unknown) => e,
    );
    assert.ok(err instanceof ApiException, `expected ApiException, got ${String(err)}`);
    assert.equal(err.code, 404);
    const status: unknown = typeof err.body === 'string' ? JSON.parse(err.body) : err.body;
    assert.deepEqual(status, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "missing" not found',
      reason: 'NotFound',
      details: { name: 'missing', kind: 'configmaps' },
      code: 404,
    });
  });
});
