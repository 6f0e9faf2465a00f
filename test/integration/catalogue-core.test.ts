/**
 * The remaining core/v1 kinds served end to end — ReplicationController (+status,
 * +scale), PersistentVolumeClaim and PersistentVolume (+status), ResourceQuota (+status),
 * LimitRange and PodTemplate: defaulting, validation Status messages, strategies, Table output.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const table = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const ns = '/api/v1/namespaces/default';

interface Obj {
  metadata: {
    name: string;
    generation?: number;
    resourceVersion: string;
    labels?: Record<string, string>;
  };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  [k: string]: unknown;
}
interface TableBody {
  columnDefinitions: { name: string; priority: number }[];
  rows: { cells: unknown[] }[];
}

let s: TestServer;
before(async () => {
  s = await startTestServer({ controllers: false, storage: 'memory' });
});
after(() => s.stop());

const podTemplate = {
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
};

async function tableOf(path: string, wide = false): Promise<{ header: string[]; cells: unknown[][] }> {
  const r = await s.request('GET', path + (wide ? '?includeObject=None' : ''), { accept: table });
  assert.equal(r.status, 200, r.text);
  const t = r.json<TableBody>();
  return {
    header: t.columnDefinitions.filter((c) => wide || c.priority === 0).map((c) => c.name),
    cells: t.rows.map((row) => row.cells),
  };
}

describe('ReplicationController', () => {
  it('defaults selector, labels and replicas from the template and tracks generation', async () => {
    const r = await s.request('POST', `${ns}/replicationcontrollers`, {
      body: {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        metadata: { name: 'web' },
        spec: { template: podTemplate },
      },
    });
    assert.equal(r.status, 201, r.text);
    const rc = r.json<Obj>();
    assert.deepEqual(rc.spec?.['selector'], { app: 'web' });
    assert.deepEqual(rc.metadata.labels, { app: 'web' });
    assert.equal(rc.spec?.['replicas'], 1);
    assert.equal(rc.metadata.generation, 1);
    assert.deepEqual(rc.status, { replicas: 0 });
    const tpl = (rc.spec?.['template'] as { spec: Record<string, unknown> }).spec;
    assert.equal(tpl['restartPolicy'], 'Always');
    assert.equal(tpl['dnsPolicy'], 'ClusterFirst');

    const patched = await s.request('PATCH', `${ns}/replicationcontrollers/web`, {
      body: { spec: { replicas: 3 } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.json<Obj>().metadata.generation, 2);
  });

  it('scales through autoscaling/v1 Scale', async () => {
    const got = await s.request('GET', `${ns}/replicationcontrollers/web/scale`);
    assert.equal(got.status, 200, got.text);
    const scale = got.json<Obj>();
    assert.equal(scale['kind'], 'Scale');
    assert.equal(scale['apiVersion'], 'autoscaling/v1');
    assert.deepEqual(scale.spec, { replicas: 3 });
    const put = await s.request('PATCH', `${ns}/replicationcontrollers/web/scale`, {
      body: { spec: { replicas: 5 } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(put.status, 200, put.text);
    const rc = (await s.request('GET', `${ns}/replicationcontrollers/web`)).json<Obj>();
    assert.equal(rc.spec?.['replicas'], 5);
    // A replicas change through /scale is a spec change: generation goes up, as upstream.
    assert.equal(rc.metadata.generation, 3);
  });

  it('writes status only through /status and validates it', async () => {
    const rc = (await s.request('GET', `${ns}/replicationcontrollers/web`)).json<Obj>();
    const ok = await s.request('PUT', `${ns}/replicationcontrollers/web/status`, {
      body: { ...rc, spec: { ...rc.spec, replicas: 9 }, status: { replicas: 2, readyReplicas: 1 } },
    });
    assert.equal(ok.status, 200, ok.text);
    const after = ok.json<Obj>();
    assert.deepEqual(after.status, { replicas: 2, readyReplicas: 1 });
    assert.equal(after.spec?.['replicas'], 5);
    assert.equal(after.metadata.generation, rc.metadata.generation);

    const bad = await s.request('PUT', `${ns}/replicationcontrollers/web/status`, {
      body: { ...after, status: { replicas: 1, readyReplicas: 2 } },
    });
    assert.equal(bad.status, 422, bad.text);
    assert.equal(
      bad.json()['message'],
      'ReplicationController "web" is invalid: status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas',
    );
  });

  it('rejects an invalid spec with upstream messages', async () => {
    const r = await s.request('POST', `${ns}/replicationcontrollers`, {
      body: {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        metadata: { name: 'bad' },
        spec: {
          replicas: -1,
          selector: { app: 'other' },
          template: { ...podTemplate, spec: { ...podTemplate.spec, restartPolicy: 'Never' } },
        },
      },
    });
    assert.equal(r.status, 422, r.text);
    assert.equal(
      r.json()['message'],
      'ReplicationController "bad" is invalid: [spec.replicas: Invalid value: -1: must be greater than or equal to 0, ' +
        'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`, ' +
        'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"]',
    );
  });

  it('warns about names that are no DNS label', async () => {
    const r = await s.request('POST', `${ns}/replicationcontrollers`, {
      body: {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        metadata: { name: 'a.b' },
        spec: { template: podTemplate },
      },
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.warnings, [
      'metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]',
    ]);
  });

  it('prints DESIRED, CURRENT, READY, AGE and wide CONTAINERS, IMAGES, SELECTOR', async () => {
    const t = await tableOf(`${ns}/replicationcontrollers`, true);
    assert.deepEqual(t.header, [
      'Name',
      'Desired',
      'Current',
      'Ready',
      'Age',
      'Containers',
      'Images',
      'Selector',
    ]);
    const row = t.cells.find((c) => c[0] === 'web');
    assert.deepEqual(
      [row?.[1], row?.[2], row?.[3], row?.[5], row?.[6], row?.[7]],
      [5, 2, 1, 'c', 'nginx', 'app=web'],
    );
  });
});

describe('PersistentVolumeClaim', () => {
  const pvc = {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'data' },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
  };

  it('defaults volumeMode and phase, prints and lists', async () => {
    const r = await s.request('POST', `${ns}/persistentvolumeclaims`, { body: pvc });
    assert.equal(r.status, 201, r.text);
    const got = r.json<Obj>();
    assert.equal(got.spec?.['volumeMode'], 'Filesystem');
    assert.deepEqual(got.status, { phase: 'Pending' });
    const t = await tableOf(`${ns}/persistentvolumeclaims`, true);
    assert.deepEqual(t.header, [
      'Name',
      'Status',
      'Volume',
      'Capacity',
      'Access Modes',
      'StorageClass',
      'Age',
      'VolumeMode',
    ]);
    assert.deepEqual(t.cells[0]?.slice(0, 6), ['data', 'Pending', '', '', '', '']);
    assert.equal(t.cells[0]?.[7], 'Filesystem');
  });

  it('requires access modes and storage', async () => {
    const r = await s.request('POST', `${ns}/persistentvolumeclaims`, {
      body: { ...pvc, metadata: { name: 'x' }, spec: {} },
    });
    assert.equal(r.status, 422, r.text);
    assert.equal(
      r.json()['message'],
      'PersistentVolumeClaim "x" is invalid: [spec.accessModes: Required value: at least 1 access mode is required, spec.resources[storage]: Required value]',
    );
  });

  it('keeps the spec immutable except a volume name once and a bigger request', async () => {
    const cur = (await s.request('GET', `${ns}/persistentvolumeclaims/data`)).json<Obj>();
    const named = await s.request('PUT', `${ns}/persistentvolumeclaims/data`, {
      body: { ...cur, spec: { ...cur.spec, volumeName: 'pv1' } },
    });
    assert.equal(named.status, 200, named.text);
    const changed = await s.request('PATCH', `${ns}/persistentvolumeclaims/data`, {
      body: { spec: { accessModes: ['ReadWriteMany'] } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(changed.status, 422, changed.text);
    assert.match(
      String(changed.json()['message']),
      /^PersistentVolumeClaim "data" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests for bound claims\n/,
    );
    const shrink = await s.request('PATCH', `${ns}/persistentvolumeclaims/data`, {
      body: { spec: { resources: { requests: { storage: '1Mi' } } } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(shrink.status, 422);
    assert.match(
      String(shrink.json()['message']),
      /spec.resources.requests.storage: Forbidden: field can not be less than previous value/,
    );
  });

  it('sets status through /status only', async () => {
    const cur = (await s.request('GET', `${ns}/persistentvolumeclaims/data`)).json<Obj>();
    const r = await s.request('PUT', `${ns}/persistentvolumeclaims/data/status`, {
      body: {
        ...cur,
        status: { phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '2Gi' } },
      },
    });
    assert.equal(r.status, 200, r.text);
    const t = await tableOf(`${ns}/persistentvolumeclaims`);
    assert.deepEqual(t.cells[0]?.slice(0, 5), ['data', 'Bound', 'pv1', '2Gi', 'RWO']);
  });
});

describe('PersistentVolume', () => {
  it('defaults reclaim policy and volume mode; requires exactly one source', async () => {
    const r = await s.request('POST', '/api/v1/persistentvolumes', {
      body: {
        apiVersion: 'v1',
        kind: 'PersistentVolume',
        metadata: { name: 'pv1' },
        spec: {
          capacity: { storage: '5Gi' },
          accessModes: ['ReadWriteOnce', 'ReadOnlyMany'],
          hostPath: { path: '/data' },
          claimRef: { namespace: 'default', name: 'data' },
        },
      },
    });
    assert.equal(r.status, 201, r.text);
    const pv = r.json<Obj>();
    assert.equal(pv.spec?.['persistentVolumeReclaimPolicy'], 'Retain');
    assert.equal(pv.spec?.['volumeMode'], 'Filesystem');
    assert.deepEqual(pv.status, { phase: 'Pending' });

    const bad = await s.request('POST', '/api/v1/persistentvolumes', {
      body: {
        apiVersion: 'v1',
        kind: 'PersistentVolume',
        metadata: { name: 'pv2' },
        spec: {
          capacity: { storage: '0' },
          accessModes: ['ReadWriteOncePod', 'ReadWriteOnce'],
          nfs: { server: 'x', path: 'rel' },
          hostPath: { path: '/' },
        },
      },
    });
    assert.equal(bad.status, 422, bad.text);
    assert.equal(
      bad.json()['message'],
      'PersistentVolume "pv2" is invalid: [spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes, ' +
        'spec.capacity[storage]: Invalid value: "0": must be greater than zero, ' +
        'spec.nfs: Forbidden: may not specify more than 1 volume type]',
    );
  });

  it('prints the volume columns and keeps the source immutable', async () => {
    const t = await tableOf('/api/v1/persistentvolumes', true);
    assert.deepEqual(t.header, [
      'Name',
      'Capacity',
      'Access Modes',
      'Reclaim Policy',
      'Status',
      'Claim',
      'StorageClass',
      'Reason',
      'Age',
      'VolumeMode',
    ]);
    assert.deepEqual(t.cells[0]?.slice(0, 8), [
      'pv1',
      '5Gi',
      'RWO,ROX',
      'Retain',
      'Pending',
      'default/data',
      '',
      '',
    ]);
    assert.equal(t.cells[0]?.[9], 'Filesystem');
    const r = await s.request('PATCH', '/api/v1/persistentvolumes/pv1', {
      body: { spec: { hostPath: { path: '/other' } } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(r.status, 422, r.text);
    assert.match(
      String(r.json()['message']),
      /spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation\n/,
    );
    const st = await s.request('PATCH', '/api/v1/persistentvolumes/pv1/status', {
      body: { status: { phase: 'Bound' } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(st.status, 200, st.text);
    assert.equal(st.json<Obj>().status?.['phase'], 'Bound');
  });
});

describe('ResourceQuota', () => {
  it('validates hard, scopes and prints used/hard', async () => {
    const r = await s.request('POST', `${ns}/resourcequotas`, {
      body: {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'q' },
        spec: { hard: { pods: '10', 'requests.cpu': '2', 'limits.memory': '1Gi' } },
      },
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json<Obj>().status, {});
    const cur = r.json<Obj>();
    const st = await s.request('PUT', `${ns}/resourcequotas/q/status`, {
      body: {
        ...cur,
        status: { hard: { pods: '10', 'requests.cpu': '2', 'limits.memory': '1Gi' }, used: { pods: '1' } },
      },
    });
    assert.equal(st.status, 200, st.text);
    const t = await tableOf(`${ns}/resourcequotas`);
    assert.deepEqual(t.header, ['Name', 'Age', 'Request', 'Limit']);
    assert.deepEqual(
      [t.cells[0]?.[0], t.cells[0]?.[2], t.cells[0]?.[3]],
      ['q', 'pods: 1/10, requests.cpu: 0/2', 'limits.memory: 0/1Gi'],
    );

    const bad = await s.request('POST', `${ns}/resourcequotas`, {
      body: {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'bad' },
        spec: { hard: { foo: '1', pods: '-1' }, scopes: ['BestEffort', 'NotBestEffort'] },
      },
    });
    assert.equal(bad.status, 422, bad.text);
    assert.equal(
      bad.json()['message'],
      'ResourceQuota "bad" is invalid: [spec.hard[foo]: Invalid value: "foo": must be a standard resource type or fully qualified, ' +
        'spec.hard[foo]: Invalid value: "foo": must be a standard resource for quota, ' +
        'spec.hard[pods]: Invalid value: "-1": must be greater than or equal to 0, ' +
        'spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort", "NotBestEffort"}: conflicting scopes]',
    );
  });
});

describe('LimitRange', () => {
  it('defaults container limits from max and requests from defaults, names a nameless one', async () => {
    const r = await s.request('POST', `${ns}/limitranges`, {
      body: {
        apiVersion: 'v1',
        kind: 'LimitRange',
        metadata: { name: 'lr' },
        spec: { limits: [{ type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' } }] },
      },
    });
    assert.equal(r.status, 201, r.text);
    const item = ((r.json<Obj>().spec?.['limits'] as Record<string, unknown>[]) ?? [])[0];
    assert.deepEqual(item?.['default'], { cpu: '2' });
    assert.deepEqual(item?.['defaultRequest'], { cpu: '2', memory: '64Mi' });
    const t = await tableOf(`${ns}/limitranges`);
    assert.deepEqual(t.header, ['Name', 'Created At']);
    assert.match(String(t.cells[0]?.[1]), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('rejects min above max with the rendered quantity', async () => {
    const r = await s.request('POST', `${ns}/limitranges`, {
      body: {
        apiVersion: 'v1',
        kind: 'LimitRange',
        metadata: { name: 'bad' },
        spec: { limits: [{ type: 'Pod', max: { cpu: '1' }, min: { cpu: '2' } }] },
      },
    });
    assert.equal(r.status, 422, r.text);
    assert.equal(
      r.json()['message'],
      'LimitRange "bad" is invalid: spec.limits[0].min[cpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:2, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"2", Format:"DecimalSI"}: min value 2 is greater than max value 1',
    );
  });
});

describe('PodTemplate', () => {
  it('defaults the pod spec, bumps generation on template changes, prints', async () => {
    const r = await s.request('POST', `${ns}/podtemplates`, {
      body: { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 'pt' }, template: podTemplate },
    });
    assert.equal(r.status, 201, r.text);
    const pt = r.json<Obj>();
    assert.equal(pt.metadata.generation, 1);
    assert.equal(
      (pt['template'] as { spec: Record<string, unknown> }).spec['schedulerName'],
      'default-scheduler',
    );
    const p = await s.request('PATCH', `${ns}/podtemplates/pt`, {
      body: { template: { metadata: { labels: { app: 'x' } } } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(p.json<Obj>().metadata.generation, 2);
    const t = await tableOf(`${ns}/podtemplates`);
    assert.deepEqual(t.header, ['Name', 'Containers', 'Images', 'Pod Labels']);
    assert.deepEqual(t.cells[0], ['pt', 'c', 'nginx', 'app=x']);

    const bad = await s.request('POST', `${ns}/podtemplates`, {
      body: {
        apiVersion: 'v1',
        kind: 'PodTemplate',
        metadata: { name: 'bad' },
        template: { spec: { containers: [] } },
      },
    });
    assert.equal(bad.status, 422, bad.text);
    assert.equal(
      bad.json()['message'],
      'PodTemplate "bad" is invalid: template.spec.containers: Required value',
    );
  });
});
