import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMemoryKv } from '../kv/memory/memory-kv.js';
import { runKvConformance } from '../kv/testing/conformance.js';
import type { KvEvent, KvStore } from '../kv/types.js';
import { prefixEnd } from '../kv/types.js';
import { KvObjectStore } from '../object-store.js';
import { StorageError } from '../errors.js';
import { CbcTransformer, GcmTransformer } from './encrypt/aes.js';
import { identityTransformer } from './encrypt/identity.js';
import { PrefixTransformers } from './transformer.js';
import type { Transformer } from './transformer.js';
import { TransformingKvStore } from './transforming-kv.js';

const key1 = Buffer.alloc(32, 1);
const key2 = Buffer.alloc(32, 2);
const te = (s: string): Uint8Array => Buffer.from(s);

function gcm(name: string, key: Uint8Array): { prefix: Uint8Array; transformer: Transformer } {
  return {
    prefix: te('k8s:enc:aesgcm:v1:'),
    transformer: new PrefixTransformers('no matching key was found for the provided AES transformer', [
      { prefix: te(`${name}:`), transformer: new GcmTransformer(key) },
    ]),
  };
}

// The wrapper keeps every KvStore guarantee. Keys '/a' and '/z' stay unencrypted: the suite
// compares their values inside transactions, which ciphertext cannot support.
const everyKey = new PrefixTransformers('no matching prefix found', [gcm('k1', key1)]);
runKvConformance('encrypting', (options) =>
  Promise.resolve(
    new TransformingKvStore({
      inner: createMemoryKv(options),
      transformerFor: (key) => (key === '/a' || key === '/z' ? undefined : everyKey),
    }),
  ),
);

function secretsOnly(transformer: Transformer): (key: string) => Transformer | undefined {
  return (key) => (key.startsWith('/registry/secrets/') ? transformer : undefined);
}

test('configured keys are stored encrypted with the key as authenticated data; others stay plain', async () => {
  const inner = createMemoryKv();
  const kv = new TransformingKvStore({
    inner,
    transformerFor: secretsOnly(new PrefixTransformers('no matching prefix found', [gcm('k1', key1)])),
  });
  const created = await kv.create('/registry/secrets/ns/s', te('{"data":"hunter2"}'));
  assert.ok(created.ok);
  assert.equal(Buffer.from(created.kv.value).toString(), '{"data":"hunter2"}');
  await kv.create('/registry/configmaps/ns/c', te('{"data":"visible"}'));
  const raw = (await inner.range({ key: '/registry/', end: prefixEnd('/registry/') })).kvs;
  const secret = Buffer.from(raw.find((r) => r.key.startsWith('/registry/secrets/'))!.value);
  assert.ok(secret.toString('latin1').startsWith('k8s:enc:aesgcm:v1:k1:'));
  assert.ok(!secret.includes('hunter2'));
  assert.equal(
    Buffer.from(raw.find((r) => r.key.startsWith('/registry/configmaps/'))!.value).toString(),
    '{"data":"visible"}',
  );
  const got = (await kv.range({ key: '/registry/secrets/ns/s' })).kvs[0]!;
  assert.equal(Buffer.from(got.value).toString(), '{"data":"hunter2"}');
  assert.equal(got.stale, undefined);
  // The same ciphertext under another key does not decrypt (AES-GCM binds it to its key).
  await inner.create('/registry/secrets/ns/copy', secret);
  await assert.rejects(kv.range({ key: '/registry/secrets/ns/copy' }), (err: unknown) => {
    assert.ok(err instanceof StorageError);
    assert.equal(err.code, 'InternalError');
    assert.equal(err.message, 'cipher: message authentication failed');
    return true;
  });
  // A list names the key it could not transform, as upstream's etcd3 store.
  await assert.rejects(kv.range({ key: '/registry/secrets/', end: prefixEnd('/registry/secrets/') }), {
    message: 'unable to transform key "/registry/secrets/ns/copy": cipher: message authentication failed',
  });
});

test('encrypted bytes under an unconfigured resource are refused, not served', async () => {
  const inner = createMemoryKv();
  const kv = new TransformingKvStore({ inner, transformerFor: () => undefined });
  await inner.create('/registry/configmaps/ns/c', te('k8s:enc:aescbc:v1:k1:xxxxxxxxxxxxxxxx'));
  await assert.rejects(kv.range({ key: '/registry/configmaps/ns/c' }), {
    message: 'identity transformer tried to read encrypted data',
  });
});

