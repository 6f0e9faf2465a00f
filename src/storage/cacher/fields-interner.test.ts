import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { KubeObject } from '../../machinery/object.js';
import { FieldsInterner } from './fields-interner.js';

const fields = () => ({
  'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
  'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
});

const pod = (name: string, fieldsV1: object, time = '2026-12-04T10:00:00Z'): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      managedFields: [
        { manager: 'kubectl', operation: 'Update', apiVersion: 'v1', time, fieldsType: 'FieldsV1', fieldsV1 },
        {
          manager: 'kubelet',
          operation: 'Update',
          apiVersion: 'v1',
          time,
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:status': { 'f:phase': {} } },
          subresource: 'status',
        },
      ],
    },
  }) as unknown as KubeObject;

const entry = (o: KubeObject, i: number) => (o.metadata.managedFields as { fieldsV1: object }[])[i]!.fieldsV1;

test('equal field sets are shared; the objects encode to the same bytes as before', () => {
  const interner = new FieldsInterner();
  const a = pod('a', fields());
  const b = pod('b', fields(), '2026-12-04T11:00:00Z');
  const before = [JSON.stringify(a), JSON.stringify(b)];
  interner.intern(a);
  interner.intern(b);
  assert.equal(entry(a, 0), entry(b, 0));
  assert.equal(entry(a, 1), entry(b, 1));
  assert.ok(interner.shared > 0);
  assert.deepEqual([JSON.stringify(a), JSON.stringify(b)], before);
});

test('sets that differ in a key, a leaf or key order stay apart', () => {
  const interner = new FieldsInterner();
  const base = pod('a', fields());
  const otherKey = pod('b', { ...fields(), 'f:status': {} });
  const reordered = pod('c', { 'f:spec': fields()['f:spec'], 'f:metadata': fields()['f:metadata'] });
  const otherLeaf = pod('d', {
    'f:metadata': { 'f:labels': { '.': {}, 'f:web': {} } },
    'f:spec': fields()['f:spec'],
  });
  for (const o of [base, otherKey, reordered, otherLeaf]) interner.intern(o);
  const sets = new Set([base, otherKey, reordered, otherLeaf].map((o) => entry(o, 0)));
  assert.equal(sets.size, 4);
  assert.equal(
    JSON.stringify(entry(reordered, 0)),
    JSON.stringify({ 'f:spec': fields()['f:spec'], 'f:metadata': fields()['f:metadata'] }),
  );
  // The status sets are equal in all four.
  assert.equal(new Set([base, otherKey, reordered, otherLeaf].map((o) => entry(o, 1))).size, 1);
});

test('objects without managedFields, or with odd entries, are left as they are', () => {
  const interner = new FieldsInterner();
  const bare = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } } as unknown as KubeObject;
  interner.intern(bare);
  const odd = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'y', managedFields: [null, { fieldsV1: 'text' }] },
  } as unknown as KubeObject;
  const text = JSON.stringify(odd);
  interner.intern(odd);
  assert.equal(JSON.stringify(odd), text);
  assert.equal(interner.size, 0);
});

test('sets that differ in one branch share the others, and every {} leaf is one object', () => {
  const interner = new FieldsInterner();
  const status = (ip: string) => ({
    'f:status': {
      'f:conditions': { 'k:{"type":"Ready"}': { '.': {}, 'f:status': {}, 'f:type': {} } },
      'f:podIPs': { '.': {}, [`k:{"ip":"${ip}"}`]: { '.': {}, 'f:ip': {} } },
    },
  });
  const a = pod('a', status('10.0.0.1'));
  const b = pod('b', status('10.0.0.2'));
  const before = [JSON.stringify(a), JSON.stringify(b)];
  interner.intern(a);
  interner.intern(b);
  const sa = (entry(a, 0) as ReturnType<typeof status>)['f:status'];
  const sb = (entry(b, 0) as ReturnType<typeof status>)['f:status'];
  assert.notEqual(sa, sb);
  assert.equal(sa['f:conditions'], sb['f:conditions']);
  assert.notEqual(sa['f:podIPs'], sb['f:podIPs']);
  assert.equal(sa['f:podIPs']['.'], sb['f:conditions']['k:{"type":"Ready"}']['f:type']);
  assert.deepEqual([JSON.stringify(a), JSON.stringify(b)], before);
  // The shared parts are never changed: the empty leaf refuses it.
  assert.throws(() => {
    (sa['f:podIPs']['.'] as Record<string, unknown>)['x'] = 1;
  }, TypeError);
});

test('parts no object holds any more leave the table after a collection', async () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const interner = new FieldsInterner();
  const kept = pod('kept', fields());
  interner.intern(kept);
  const base = interner.size;
  let gone: KubeObject[] = Array.from({ length: 200 }, (_, i) =>
    pod(`p${i}`, { 'f:spec': { [`f:only-${i}`]: { 'f:x': {} } } }),
  );
  for (const o of gone) interner.intern(o);
  assert.ok(interner.size >= base + 400, `size ${interner.size}`);
  gone = [];
  for (let round = 0; round < 20 && interner.size > base + 3; round++) {
    gc();
    await new Promise((r) => setTimeout(r, 10));
  }
  // The last object made may still be referenced by the engine for a while: its 3 parts at most.
  assert.ok(interner.size <= base + 3, `size ${interner.size}, ${base} held`);
  assert.equal(gone.length, 0);
  // What is still held stays shared: the same set interned again is the kept one.
  const again = pod('again', fields());
  interner.intern(again);
  assert.equal(entry(again, 0), entry(kept, 0));
});
