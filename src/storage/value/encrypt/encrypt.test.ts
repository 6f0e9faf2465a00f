import assert from 'node:assert/strict';
import { createDecipheriv } from 'node:crypto';
import { describe, test } from 'node:test';
import { secretbox } from '@noble/ciphers/salsa.js';
import { PrefixTransformers } from '../transformer.js';
import type { Transformer } from '../transformer.js';
import { CbcTransformer, GcmTransformer } from './aes.js';
import { identityTransformer } from './identity.js';
import { SecretboxTransformer } from './secretbox.js';

const hex = (s: string): Buffer => Buffer.from(s.replace(/\s+/g, ''), 'hex');
const te = (s: string): Buffer => Buffer.from(s, 'utf8');
const aad = te('/registry/secrets/default/s');

describe('aesgcm', () => {
  test('reads the GCM specification vector (test case 4) in upstream layout: nonce, ciphertext, tag', async () => {
    const key = hex('feffe9928665731c6d6a8f9467308308');
    const nonce = hex('cafebabefacedbaddecaf888');
    const plain = hex(
      'd9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39',
    );
    const ad = hex('feedfacedeadbeeffeedfacedeadbeefabaddad2');
    const cipher = hex(
      '42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091',
    );
    const tag = hex('5bc94fbc3221a5db94fae95ae7121a47');
    const t = new GcmTransformer(key);
    const out = await t.fromStorage(Buffer.concat([nonce, cipher, tag]), ad);
    assert.deepEqual(Buffer.from(out.data), plain);
    assert.equal(out.stale, false);
    // The same value with a fixed nonce seals to exactly those bytes.
    const fixed = new GcmTransformer(key, (n) => n.set(nonce));
    assert.deepEqual(Buffer.from(await fixed.toStorage(plain, ad)), Buffer.concat([nonce, cipher, tag]));
  });

  test('round trips for every key size; the storage key is authenticated', async () => {
    for (const size of [16, 24, 32]) {
      const t = new GcmTransformer(Buffer.alloc(size, 9));
      for (const len of [0, 1, 15, 16, 17, 1000]) {
        const plain = Buffer.alloc(len, 0x61);
        const stored = await t.toStorage(plain, aad);
        assert.equal(stored.byteLength, 12 + len + 16);
        assert.deepEqual(Buffer.from((await t.fromStorage(stored, aad)).data), plain);
      }
    }
    const t = new GcmTransformer(Buffer.alloc(32, 1));
    const stored = await t.toStorage(te('value'), aad);
    await assert.rejects(t.fromStorage(stored, te('/registry/secrets/default/other')), {
      message: 'cipher: message authentication failed',
    });
    await assert.rejects(new GcmTransformer(Buffer.alloc(32, 2)).fromStorage(stored, aad), {
      message: 'cipher: message authentication failed',
    });
    await assert.rejects(t.fromStorage(new Uint8Array(11), aad), {
      message: 'the stored data was shorter than the required size',
    });
    assert.throws(() => new GcmTransformer(Buffer.alloc(20)), { message: 'crypto/aes: invalid key size 20' });
  });
});

describe('aescbc', () => {
  test('upstream layout: a 16-byte IV, then PKCS#7-padded AES-CBC ciphertext', async () => {
    const key = Buffer.alloc(32, 3);
    const t: Transformer = new CbcTransformer(key);
    for (const len of [0, 5, 16, 33]) {
      const plain = Buffer.alloc(len, 0x62);
      const stored = Buffer.from(await t.toStorage(plain, aad));
      const pad = 16 - (len % 16);
      assert.equal(stored.byteLength, 16 + len + pad);
      // A plain AES-CBC decryption with standard PKCS#7 unpadding reads it.
      const d = createDecipheriv('aes-256-cbc', key, stored.subarray(0, 16));
      assert.deepEqual(Buffer.concat([d.update(stored.subarray(16)), d.final()]), plain);
      assert.deepEqual(Buffer.from((await t.fromStorage(stored, aad)).data), plain);
    }
  });

  test('SP 800-38A F.2.1 ciphertext decrypts to its blocks, which are not PKCS#7-padded: upstream errors', async () => {
    const t: Transformer = new CbcTransformer(hex('2b7e151628aed2a6abf7158809cf4f3c'));
    const iv = hex('000102030405060708090a0b0c0d0e0f');
    // P1 P2 = 6bc1...172a ae2d...8e51: the last byte 0x51 is no padding length.
    const c = hex('7649abac8119b246cee98e9b12e9197d 5086cb9b507219ee95db113a917678b2');
    await assert.rejects(t.fromStorage(Buffer.concat([iv, c]), aad), {
      message: 'invalid PKCS7 data (empty or not padded)',
    });
    await assert.rejects(t.fromStorage(Buffer.concat([iv, c.subarray(0, 20)]), aad), {
      message: 'the stored data is not a multiple of the block size',
    });
    await assert.rejects(t.fromStorage(iv.subarray(0, 10), aad), {
      message: 'the stored data was shorter than the required size',
    });
  });
});

