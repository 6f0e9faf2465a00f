/**
 * AM-01: in-place pod vertical scaling with InPlacePodVerticalScaling on. The API
 * accepts cpu/memory changes, defaults resizePolicy and marks status.resize=Proposed; a simulated
 * node (cpu 4, memory 8Gi) admits the resize (InProgress, then cleared with the new
 * allocatedResources and resources), answers Infeasible above its allocatable, Deferred when the
 * room is taken (then completes after another pod is deleted), and restarts a container whose
 * policy says RestartContainer. Gate off: the fields are dropped.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SharedInformerFactory } from '../../src/client/informer-factory.js';
import { RestClient } from '../../src/client/rest-client.js';
import { Scheduler } from '../../src/nodes/scheduler/scheduler.js';
import { SimulatedNodes } from '../../src/nodes/simulated-nodes.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

type Json = Record<string, unknown>;

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const podsPath = '/api/v1/namespaces/default/pods';
const smp = 'application/strategic-merge-patch+json';

function pod(name: string, resources: Json, extra: Json = {}): Json {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers: [{ name: 'c', image: 'nginx', resources, ...extra }] },
  };
}

function status(p: Json): Json {
  return (p['status'] as Json | undefined) ?? {};
}

function cstatus(p: Json): Json {
  return ((status(p)['containerStatuses'] as Json[] | undefined) ?? [])[0] ?? {};
}

describe('in-place pod resize (AM-01)', () => {
  let s: TestServer;
  let client: RestClient;
  let informers: SharedInformerFactory;
  const abort = new AbortController();
  let runs: Promise<unknown>[] = [];
  const errors: unknown[] = [];
  const resizes = new Map<string, string[]>();

  const get = async (name: string): Promise<Json> => {
    const r = await s.request('GET', `${podsPath}/${name}`);
    assert.equal(r.status, 200, r.text);
    return r.json();
  };
  const resize = async (name: string, resources: Json): Promise<{ status: number; body: Json }> => {
    const r = await s.request('PATCH', `${podsPath}/${name}`, {
      body: { spec: { containers: [{ name: 'c', resources }] } },
      contentType: smp,
    });
    return { status: r.status, body: r.json() };
  };
  const running = (name: string): Promise<Json> =>
    until(`${name} running`, async () => {
      const p = await get(name);
      return status(p)['phase'] === 'Running' ? p : undefined;
    });
  const settled = (name: string, cpu: string): Promise<Json> =>
    until(`${name} resized to cpu ${cpu}`, async () => {
      const p = await get(name);
      const res = cstatus(p)['resources'] as Json | undefined;
      const req = res?.['requests'] as Json | undefined;
      return status(p)['resize'] === undefined && req?.['cpu'] === cpu ? p : undefined;
    });

  before(async () => {
    s = await startTestServer({
      controllers: false,
      nodes: 0,
      storage: 'memory',
      featureGates: { InPlacePodVerticalScaling: true },
    });
    client = new RestClient({
      server: `https://127.0.0.1:${s.port}`,
      ca: s.pki.caCert,
      cert: s.pki.adminCert,
      key: s.pki.adminKey,
    });
    informers = new SharedInformerFactory({ client, onError: (e) => errors.push(e) });
    const nodes = new SimulatedNodes({
      client,
      informers,
      count: 1,
      nodeTemplate: { capacity: { cpu: '4', memory: '8Gi', pods: '10' } },
      heartbeatIntervalMs: 1000,
      onError: (e) => errors.push(e),
    });
    informers.informerFor('/api/v1/pods').addEventHandler({
      onUpdate: (_, p) => {
        const name = (p['metadata'] as Json)['name'] as string;
        const r = status(p)['resize'];
        const list = resizes.get(name) ?? [];
        const v = typeof r === 'string' ? r : '';
        if (list[list.length - 1] !== v) resizes.set(name, [...list, v]);
      },
    });
    const scheduler = new Scheduler({ client, informers, onError: (e) => errors.push(e) });
    runs = [nodes.run(abort.signal), scheduler.run(abort.signal)];
    informers.start(abort.signal);
    assert.equal(await nodes.registered, true);
  });

  after(async () => {
    abort.abort();
    await Promise.all(runs);
    await informers.stopped();
    client.close();
    await s.stop();
  });

  it('defaults resizePolicy and reports allocated resources', async () => {
    const r = await s.request('POST', podsPath, {
      body: pod('walk', { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '2' } }),
    });
    assert.equal(r.status, 201, r.text);
    const created = r.json();
    const c = ((created['spec'] as Json)['containers'] as Json[])[0]!;
    assert.deepEqual(c['resizePolicy'], [
      { resourceName: 'cpu', restartPolicy: 'NotRequired' },
      { resourceName: 'memory', restartPolicy: 'NotRequired' },
    ]);
    const p = await running('walk');
    assert.deepEqual(cstatus(p)['allocatedResources'], { cpu: '1', memory: '1Gi' });
    assert.deepEqual(cstatus(p)['resources'], {
      limits: { cpu: '2' },
      requests: { cpu: '1', memory: '1Gi' },
    });
  });

  it('walks Proposed → InProgress → done with the new allocated resources', async () => {
    const r = await resize('walk', { requests: { cpu: '1500m' }, limits: { cpu: '3' } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(status(r.body)['resize'], 'Proposed');
    const p = await settled('walk', '1500m');
    assert.deepEqual(cstatus(p)['allocatedResources'], { cpu: '1500m', memory: '1Gi' });
    assert.deepEqual(cstatus(p)['resources'], {
      limits: { cpu: '3' },
      requests: { cpu: '1500m', memory: '1Gi' },
    });
    assert.equal(cstatus(p)['restartCount'], 0);
    const seen = resizes.get('walk') ?? [];
    assert.ok(seen.includes('Proposed') && seen.includes('InProgress'), seen.join(','));
    assert.equal(seen[seen.length - 1], '');
    assert.ok(seen.indexOf('Proposed') < seen.indexOf('InProgress'), seen.join(','));
  });

  it('answers Infeasible above the node allocatable', async () => {
    const r = await resize('walk', { requests: { cpu: '5' }, limits: { cpu: '5' } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const p = await until('Infeasible', async () => {
      const p = await get('walk');
      return status(p)['resize'] === 'Infeasible' ? p : undefined;
    });
    assert.deepEqual(cstatus(p)['allocatedResources'], { cpu: '1500m', memory: '1Gi' });
    // Back to what fits.
    assert.equal((await resize('walk', { requests: { cpu: '1' }, limits: { cpu: '2' } })).status, 200);
    await settled('walk', '1');
  });

  it('clears the state when a resize is reverted to what is allocated', async () => {
    assert.equal((await resize('walk', { requests: { cpu: '5' }, limits: { cpu: '5' } })).status, 200);
    await until('Infeasible', async () => {
      const p = await get('walk');
      return status(p)['resize'] === 'Infeasible' ? p : undefined;
    });
    // The same values as allocated and applied: nothing to do, so no resize is left reported.
    const r = await resize('walk', { requests: { cpu: '1' }, limits: { cpu: '2' } });
    assert.equal(r.status, 200);
    assert.equal(status(r.body)['resize'], 'Proposed');
    const p = await settled('walk', '1');
    assert.deepEqual(cstatus(p)['allocatedResources'], { cpu: '1', memory: '1Gi' });
  });

  it('defers a resize without room, then completes it after another pod is deleted', async () => {
    const r = await s.request('POST', podsPath, {
      body: pod('filler', { requests: { cpu: '2' } }),
    });
    assert.equal(r.status, 201, r.text);
    await running('filler');
    // walk holds 1 cpu, filler 2: 2 more do not fit in 4 now.
    assert.equal((await resize('walk', { requests: { cpu: '3' }, limits: { cpu: '3' } })).status, 200);
    const deferred = await until('Deferred', async () => {
      const p = await get('walk');
      return status(p)['resize'] === 'Deferred' ? p : undefined;
    });
    assert.deepEqual(cstatus(deferred)['allocatedResources'], { cpu: '1', memory: '1Gi' });
    const d = await s.request('DELETE', `${podsPath}/filler`);
    assert.equal(d.status, 200, d.text);
    const p = await settled('walk', '3');
    assert.deepEqual(cstatus(p)['allocatedResources'], { cpu: '3', memory: '1Gi' });
  });

  it('restarts a container whose resizePolicy says RestartContainer', async () => {
    const r = await s.request('POST', podsPath, {
      body: pod(
        'restarter',
        { requests: { cpu: '100m', memory: '64Mi' } },
        {
          resizePolicy: [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }],
        },
      ),
    });
    assert.equal(r.status, 201, r.text);
    const c = (((r.json()['spec'] as Json)['containers'] as Json[])[0] ?? {})['resizePolicy'];
    assert.deepEqual(c, [
      { resourceName: 'memory', restartPolicy: 'RestartContainer' },
      { resourceName: 'cpu', restartPolicy: 'NotRequired' },
    ]);
    await running('restarter');
    assert.equal((await resize('restarter', { requests: { cpu: '200m' } })).status, 200);
    const cpuOnly = await settled('restarter', '200m');
    assert.equal(cstatus(cpuOnly)['restartCount'], 0);
    assert.equal((await resize('restarter', { requests: { memory: '128Mi' } })).status, 200);
    const p = await until('restarted', async () => {
      const p = await get('restarter');
      const req = (cstatus(p)['resources'] as Json | undefined)?.['requests'] as Json | undefined;
      return status(p)['resize'] === undefined && req?.['memory'] === '128Mi' ? p : undefined;
    });
    assert.equal(cstatus(p)['restartCount'], 1);
    assert.ok((cstatus(p)['lastState'] as Json)['terminated'] !== undefined);
  });

  it('rejects other changes and QoS class changes with upstream errors', async () => {
    const r = await resize('walk', {
      requests: { cpu: '3', 'ephemeral-storage': '1Gi' },
      limits: { cpu: '3' },
    });
    assert.equal(r.status, 422);
    const msg = String(r.body['message']);
    assert.match(
      msg,
      /^Pod "walk" is invalid: spec: Forbidden: pod updates may not change fields other than `spec\.containers\[\*\]\.image`,`spec\.initContainers\[\*\]\.image`,`spec\.activeDeadlineSeconds`,`spec\.tolerations` \(only additions to existing tolerations\),`spec\.terminationGracePeriodSeconds` \(allow it to be set to 1 if it was previously negative\),`spec\.containers\[\*\]\.resources` \(for CPU\/memory only\)\n/,
    );
    const q = await s.request('POST', podsPath, {
      body: pod('guaranteed', { limits: { cpu: '100m', memory: '64Mi' } }),
    });
    assert.equal(q.status, 201, q.text);
    const bad = await resize('guaranteed', { requests: { cpu: '50m' } });
    assert.equal(bad.status, 422);
    assert.equal(
      bad.body['message'],
      'Pod "guaranteed" is invalid: metadata: Invalid value: "Guaranteed": Pod QoS is immutable',
    );
  });

  it('leaves no errors behind', () => {
    const real = errors.filter((e) => !(e instanceof Error && /aborted/i.test(e.message)));
    assert.deepEqual(real, []);
  });
});

describe('in-place pod resize with the gate off', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ controllers: false, nodes: 0, storage: 'memory' });
  });
  after(async () => {
    await s.stop();
  });

  it('drops resizePolicy, status.resize and the container statuses resources', async () => {
    const r = await s.request('POST', podsPath, {
      body: pod(
        'p',
        { requests: { cpu: '1' } },
        {
          resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }],
        },
      ),
    });
    assert.equal(r.status, 201, r.text);
    const c = ((r.json()['spec'] as Json)['containers'] as Json[])[0]!;
    assert.equal(c['resizePolicy'], undefined);
    const st = await s.request('PATCH', `${podsPath}/p/status`, {
      body: {
        status: {
          resize: 'InProgress',
          containerStatuses: [
            {
              name: 'c',
              image: 'nginx',
              imageID: '',
              ready: false,
              restartCount: 0,
              state: { waiting: { reason: 'ContainerCreating' } },
              allocatedResources: { cpu: '1' },
              resources: { requests: { cpu: '1' } },
            },
          ],
        },
      },
      contentType: smp,
    });
    assert.equal(st.status, 200, st.text);
    const body = st.json();
    assert.equal(status(body)['resize'], undefined);
    assert.equal(cstatus(body)['allocatedResources'], undefined);
    assert.equal(cstatus(body)['resources'], undefined);
    const up = await s.request('PATCH', `${podsPath}/p`, {
      body: { spec: { containers: [{ name: 'c', resources: { requests: { cpu: '2' } } }] } },
      contentType: smp,
    });
    assert.equal(up.status, 422);
    assert.match(
      String(up.json()['message']),
      /spec: Forbidden: pod updates may not change fields other than `spec\.containers\[\*\]\.image`,`spec\.initContainers\[\*\]\.image`,`spec\.activeDeadlineSeconds`,`spec\.tolerations` \(only additions to existing tolerations\),`spec\.terminationGracePeriodSeconds` \(allow it to be set to 1 if it was previously negative\)\n/,
    );
  });
});
