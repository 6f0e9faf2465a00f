/**
 * The storage codec (AM-13's `--storage-media-type`): JSON by default; protobuf written only for
 * kinds the serializer has, read whatever the setting; a protobuf value a store cannot read, or
 * one that does not decode, is a CorruptObject error naming the key. resourceVersion is never
 * stored and always set from the revision.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../machinery/object.js';
import { StorageError } from './errors.js';
import { storageCodec } from './codec.js';
import type { StorageProtobuf } from './codec.js';
import type { JsonObject } from '../util/json.js';

const magic = [0x6b, 0x38, 0x73, 0x00];

/** A stand-in serializer: the magic, then the JSON (enough to see which path ran). */
const fake: StorageProtobuf = {
  supports: (apiVersion, kind) => apiVersion === 'v1' && kind === 'ConfigMap',
  encode: (o) => Uint8Array.from([...magic, ...Buffer.from(JSON.stringify(o))]),
  decode: (b) => {
    if (b[4] !== 0x7b) throw new Error('bad body');
    return JSON.parse(Buffer.from(b.subarray(4)).toString('utf8')) as JsonObject;
  },
};

const cm = (): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'a', resourceVersion: '7' },
});
const kv = (value: Uint8Array) => ({
  key: '/registry/configmaps/ns/a',
  value,
  createRevision: 3,
  modRevision: 9,
  lease: 0,
});

test('protobuf is written for kinds that have it, JSON for the rest; both are read', () => {
  const codec = storageCodec({ protobuf: fake, writeProtobuf: true });
  const obj = cm();
  const bytes = codec.encode('/k', obj);
  assert.deepEqual([...bytes.subarray(0, 4)], magic);
  assert.equal(obj.metadata.resourceVersion, '7', 'the object is left as it was');
  assert.equal(Buffer.from(bytes).includes('resourceVersion'), false);
  assert.equal(codec.decode(kv(bytes)).metadata.resourceVersion, '9');
  const cr = codec.encode('/k', {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w' },
  });
  assert.equal(Buffer.from(cr).toString('utf8')[0], '{');
  assert.equal(codec.decode(kv(cr)).kind, 'Widget');
});

test('JSON by default; protobuf still read when a serializer is given', () => {
  const codec = storageCodec({ protobuf: fake });
  assert.equal(Buffer.from(codec.encode('/k', cm())).toString('utf8')[0], '{');
  const written = storageCodec({ protobuf: fake, writeProtobuf: true }).encode('/k', cm());
  assert.equal(codec.decode(kv(written)).metadata.name, 'a');
});

test('a protobuf value that cannot be read is CorruptObject naming its key', () => {
  const written = storageCodec({ protobuf: fake, writeProtobuf: true }).encode('/k', cm());
  assert.throws(
    () => storageCodec().decode(kv(written)),
    (e: unknown) =>
      e instanceof StorageError &&
      e.code === 'CorruptObject' &&
      /\/registry\/configmaps\/ns\/a is protobuf/.test(e.message),
  );
  assert.throws(
    () => storageCodec({ protobuf: fake }).decode(kv(Uint8Array.from([...magic, 0x01]))),
    (e: unknown) =>
      e instanceof StorageError && e.code === 'CorruptObject' && /does not decode: bad body/.test(e.message),
  );
});