describe('secretbox', () => {
  test('reads the NaCl secretbox vector in upstream layout: a 24-byte nonce, then the box', async () => {
    const key = hex('1b27556473e985d462cd51197a9a46c76009549eac6474f206c4ee0844f68389');
    const nonce = hex('69696ee955b62b73cd62bda875fc73d68219e0036b7a0b37');
    const message = hex(`be075fc53c81f2d5cf141316ebeb0c7b5228c52a4c62cbd44b66849b64244ffce5ecbaaf33bd751a
      1ac728d45e6c61296cdc3c01233561f41db66cce314adb310e3be8250c46f06dceea3a7fa1348057e2f6556ad6b1318a024a
      838f21af1fde048977eb48f59ffd4924ca1c60902e52f0a089bc76897040e082f937763848645e0705`);
    const box = hex(`f3ffc7703f9400e52a7dfb4b3d3305d98e993b9f48681273c29650ba32fc76ce48332ea7164d96a4476f
      b8c531a1186ac0dfc17c98dce87b4da7f011ec48c97271d2c20f9b928fe2270d6fb863d51738b48eeee314a7cc8ab9321645
      48e526ae90224368517acfeabd6bb3732bc0e9da99832b61ca01b6de56244a9e88d5f9b37973f622a43d14a6599b1f654cb4
      5a74e355a5`);
    const t: Transformer = new SecretboxTransformer(key);
    const out = await t.fromStorage(Buffer.concat([nonce, box]), aad);
    assert.deepEqual(Buffer.from(out.data), message);
  });

  test('round trips; a wrong key or a changed byte does not open, with upstream text', async () => {
    const t: Transformer = new SecretboxTransformer(Buffer.alloc(32, 4));
    const stored = Buffer.from(await t.toStorage(te('top secret'), aad));
    assert.equal(stored.byteLength, 24 + 16 + 10);
    assert.deepEqual(
      Buffer.from(secretbox(Buffer.alloc(32, 4), stored.subarray(0, 24)).open(stored.subarray(24))),
      te('top secret'),
    );
    // No authenticated data: upstream's secretbox ignores the key.
    assert.equal(Buffer.from((await t.fromStorage(stored, te('elsewhere'))).data).toString(), 'top secret');
    const msg = { message: 'output array was not large enough for encryption' };
    const other: Transformer = new SecretboxTransformer(Buffer.alloc(32, 5));
    await assert.rejects(other.fromStorage(stored, aad), msg);
    stored[30]! ^= 1;
    await assert.rejects(t.fromStorage(stored, aad), msg);
    await assert.rejects(t.fromStorage(new Uint8Array(39), aad), {
      message: 'the stored data was shorter than the required size',
    });
  });
});

describe('prefix transformers', () => {
  const k1 = { prefix: te('k1:'), transformer: new GcmTransformer(Buffer.alloc(16, 1)) };
  const k2 = { prefix: te('k2:'), transformer: new GcmTransformer(Buffer.alloc(16, 2)) };

  test('writes with the first; reads by prefix; any but the first reads stale', async () => {
    const first = new PrefixTransformers('no matching key', [k1, k2]);
    const stored = await first.toStorage(te('v'), aad);
    assert.ok(Buffer.from(stored).toString('latin1').startsWith('k1:'));
    assert.deepEqual(await first.fromStorage(stored, aad), { data: te('v'), stale: false });
    const swapped = new PrefixTransformers('no matching key', [k2, k1]);
    const read = await swapped.fromStorage(stored, aad);
    assert.equal(Buffer.from(read.data).toString(), 'v');
    assert.equal(read.stale, true);
    await assert.rejects(new PrefixTransformers('no matching key', [k2]).fromStorage(stored, aad), {
      message: 'no matching key',
    });
  });

  test('identity reads unprefixed data (stale when not first) and is skipped when it refuses', async () => {
    const identity = { prefix: new Uint8Array(0), transformer: identityTransformer };
    const t = new PrefixTransformers('no matching prefix found', [k1, identity]);
    assert.deepEqual(await t.fromStorage(te('{"a":1}'), aad), { data: te('{"a":1}'), stale: true });
    await assert.rejects(t.fromStorage(te('k8s:enc:other:v1:x:...'), aad), {
      message: 'no matching prefix found',
    });
    await assert.rejects(identityTransformer.fromStorage(te('k8s:enc:aescbc:v1:k:zz'), aad), {
      message: 'identity transformer tried to read encrypted data',
    });
  });

  test('failures of matching providers are reported, several as a list', async () => {
    const bad = { prefix: te('k1:'), transformer: new GcmTransformer(Buffer.alloc(16, 9)) };
    const stored = await new PrefixTransformers('x', [k1]).toStorage(te('v'), aad);
    await assert.rejects(new PrefixTransformers('x', [bad]).fromStorage(stored, aad), {
      message: 'cipher: message authentication failed',
    });
    await assert.rejects(new PrefixTransformers('x', [bad, bad]).fromStorage(stored, aad), {
      message: '[cipher: message authentication failed, cipher: message authentication failed]',
    });
  });
});
