/**
 * Integration: what a `/status` (or other subresource) write may change in metadata, per kind, as
 * upstream v1.27's strategies have it: most keep the request's labels and annotations;
 * Deployment resets labels only, Pod resets ownerReferences only, VolumeAttachment and
 * ValidatingAdmissionPolicy call ResetObjectMetaForStatus, APIService resets labels, annotations,
 * finalizers and ownerReferences, flowcontrol keeps all stored metadata.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

interface Obj {
  metadata: {
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: unknown[];
  };
  [k: string]: unknown;
}

const owner = [
  { apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: '6f1c1c2e-0000-4000-8000-000000000001' },
];

const cases: readonly {
  readonly name: string;
  readonly collection: string;
  readonly body: Record<string, unknown>;
  readonly sub?: string;
  /** Which of the request's changes survive: labels, annotations, ownerReferences. */
  readonly keeps: { labels: boolean; annotations: boolean; ownerReferences: boolean };
}[] = [
  {
    name: 'Namespace status keeps new labels and annotations',
    collection: '/api/v1/namespaces',
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'sm-ns' } },
    keeps: { labels: true, annotations: true, ownerReferences: true },
  },
  {
    name: 'Namespace finalize keeps new labels and annotations',
    collection: '/api/v1/namespaces',
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'sm-ns2' } },
    sub: 'finalize',
    keeps: { labels: true, annotations: true, ownerReferences: true },
  },
  {
    name: 'CronJob status keeps new labels and annotations',
    collection: '/apis/batch/v1/namespaces/default/cronjobs',
    body: {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'sm-cj' },
      spec: {
        schedule: '*/5 * * * *',
        jobTemplate: {
          spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x' }] } } },
        },
      },
    },
    keeps: { labels: true, annotations: true, ownerReferences: true },
  },
  {
    name: 'Deployment status resets labels only',
    collection: '/apis/apps/v1/namespaces/default/deployments',
    body: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'sm-dep' },
      spec: {
        selector: { matchLabels: { a: 'b' } },
        template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'x' }] } },
      },
    },
    keeps: { labels: false, annotations: true, ownerReferences: true },
  },
  {
    name: 'Pod status resets ownerReferences only',
    collection: '/api/v1/namespaces/default/pods',
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'sm-pod' },
      spec: { containers: [{ name: 'c', image: 'x' }] },
    },
    keeps: { labels: true, annotations: true, ownerReferences: false },
  },
  {
    name: 'VolumeAttachment status resets metadata (ResetObjectMetaForStatus)',
    collection: '/apis/storage.k8s.io/v1/volumeattachments',
    body: {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttachment',
      metadata: { name: 'sm-va' },
      spec: { attacher: 'csi.example.com', nodeName: 'n1', source: { persistentVolumeName: 'pv1' } },
    },
    keeps: { labels: false, annotations: false, ownerReferences: false },
  },
  {
    name: 'FlowSchema status keeps all stored metadata',
    collection: '/apis/flowcontrol.apiserver.k8s.io/v1beta3/flowschemas',
    body: {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3',
      kind: 'FlowSchema',
      metadata: { name: 'sm-fs' },
      spec: { priorityLevelConfiguration: { name: 'global-default' }, matchingPrecedence: 5000 },
    },
    keeps: { labels: false, annotations: false, ownerReferences: false },
  },
];

describe('metadata on status writes', () => {
  let s: TestServer;
  before(async () => {
    // No controllers or nodes: nothing else writes the objects between the GET and the PUT.
    s = await startTestServer({ controllers: false });
  });
  after(() => s.stop());

  for (const c of cases) {
    it(c.name, async () => {
      const created = await s.request('POST', c.collection, { body: c.body });
      assert.equal(created.status, 201, created.text);
      const name = (c.body['metadata'] as { name: string }).name;
      const path = `${c.collection}/${name}`;
      const current = created.json<Obj>();
      current.metadata.labels = { added: 'by-status' };
      current.metadata.annotations = { note: 'by-status' };
      current.metadata.ownerReferences = owner;
      const r = await s.request('PUT', `${path}/${c.sub ?? 'status'}`, { body: current });
      assert.equal(r.status, 200, r.text);
      const stored = (await s.request('GET', path)).json<Obj>().metadata;
      assert.equal(stored.labels?.['added'] === 'by-status', c.keeps.labels, 'labels');
      assert.equal(stored.annotations?.['note'] === 'by-status', c.keeps.annotations, 'annotations');
      assert.equal(stored.ownerReferences !== undefined, c.keeps.ownerReferences, 'ownerReferences');
    });
  }
});
