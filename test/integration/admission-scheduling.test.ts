/**
 * Integration: the scheduling plugins of the admission chain on an in-process server
 * over SQLite — TaintNodesByCondition (the not-ready taint of a new Node), DefaultTolerationSeconds
 * and ExtendedResourceToleration (the tolerations they add), RuntimeClass (overhead, node selector
 * and tolerations of the class; refusals), and, on a second server, PodNodeSelector (configured
 * through an admission configuration file) with PodTolerationRestriction (namespace defaults and
 * whitelists).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { JsonObject } from '../../src/util/json.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const pod = (name: string, spec: JsonObject = {}): JsonObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
});

const forbidden = (name: string, message: string): JsonObject => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: `pods "${name}" is forbidden: ${message}`,
  reason: 'Forbidden',
  details: { name, kind: 'pods' },
  code: 403,
});

/** What DefaultTolerationSeconds adds to every pod that does not tolerate these taints itself. */
const notReady = {
  key: 'node.kubernetes.io/not-ready',
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: 300,
};
const unreachable = {
  key: 'node.kubernetes.io/unreachable',
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: 300,
};

type StoredPod = { metadata: JsonObject; spec: JsonObject & { tolerations?: JsonObject[] } };

describe('node and pod scheduling defaults', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({
      controllers: false,
      nodes: 0,
      admission: { enable: ['ExtendedResourceToleration'], disable: ['ServiceAccount'] },
    });
  });
  after(async () => {
    await s.stop();
  });

  const createPod = async (body: JsonObject): Promise<StoredPod> => {
    const r = await s.request('POST', '/api/v1/namespaces/default/pods', { body });
    assert.equal(r.status, 201, r.text);
    const name = (body['metadata'] as { name: string }).name;
    const stored = await s.request('GET', `/api/v1/namespaces/default/pods/${name}`);
    return stored.json<StoredPod>();
  };
  const refusedPod = async (body: JsonObject, message: string): Promise<void> => {
    const r = await s.request('POST', '/api/v1/namespaces/default/pods', { body });
    assert.equal(r.status, 403, r.text);
    assert.deepEqual(r.json(), forbidden((body['metadata'] as { name: string }).name, message));
  };

  it('TaintNodesByCondition: a new Node gets the not-ready NoSchedule taint, once, on create only', async () => {
    const node = async (name: string, taints?: JsonObject[]): Promise<JsonObject[] | undefined> => {
      const r = await s.request('POST', '/api/v1/nodes', {
        body: {
          apiVersion: 'v1',
          kind: 'Node',
          metadata: { name },
          ...(taints !== undefined ? { spec: { taints } } : {}),
        },
      });
      assert.equal(r.status, 201, r.text);
      const stored = (await s.request('GET', `/api/v1/nodes/${name}`)).json<{
        spec: { taints?: JsonObject[] };
      }>();
      return stored.spec.taints;
    };
    const taint = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };
    assert.deepEqual(await node('bare'), [taint]);
    const dedicated = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
    assert.deepEqual(await node('dedicated', [dedicated]), [dedicated, taint]);
    // A taint of the same key and effect counts, whatever its value; another effect does not.
    const ownValue = { key: 'node.kubernetes.io/not-ready', value: 'booting', effect: 'NoSchedule' };
    assert.deepEqual(await node('own', [ownValue]), [ownValue]);
    const noExecute = { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' };
    assert.deepEqual(await node('no-execute', [noExecute]), [noExecute, taint]);

    // Updates are left alone: the taint removed stays removed.
    const r = await s.request('PATCH', '/api/v1/nodes/bare', {
      raw: JSON.stringify({ spec: { taints: null } }),
      contentType: 'application/merge-patch+json',
    });
    assert.equal(r.status, 200, r.text);
    const stored = (await s.request('GET', '/api/v1/nodes/bare')).json<{ spec: { taints?: JsonObject[] } }>();
    assert.equal(stored.spec.taints, undefined);
  });

  it('DefaultTolerationSeconds: 300 s for the not-ready and unreachable NoExecute taints, unless tolerated', async () => {
    assert.deepEqual((await createPod(pod('plain'))).spec.tolerations, [notReady, unreachable]);
    const own = {
      key: 'node.kubernetes.io/unreachable',
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 60,
    };
    assert.deepEqual((await createPod(pod('own', { tolerations: [own] }))).spec.tolerations, [own, notReady]);
    // An empty key with Exists tolerates every taint; an empty effect every effect.
    const everything = { operator: 'Exists' };
    assert.deepEqual((await createPod(pod('everything', { tolerations: [everything] }))).spec.tolerations, [
      everything,
    ]);
    const anyEffect = { key: 'node.kubernetes.io/not-ready', operator: 'Exists' };
    assert.deepEqual((await createPod(pod('any-effect', { tolerations: [anyEffect] }))).spec.tolerations, [
      anyEffect,
      unreachable,
    ]);
  });

  it('ExtendedResourceToleration: a toleration per extended resource requested, in name order', async () => {
    const gpu = { 'example.com/gpu': '1' };
    const fpga = { 'example.com/fpga': '2' };
    const stored = await createPod(
      pod('accelerated', {
        initContainers: [{ name: 'init', image: 'busybox', resources: { requests: fpga, limits: fpga } }],
        containers: [
          { name: 'c', image: 'nginx', resources: { requests: { ...gpu, cpu: '100m' }, limits: gpu } },
          { name: 'd', image: 'nginx', resources: { requests: gpu, limits: gpu } },
        ],
      }),
    );
    assert.deepEqual(stored.spec.tolerations, [
      notReady,
      unreachable,
      { key: 'example.com/fpga', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
    ]);
    // Standard resources, hugepages included, are not extended ones.
    const standard = await createPod(
      pod('standard', {
        containers: [
          {
            name: 'c',
            image: 'nginx',
            resources: {
              requests: { cpu: '100m', memory: '64Mi', 'hugepages-2Mi': '2Mi' },
              limits: { memory: '64Mi', 'hugepages-2Mi': '2Mi' },
            },
          },
        ],
      }),
    );
    assert.deepEqual(standard.spec.tolerations, [notReady, unreachable]);
  });

  describe('RuntimeClass', () => {
    before(async () => {
      for (const body of [
        {
          apiVersion: 'node.k8s.io/v1',
          kind: 'RuntimeClass',
          metadata: { name: 'kata' },
          handler: 'kata',
          overhead: { podFixed: { cpu: '250m', memory: '120Mi' } },
          scheduling: {
            nodeSelector: { runtime: 'kata' },
            tolerations: [{ key: 'runtime', operator: 'Equal', value: 'kata', effect: 'NoSchedule' }],
          },
        },
        { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'runc' }, handler: 'runc' },
      ]) {
        const r = await s.request('POST', '/apis/node.k8s.io/v1/runtimeclasses', { body });
        assert.equal(r.status, 201, r.text);
      }
    });

    it('the class’s overhead, node selector and tolerations go into the pod', async () => {
      // Created just before: a lagging cache is covered by the plugin's live read.
      const stored = await createPod(
        pod('kata', { runtimeClassName: 'kata', nodeSelector: { disk: 'ssd' } }),
      );
      assert.deepEqual(stored.spec['overhead'], { cpu: '250m', memory: '120Mi' });
      assert.deepEqual(stored.spec['nodeSelector'], { disk: 'ssd', runtime: 'kata' });
      assert.deepEqual(stored.spec.tolerations, [
        notReady,
        unreachable,
        { key: 'runtime', operator: 'Equal', value: 'kata', effect: 'NoSchedule' },
      ]);
      // An overhead the pod brings is fine when it is the same amount, however written.
      const same = await createPod(
        pod('kata-same', { runtimeClassName: 'kata', overhead: { cpu: '0.25', memory: '125829120' } }),
      );
      assert.deepEqual(same.spec['overhead'], { cpu: '250m', memory: '120Mi' });
      // A class without overhead or scheduling changes nothing.
      const runc = await createPod(pod('runc', { runtimeClassName: 'runc' }));
      assert.equal(runc.spec['overhead'], undefined);
      assert.equal(runc.spec['nodeSelector'], undefined);
      assert.deepEqual(runc.spec.tolerations, [notReady, unreachable]);
    });

    it('a missing class, a different overhead and a conflicting node selector are refused', async () => {
      await refusedPod(
        pod('lost', { runtimeClassName: 'gvisor' }),
        'pod rejected: RuntimeClass "gvisor" not found',
      );
      await refusedPod(
        pod('heavy', { runtimeClassName: 'kata', overhead: { cpu: '1' } }),
        "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead",
      );
      await refusedPod(
        pod('conflict', { runtimeClassName: 'kata', nodeSelector: { runtime: 'runc' } }),
        'conflict: runtimeClass.scheduling.nodeSelector[runtime] = kata; pod.spec.nodeSelector[runtime] = runc',
      );
      await refusedPod(
        pod('unclassed', { overhead: { cpu: '100m' } }),
        'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead',
      );
      await refusedPod(
        pod('runc-overhead', { runtimeClassName: 'runc', overhead: { cpu: '100m' } }),
        'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead',
      );
    });
  });
});

