/**
 * DELETE honours `propagationPolicy` and `orphanDependents` as kube-apiserver v1.27
 * (k8s.io/apiserver registry/generic/registry/store.go: deletionFinalizersForGarbageCollection,
 * updateForGracefulDeletionAndFinalizers, markAsDeleting, ShouldDeleteDuringUpdate; handlers/
 * delete.go for the status codes; ValidateDeleteOptions for the 422s).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

type Obj = Record<string, unknown> & { metadata: Record<string, unknown> };

const ns = 'prop';
const cms = `/api/v1/namespaces/${ns}/configmaps`;

describe('delete propagation', () => {
  let s: TestServer;

  before(async () => {
    s = await startTestServer({ controllers: false, storage: 'memory' });
    const r = await s.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
    });
    assert.equal(r.status, 201, r.text);
  });

  after(async () => {
    await s.stop();
  });

  async function createCm(name: string, finalizers?: string[]): Promise<Obj> {
    const r = await s.request('POST', cms, {
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, ...(finalizers !== undefined ? { finalizers } : {}) },
      },
    });
    assert.equal(r.status, 201, r.text);
    return r.json<Obj>();
  }

  async function del(path: string, body?: unknown): Promise<{ status: number; obj: Obj; text: string }> {
    const r = await s.request('DELETE', path, body === undefined ? {} : { body });
    return { status: r.status, obj: r.json<Obj>(), text: r.text };
  }

  it('Orphan adds the orphan finalizer, marks the object deleting and keeps it', async () => {
    await createCm('orphan');
    const r = await del(`${cms}/orphan`, { propagationPolicy: 'Orphan' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.obj['kind'], 'ConfigMap');
    assert.deepEqual(r.obj.metadata['finalizers'], ['orphan']);
    assert.equal(typeof r.obj.metadata['deletionTimestamp'], 'string');
    assert.equal(r.obj.metadata['deletionGracePeriodSeconds'], 0);
    const got = await s.request('GET', `${cms}/orphan`);
    assert.equal(got.status, 200);
  });

  it('a second DELETE swaps the finalizers per its policy; Background with nothing left deletes', async () => {
    const created = await createCm('swap');
    const first = await del(`${cms}/swap?propagationPolicy=Orphan`);
    assert.deepEqual(first.obj.metadata['finalizers'], ['orphan']);
    const ts = first.obj.metadata['deletionTimestamp'];
    // Foreground replaces orphan; the deletionTimestamp stays (only an earlier one is kept).
    const second = await del(`${cms}/swap`, { propagationPolicy: 'Foreground' });
    assert.equal(second.status, 200, second.text);
    assert.deepEqual(second.obj.metadata['finalizers'], ['foregroundDeletion']);
    assert.equal(second.obj.metadata['deletionTimestamp'], ts);
    // The same policy again changes nothing: same resourceVersion.
    const third = await del(`${cms}/swap`, { propagationPolicy: 'Foreground' });
    assert.equal(third.obj.metadata['resourceVersion'], second.obj.metadata['resourceVersion']);
    // Background removes both; with no finalizer left the object goes at once: a Success Status.
    const last = await del(`${cms}/swap`, { propagationPolicy: 'Background' });
    assert.equal(last.status, 200, last.text);
    assert.deepEqual(last.obj, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'swap', kind: 'configmaps', uid: created.metadata['uid'] },
    });
    assert.equal((await s.request('GET', `${cms}/swap`)).status, 404);
  });

  it('other finalizers stay; removing the last one deletes the object (DELETED as last stored)', async () => {
    await createCm('mine', ['example.com/hold']);
    const r = await del(`${cms}/mine`, { propagationPolicy: 'Foreground' });
    assert.deepEqual(r.obj.metadata['finalizers'], ['example.com/hold', 'foregroundDeletion']);
    const bg = await del(`${cms}/mine`, { propagationPolicy: 'Background' });
    assert.equal(bg.status, 200);
    assert.deepEqual(bg.obj.metadata['finalizers'], ['example.com/hold']);
    const rv = String(bg.obj.metadata['resourceVersion']);
    const watch = s.request('GET', `${cms}?watch=1&resourceVersion=${rv}&timeoutSeconds=2`);
    const patched = await s.request('PATCH', `${cms}/mine`, {
      body: { metadata: { finalizers: null } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.json<Obj>().metadata['finalizers'], undefined);
    assert.equal((await s.request('GET', `${cms}/mine`)).status, 404);
    const events = (await watch).text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { type: string; object: Obj });
    // No MODIFIED without finalizers: the stored object is deleted as it was.
    assert.deepEqual(
      events.map((e) => e.type),
      ['DELETED'],
    );
    assert.deepEqual(events[0]!.object.metadata['finalizers'], ['example.com/hold']);
  });

  it('orphanDependents=true orphans; orphanDependents=false answers 202 while the object stays', async () => {
    await createCm('legacy-orphan');
    const r = await del(`${cms}/legacy-orphan`, { orphanDependents: true });
    assert.equal(r.status, 200);
    assert.deepEqual(r.obj.metadata['finalizers'], ['orphan']);

    await createCm('legacy-cascade', ['example.com/hold']);
    const c = await del(`${cms}/legacy-cascade`, { orphanDependents: false });
    assert.equal(c.status, 202, c.text);
    assert.deepEqual(c.obj.metadata['finalizers'], ['example.com/hold']);

    // orphanDependents=false on an object nothing keeps: deleted, 200 with the Status.
    await createCm('legacy-gone');
    const g = await del(`${cms}/legacy-gone?orphanDependents=false`);
    assert.equal(g.status, 200, g.text);
    assert.equal(g.obj['kind'], 'Status');

    // The query form is read when there is no body ("0"/"false" are false, anything else true).
    await createCm('legacy-query');
    const q = await del(`${cms}/legacy-query?orphanDependents=1`);
    assert.deepEqual(q.obj.metadata['finalizers'], ['orphan']);
  });

  it('orphanDependents together with propagationPolicy is a 422 with upstream text', async () => {
    await createCm('both');
    const r = await del(`${cms}/both`, { orphanDependents: true, propagationPolicy: 'Foreground' });
    assert.equal(r.status, 422);
    assert.equal(
      r.obj['message'],
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Foreground": orphanDependents and deletionPropagation cannot be both set',
    );
    assert.deepEqual(r.obj['details'], {
      name: '',
      group: 'meta.k8s.io',
      kind: 'DeleteOptions',
      causes: [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: "Foreground": orphanDependents and deletionPropagation cannot be both set',
          field: 'propagationPolicy',
        },
      ],
    });
    // Checked before the object is looked up.
    const missing = await del(`${cms}/nope?orphanDependents=true&propagationPolicy=Orphan`);
    assert.equal(missing.status, 422);
    const bogus = await del(`${cms}/both`, { propagationPolicy: 'Bogus' });
    assert.equal(bogus.status, 422);
    assert.equal(
      bogus.obj['message'],
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Bogus": supported values: "Foreground", "Background", "Orphan", "nil"',
    );
    assert.equal((await s.request('GET', `${cms}/both`)).status, 200);
  });

  it('ReplicationController (v1) and Job (batch/v1) orphan by default; Deployment deletes', async () => {
    const template = {
      metadata: { labels: { app: 'x' } },
      spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'Never' },
    };
    const rc = await s.request('POST', `/api/v1/namespaces/${ns}/replicationcontrollers`, {
      body: {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        metadata: { name: 'rc' },
        spec: {
          replicas: 0,
          selector: { app: 'x' },
          template: { ...template, spec: { ...template.spec, restartPolicy: 'Always' } },
        },
      },
    });
    assert.equal(rc.status, 201, rc.text);
    const rcDel = await del(`/api/v1/namespaces/${ns}/replicationcontrollers/rc`);
    assert.equal(rcDel.status, 200, rcDel.text);
    assert.deepEqual(rcDel.obj.metadata['finalizers'], ['orphan']);
    // Deletion starting bumps the generation (markAsDeleting).
    assert.equal(rcDel.obj.metadata['generation'], 2);

    const job = await s.request('POST', `/apis/batch/v1/namespaces/${ns}/jobs`, {
      body: { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'job' }, spec: { template } },
    });
    assert.equal(job.status, 201, job.text);
    const jobDel = await del(`/apis/batch/v1/namespaces/${ns}/jobs/job`);
    assert.deepEqual(jobDel.obj.metadata['finalizers'], ['orphan']);
    // kubectl asks for Background explicitly: no finalizer, gone at once.
    const job2 = await s.request('POST', `/apis/batch/v1/namespaces/${ns}/jobs`, {
      body: { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'job2' }, spec: { template } },
    });
    assert.equal(job2.status, 201);
    const job2Del = await del(`/apis/batch/v1/namespaces/${ns}/jobs/job2`, {
      propagationPolicy: 'Background',
    });
    assert.equal(job2Del.obj['kind'], 'Status');

    const dep = await s.request('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {
      body: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'dep' },
        spec: {
          selector: { matchLabels: { app: 'x' } },
          template: { ...template, spec: { ...template.spec, restartPolicy: 'Always' } },
        },
      },
    });
    assert.equal(dep.status, 201, dep.text);
    const depDel = await del(`/apis/apps/v1/namespaces/${ns}/deployments/dep`);
    assert.equal(depDel.obj['kind'], 'Status');
  });

  it('pods: a pending graceful deletion is only shortened; Foreground keeps the pod after its grace', async () => {
    const pods = `/api/v1/namespaces/${ns}/pods`;
    const created = await s.request('POST', pods, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p' },
        spec: { nodeName: 'node-a', containers: [{ name: 'c', image: 'busybox' }] },
      },
    });
    assert.equal(created.status, 201, created.text);
    const first = await del(`${pods}/p`, { propagationPolicy: 'Foreground' });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.obj.metadata['deletionGracePeriodSeconds'], 30);
    assert.deepEqual(first.obj.metadata['finalizers'], ['foregroundDeletion']);
    const ts = Date.parse(String(first.obj.metadata['deletionTimestamp']));
    // Same or longer grace period: nothing is written (finalizers cannot change meanwhile).
    const again = await del(`${pods}/p`, { propagationPolicy: 'Orphan' });
    assert.equal(again.status, 200);
    assert.equal(again.obj.metadata['resourceVersion'], first.obj.metadata['resourceVersion']);
    assert.deepEqual(again.obj.metadata['finalizers'], ['foregroundDeletion']);
    // A shorter one moves the deletionTimestamp back by the difference.
    const shorter = await del(`${pods}/p`, { gracePeriodSeconds: 10 });
    assert.equal(shorter.obj.metadata['deletionGracePeriodSeconds'], 10);
    assert.equal(Date.parse(String(shorter.obj.metadata['deletionTimestamp'])), ts - 20_000);
    // Grace period 0 with the finalizer pending: the pod stays.
    const zero = await del(`${pods}/p`, { gracePeriodSeconds: 0 });
    assert.equal(zero.status, 200);
    assert.equal(zero.obj.metadata['deletionGracePeriodSeconds'], 0);
    assert.equal((await s.request('GET', `${pods}/p`)).status, 200);
  });

  it('dry-run changes nothing', async () => {
    await createCm('dry');
    const r = await del(`${cms}/dry?dryRun=All&propagationPolicy=Orphan`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.obj.metadata['finalizers'], ['orphan']);
    const got = (await s.request('GET', `${cms}/dry`)).json<Obj>();
    assert.equal(got.metadata['finalizers'], undefined);
    assert.equal(got.metadata['deletionTimestamp'], undefined);
  });

  it('deletecollection applies the policy to every item', async () => {
    await createCm('col-a');
    await createCm('col-b');
    const r = await s.request('DELETE', `${cms}?labelSelector=&fieldSelector=metadata.name%3Dcol-a`, {
      body: { propagationPolicy: 'Orphan' },
    });
    assert.equal(r.status, 200, r.text);
    const items = r.json<{ items: Obj[] }>().items;
    assert.deepEqual(
      items.map((i) => i.metadata['finalizers']),
      [['orphan']],
    );
  });
});
