import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GraphBuilder } from './graph.js';
import type { ObjectMetadata, OwnerReference } from './metadata.js';

function meta(name: string, uid: string, o: Partial<ObjectMetadata> = {}): ObjectMetadata {
  return {
    uid,
    name,
    namespace: 'ns',
    resourceVersion: '1',
    ownerReferences: [],
    finalizers: [],
    deletionTimestamp: undefined,
    ...o,
  };
}

function builder(): { g: GraphBuilder; deletes: string[]; orphans: string[]; invalid: string[] } {
  const deletes: string[] = [];
  const orphans: string[] = [];
  const invalid: string[] = [];
  const g = new GraphBuilder({
    attemptToDelete: (uid) => deletes.push(uid),
    attemptToOrphan: (uid) => orphans.push(uid),
    invalidNamespaceOwnerRef: (dep) => invalid.push(dep.name),
  });
  return { g, deletes, orphans, invalid };
}

const cm = { apiVersion: 'v1', kind: 'ConfigMap' };
const ref = (name: string, uid: string, extra: Partial<OwnerReference> = {}): OwnerReference => ({
  ...cm,
  name,
  uid,
  ...extra,
});

describe('GraphBuilder', () => {
  it('an unseen owner becomes a virtual node checked by the workers, then observed', () => {
    const { g, deletes } = builder();
    g.process({ type: 'add', ...cm, meta: meta('dep', 'd', { ownerReferences: [ref('owner', 'o')] }) });
    assert.equal(g.node('o')?.virtual, true);
    assert.deepEqual(deletes, ['o']);
    g.process({ type: 'add', ...cm, meta: meta('owner', 'o') });
    assert.equal(g.node('o')?.virtual, false);
    assert.deepEqual(
      [...g.node('o')!.dependents].map((n) => n.identity.uid),
      ['d'],
    );
  });

  it('a dependent seen only after its owner began foreground deletion goes to the workers', () => {
    const { g, deletes } = builder();
    g.process({
      type: 'add',
      ...cm,
      meta: meta('owner', 'o', {
        deletionTimestamp: '2026-12-01T00:00:00Z',
        finalizers: ['foregroundDeletion'],
      }),
    });
    deletes.length = 0;
    g.process({ type: 'add', ...cm, meta: meta('late', 'l', { ownerReferences: [ref('owner', 'o')] }) });
    assert.ok(deletes.includes('l'), `late dependent queued: ${deletes.join(',')}`);
  });

  it('deleting an owner sends its dependents to the workers', () => {
    const { g, deletes } = builder();
    g.process({ type: 'add', ...cm, meta: meta('owner', 'o') });
    g.process({ type: 'add', ...cm, meta: meta('dep', 'd', { ownerReferences: [ref('owner', 'o')] }) });
    g.process({ type: 'delete', ...cm, meta: meta('owner', 'o') });
    assert.equal(g.node('o'), undefined);
    assert.deepEqual(deletes, ['d']);
    assert.equal(g.absentOwnerCache.has({ ...cm, name: 'owner', uid: 'o', namespace: 'ns' }), true);
  });

  it('deletion starting with orphan or foregroundDeletion queues the right work', () => {
    const { g, deletes, orphans } = builder();
    g.process({ type: 'add', ...cm, meta: meta('a', 'a') });
    g.process({ type: 'add', ...cm, meta: meta('b', 'b') });
    g.process({
      type: 'add',
      ...cm,
      meta: meta('dep', 'd', { ownerReferences: [ref('b', 'b', { blockOwnerDeletion: true })] }),
    });
    const deleting = { deletionTimestamp: '2024-01-01T00:00:00Z' };
    g.process({
      type: 'update',
      ...cm,
      old: meta('a', 'a'),
      meta: meta('a', 'a', { ...deleting, finalizers: ['orphan'] }),
    });
    assert.deepEqual(orphans, ['a']);
    g.process({
      type: 'update',
      ...cm,
      old: meta('b', 'b'),
      meta: meta('b', 'b', { ...deleting, finalizers: ['foregroundDeletion'] }),
    });
    assert.equal(g.node('b')?.deletingDependents, true);
    assert.deepEqual(deletes, ['d', 'b']);
    assert.deepEqual(
      g
        .node('b')
        ?.blockingDependents()
        .map((n) => n.identity.uid),
      ['d'],
    );
    // Unblocking the reference wakes the owner.
    g.process({ type: 'update', ...cm, meta: meta('dep', 'd', { ownerReferences: [ref('b', 'b')] }) });
    assert.deepEqual(deletes, ['d', 'b', 'b']);
  });

  it('an observed owner in another namespace is reported and its dependent checked', () => {
    const { g, deletes, invalid } = builder();
    g.process({ type: 'add', ...cm, meta: meta('owner', 'o') });
    g.process({
      type: 'add',
      ...cm,
      meta: { ...meta('dep', 'd', { ownerReferences: [ref('owner', 'o')] }), namespace: 'other' },
    });
    assert.deepEqual(invalid, ['dep']);
    assert.deepEqual(deletes, ['d']);
  });

  it('a virtual delete of a virtual node named otherwise keeps it under another identity', () => {
    const { g, deletes } = builder();
    g.process({ type: 'add', ...cm, meta: meta('d1', 'd1', { ownerReferences: [ref('owner', 'o')] }) });
    g.process({
      type: 'add',
      ...cm,
      meta: meta('d2', 'd2', { ownerReferences: [{ ...ref('owner', 'o'), kind: 'Secret' }] }),
    });
    g.virtualDelete({ ...cm, name: 'owner', uid: 'o', namespace: 'ns' });
    assert.equal(g.node('o')?.identity.kind, 'Secret');
    assert.deepEqual(deletes, ['o', 'd2', 'd1', 'o']);
  });
});