describe('PodNodeSelector (configuration file) and PodTolerationRestriction', () => {
  const dir = mkdtempSync(join(tmpdir(), 'admission-scheduling-'));
  writeFileSync(
    join(dir, 'podnodeselector.yaml'),
    [
      'podNodeSelectorPluginConfig:',
      '  clusterDefaultNodeSelector: env=prod',
      '  restricted: env=prod,tier=web',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'admission.yaml'),
    [
      'apiVersion: apiserver.config.k8s.io/v1',
      'kind: AdmissionConfiguration',
      'plugins:',
      '- name: PodNodeSelector',
      '  path: podnodeselector.yaml',
      '',
    ].join('\n'),
  );

  let s: TestServer;
  before(async () => {
    s = await startTestServer({
      controllers: false,
      nodes: 0,
      admission: {
        enable: ['PodNodeSelector', 'PodTolerationRestriction'],
        disable: ['ServiceAccount'],
        configFile: join(dir, 'admission.yaml'),
      },
    });
    const namespaces: [string, Record<string, string>][] = [
      ['plain', {}],
      ['restricted', {}],
      ['labelled', { 'scheduler.alpha.kubernetes.io/node-selector': 'env=dev,zone=a' }],
      ['open', { 'scheduler.alpha.kubernetes.io/node-selector': '' }],
      ['broken', { 'scheduler.alpha.kubernetes.io/node-selector': 'env' }],
      [
        'tolerant',
        {
          'scheduler.alpha.kubernetes.io/node-selector': '',
          'scheduler.alpha.kubernetes.io/defaultTolerations':
            '[{"key":"dedicated","operator":"Equal","value":"web","effect":"NoSchedule"}]',
          'scheduler.alpha.kubernetes.io/tolerationsWhitelist': JSON.stringify([
            { operator: 'Exists', effect: 'NoExecute' },
            { key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' },
            { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
          ]),
        },
      ],
    ];
    // Namespaces are created with their annotations: the plugins' live read covers a lagging cache.
    for (const [name, annotations] of namespaces) {
      const r = await s.request('POST', '/api/v1/namespaces', {
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name, annotations } },
      });
      assert.equal(r.status, 201, r.text);
    }
  });
  after(async () => {
    await s.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const create = (namespace: string, body: JsonObject) =>
    s.request('POST', `/api/v1/namespaces/${namespace}/pods`, { body });
  const createPod = async (namespace: string, body: JsonObject): Promise<StoredPod> => {
    const r = await create(namespace, body);
    assert.equal(r.status, 201, r.text);
    const name = (body['metadata'] as { name: string }).name;
    return (await s.request('GET', `/api/v1/namespaces/${namespace}/pods/${name}`)).json<StoredPod>();
  };

  it('PodNodeSelector: the cluster default or the namespace annotation is merged into the pod’s selector', async () => {
    assert.deepEqual((await createPod('plain', pod('p'))).spec['nodeSelector'], { env: 'prod' });
    assert.deepEqual(
      (await createPod('plain', pod('q', { nodeSelector: { disk: 'ssd' } }))).spec['nodeSelector'],
      {
        disk: 'ssd',
        env: 'prod',
      },
    );
    assert.deepEqual((await createPod('labelled', pod('p'))).spec['nodeSelector'], { env: 'dev', zone: 'a' });
    // An empty annotation means no selector at all, not the cluster default.
    assert.equal((await createPod('open', pod('p'))).spec['nodeSelector'], undefined);
    assert.deepEqual(
      (await createPod('restricted', pod('p', { nodeSelector: { tier: 'web' } }))).spec['nodeSelector'],
      {
        env: 'prod',
        tier: 'web',
      },
    );
  });

  it('PodNodeSelector: a selector conflicting with the namespace’s, or outside its whitelist, is refused', async () => {
    const conflict = await create('labelled', pod('prod', { nodeSelector: { env: 'prod' } }));
    assert.equal(conflict.status, 403, conflict.text);
    assert.deepEqual(
      conflict.json(),
      forbidden('prod', 'pod node label selector conflicts with its namespace node label selector'),
    );
    const outside = await create('restricted', pod('ssd', { nodeSelector: { disk: 'ssd' } }));
    assert.equal(outside.status, 403, outside.text);
    assert.deepEqual(
      outside.json(),
      forbidden('ssd', 'pod node label selector labels conflict with its namespace whitelist'),
    );
    // An annotation that does not parse is a plain error: 500.
    const broken = await create('broken', pod('p'));
    assert.equal(broken.status, 500, broken.text);
    assert.equal(broken.json().message, 'invalid selector: [env]');
  });

  it('PodTolerationRestriction: namespace default tolerations are merged in; non-BestEffort pods tolerate memory pressure', async () => {
    const dedicated = { key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' };
    const memoryPressure = {
      key: 'node.kubernetes.io/memory-pressure',
      operator: 'Exists',
      effect: 'NoSchedule',
    };
    assert.deepEqual((await createPod('tolerant', pod('best-effort'))).spec.tolerations, [
      notReady,
      unreachable,
      dedicated,
    ]);
    const burstable = await createPod(
      'tolerant',
      pod('burstable', {
        containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '100m' } } }],
      }),
    );
    assert.deepEqual(burstable.spec.tolerations, [notReady, unreachable, dedicated, memoryPressure]);
    // Outside such a namespace only the memory-pressure toleration is added.
    const elsewhere = await createPod(
      'open',
      pod('burstable', {
        containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '100m' } } }],
      }),
    );
    assert.deepEqual(elsewhere.spec.tolerations, [notReady, unreachable, memoryPressure]);
  });

  it('PodTolerationRestriction: a toleration outside the namespace whitelist is a plain error (500)', async () => {
    const r = await create(
      'tolerant',
      pod('gpu', { tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }] }),
    );
    assert.equal(r.status, 500, r.text);
    assert.deepEqual(r.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist',
      code: 500,
    });
    assert.equal((await s.request('GET', '/api/v1/namespaces/tolerant/pods/gpu')).status, 404);
    // Without a whitelist (none on the namespace, none configured) any toleration goes.
    const free = await create(
      'open',
      pod('gpu', { tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }] }),
    );
    assert.equal(free.status, 201, free.text);
  });
});