test('an unknown prefix fails with upstream text; a value read by a later provider is stale', async () => {
  const inner = createMemoryKv();
  const old = new PrefixTransformers('no matching prefix found', [gcm('k1', key1)]);
  const writer = new TransformingKvStore({ inner, transformerFor: secretsOnly(old) });
  await writer.create('/registry/secrets/ns/s', te('{"v":1}'));
  await inner.create('/registry/secrets/ns/plain', te('{"v":2}'));
  await inner.create('/registry/secrets/ns/alien', te('k8s:enc:foo:v1:x:abc'));
  // Rotation: a new first key, the old one second, identity last.
  const rotated = new PrefixTransformers('no matching prefix found', [
    {
      prefix: te('k8s:enc:aescbc:v1:'),
      transformer: new PrefixTransformers('no matching key was found for the provided AES transformer', [
        { prefix: te('k2:'), transformer: new CbcTransformer(key2) },
      ]),
    },
    gcm('k1', key1),
    { prefix: new Uint8Array(0), transformer: identityTransformer },
  ]);
  const kv = new TransformingKvStore({ inner, transformerFor: secretsOnly(rotated) });
  const s = (await kv.range({ key: '/registry/secrets/ns/s' })).kvs[0]!;
  assert.equal(Buffer.from(s.value).toString(), '{"v":1}');
  assert.equal(s.stale, true);
  const plain = (await kv.range({ key: '/registry/secrets/ns/plain' })).kvs[0]!;
  assert.equal(plain.stale, true);
  await assert.rejects(kv.range({ key: '/registry/secrets/ns/alien' }), {
    message: 'no matching prefix found',
  });
  // The object store rewrites a stale value even when the object is unchanged.
  const store = new KvObjectStore(kv);
  const before = (await inner.range({ key: '/registry/secrets/ns/s' })).kvs[0]!;
  await store.guaranteedUpdate('/registry/secrets/ns/s', (cur) => cur!);
  const after = (await inner.range({ key: '/registry/secrets/ns/s' })).kvs[0]!;
  assert.ok(after.modRevision > before.modRevision);
  assert.ok(Buffer.from(after.value).toString('latin1').startsWith('k8s:enc:aescbc:v1:k2:'));
  // Now current: an unchanged update writes nothing.
  await store.guaranteedUpdate('/registry/secrets/ns/s', (cur) => cur!);
  assert.equal((await inner.range({ key: '/registry/secrets/ns/s' })).kvs[0]!.modRevision, after.modRevision);
});

test('watch events are decrypted once and shared by every watcher', async () => {
  const inner = createMemoryKv();
  const kv: KvStore = new TransformingKvStore({
    inner,
    transformerFor: secretsOnly(new PrefixTransformers('no matching prefix found', [gcm('k1', key1)])),
  });
  const abort = new AbortController();
  const collect = async (): Promise<KvEvent[]> => {
    const out: KvEvent[] = [];
    for await (const ev of kv.watch({
      key: '/registry/',
      end: prefixEnd('/registry/'),
      prevKv: true,
      signal: abort.signal,
    })) {
      out.push(ev);
      if (out.length === 3) break;
    }
    return out;
  };
  const a = collect();
  const b = collect();
  await kv.create('/registry/secrets/ns/s', te('one'));
  const r = (await kv.range({ key: '/registry/secrets/ns/s' })).kvs[0]!;
  await kv.update('/registry/secrets/ns/s', te('two'), r.modRevision);
  await kv.create('/registry/configmaps/ns/c', te('plain'));
  const [ea, eb] = await Promise.all([a, b]);
  abort.abort();
  assert.deepEqual(
    ea.map((e) => [
      Buffer.from(e.kv.value).toString(),
      e.prevKv === undefined ? null : Buffer.from(e.prevKv.value).toString(),
    ]),
    [
      ['one', null],
      ['two', 'one'],
      ['plain', null],
    ],
  );
  ea.forEach((e, i) => assert.equal(e, eb[i]));
});

test('a transaction encrypts its puts and decrypts what it reads and replaces', async () => {
  const inner = createMemoryKv();
  const kv = new TransformingKvStore({
    inner,
    transformerFor: secretsOnly(new PrefixTransformers('no matching prefix found', [gcm('k1', key1)])),
  });
  await kv.create('/registry/secrets/ns/s', te('old'));
  const r = await kv.txn({
    success: [
      { type: 'range', key: '/registry/secrets/ns/s' },
      { type: 'put', key: '/registry/secrets/ns/s', value: te('new') },
    ],
  });
  assert.ok(r.succeeded);
  const [range, put] = r.responses;
  assert.equal(range?.type === 'range' ? Buffer.from(range.kvs[0]!.value).toString() : '', 'old');
  assert.equal(put?.type === 'put' ? Buffer.from(put.kv.value).toString() : '', 'new');
  assert.equal(put?.type === 'put' ? Buffer.from(put.prevKv!.value).toString() : '', 'old');
  const stored = (await inner.range({ key: '/registry/secrets/ns/s' })).kvs[0]!;
  assert.ok(!Buffer.from(stored.value).includes('new'));
  await assert.rejects(
    kv.txn({
      compare: [{ key: '/registry/secrets/ns/s', target: 'value', operator: '=', value: te('new') }],
    }),
    { message: 'value comparisons are not supported on encrypted key /registry/secrets/ns/s' },
  );
});
