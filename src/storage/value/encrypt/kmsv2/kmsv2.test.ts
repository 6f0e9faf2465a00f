/** KMS v2 (AM-10): the stored envelope, the DEK cache key, and the probe's DEK lifecycle. */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { FakeClock } from '../../../../util/clock.js';
import { GcmTransformer } from '../aes.js';
import { kmsAPIVersion } from './api.js';
import { codec } from './api.js';
import type { EncryptResponse, StatusResponse } from './api.js';
import { decodeEncryptedObject, dekCacheKey, encodeEncryptedObject } from './encrypted-object.js';
import { EnvelopeTransformer } from './envelope.js';
import type { KmsService } from './grpc-service.js';
import { parseKmsEndpoint } from './grpc-service.js';
import { KmsV2Probe, upstreamProbeTimings } from './probe.js';

const te = (s: string): Buffer => Buffer.from(s, 'utf8');
const aad = te('/registry/secrets/ns/s');

describe('EncryptedObject', () => {
  test('protobuf fields 1-4 in order, map entries sorted by key', () => {
    const bytes = Buffer.from(
      encodeEncryptedObject({
        encryptedData: te('DATA'),
        keyID: 'k1',
        encryptedDEK: te('DEK'),
        annotations: new Map([
          ['z.example.com', te('2')],
          ['a.example.com', te('1')],
        ]),
      }),
    );
    const entry = (k: string, v: string): Buffer =>
      Buffer.concat([
        Buffer.from([0x22, 2 + k.length + 2 + v.length, 0x0a, k.length]),
        te(k),
        Buffer.from([0x12, v.length]),
        te(v),
      ]);
    const want = Buffer.concat([
      Buffer.from([0x0a, 4]),
      te('DATA'),
      Buffer.from([0x12, 2]),
      te('k1'),
      Buffer.from([0x1a, 3]),
      te('DEK'),
      entry('a.example.com', '1'),
      entry('z.example.com', '2'),
    ]);
    assert.deepEqual(bytes, want);
    const back = decodeEncryptedObject(bytes);
    assert.equal(back.keyID, 'k1');
    assert.deepEqual(Buffer.from(back.encryptedDEK), te('DEK'));
    assert.deepEqual([...back.annotations.keys()], ['a.example.com', 'z.example.com']);
  });

  test("upstream's validation texts", () => {
    const base = {
      encryptedData: te('d'),
      keyID: 'k',
      encryptedDEK: te('x'),
      annotations: new Map<string, Uint8Array>(),
    };
    assert.throws(() => encodeEncryptedObject({ ...base, encryptedData: new Uint8Array(0) }), {
      message: 'encrypted data is empty',
    });
    assert.throws(() => encodeEncryptedObject({ ...base, encryptedDEK: new Uint8Array(0) }), {
      message: 'failed to validate encrypted DEK: encrypted DEK is empty',
    });
    assert.throws(() => encodeEncryptedObject({ ...base, encryptedDEK: new Uint8Array(1025) }), {
      message:
        'failed to validate encrypted DEK: encrypted DEK is 1025 bytes, which exceeds the max size of 1024',
    });
    assert.throws(() => encodeEncryptedObject({ ...base, keyID: '' }), {
      message: 'failed to validate key id: keyID is empty',
    });
    assert.throws(() => encodeEncryptedObject({ ...base, keyID: 'x'.repeat(1025) }), {
      message: 'failed to validate key id: keyID is 1025 bytes, which exceeds the max size of 1024',
    });
    assert.throws(() => encodeEncryptedObject({ ...base, annotations: new Map([['nodots', te('v')]]) }), {
      message:
        'failed to validate annotations: annotations: Invalid value: "nodots": should be a domain with at least two segments separated by dots',
    });
  });

  test('DEK cache key: SHA-256 of the cryptobyte encoding of DEK, key ID and sorted annotations', () => {
    const plain = Buffer.concat([Buffer.from([0, 3]), te('DEK'), Buffer.from([0, 2]), te('k1')]);
    assert.equal(dekCacheKey(te('DEK'), 'k1', new Map()), createHash('sha256').update(plain).digest('hex'));
    const withAnn = Buffer.concat([
      plain,
      Buffer.from([0, 0, 0, 1, 0, 5]),
      te('a.b.c'),
      Buffer.from([0, 1]),
      te('v'),
    ]);
    assert.equal(
      dekCacheKey(te('DEK'), 'k1', new Map([['a.b.c', te('v')]])),
      createHash('sha256').update(withAnn).digest('hex'),
    );
  });
});

/** A plugin in memory: keys per key ID, switchable key ID, health and failures; counts calls. */
class FakeKms implements KmsService {
  keyID = 'k1';
  healthz = 'ok';
  version = kmsAPIVersion;
  failing = false;
  readonly calls = { status: 0, encrypt: 0, decrypt: 0 };
  readonly #keys = new Map<string, Buffer>();

  status(): Promise<StatusResponse> {
    this.calls.status++;
    if (this.failing) return Promise.reject(new Error('rpc error: code = Unavailable desc = down'));
    return Promise.resolve({ version: this.version, healthz: this.healthz, keyId: this.keyID });
  }

  async encrypt(_uid: string, plaintext: Uint8Array): Promise<EncryptResponse> {
    this.calls.encrypt++;
    if (this.failing) throw new Error('rpc error: code = Unavailable desc = down');
    const key = this.#keys.get(this.keyID) ?? randomBytes(32);
    this.#keys.set(this.keyID, key);
    const ciphertext = await new GcmTransformer(key).toStorage(plaintext, te(this.keyID));
    return { ciphertext, keyId: this.keyID, annotations: new Map() };
  }

  async decrypt(_uid: string, r: { ciphertext: Uint8Array; keyId: string }): Promise<Uint8Array> {
    this.calls.decrypt++;
    if (this.failing) throw new Error('rpc error: code = Unavailable desc = down');
    const key = this.#keys.get(r.keyId);
    if (key === undefined) throw new Error(`unknown key ${r.keyId}`);
    return (await new GcmTransformer(key).fromStorage(r.ciphertext, te(r.keyId))).data;
  }

  close(): void {}
}

function setup(): { kms: FakeKms; clock: FakeClock; probe: KmsV2Probe; envelope: EnvelopeTransformer } {
  const kms = new FakeKms();
  const clock = new FakeClock();
  const probe = new KmsV2Probe({ name: 'p', service: kms, clock, timings: upstreamProbeTimings });
  const envelope = new EnvelopeTransformer({ service: kms, state: () => probe.currentState(), clock });
  return { kms, clock, probe, envelope };
}

describe('KMS v2 envelope and probe', () => {
  test('no DEK before the first successful check; then one DEK for every write', async () => {
    const { kms, probe, envelope } = setup();
    await assert.rejects(envelope.toStorage(te('x'), aad), { message: 'got unexpected nil transformer' });
    await probe.check();
    assert.equal(kms.calls.encrypt, 1);
    const a = await envelope.toStorage(te('one'), aad);
    const b = await envelope.toStorage(te('two'), aad);
    assert.equal(kms.calls.encrypt, 1);
    const oa = decodeEncryptedObject(a);
    assert.deepEqual(oa.encryptedDEK, decodeEncryptedObject(b).encryptedDEK);
    assert.equal(oa.keyID, 'k1');
    // Nonces: 4 random bytes then a little-endian counter above 1e9.
    const nonceA = Buffer.from(oa.encryptedData.subarray(0, 12));
    const nonceB = Buffer.from(decodeEncryptedObject(b).encryptedData.subarray(0, 12));
    assert.equal(nonceB.readBigUInt64LE(4), nonceA.readBigUInt64LE(4) + 1n);
    assert.ok(nonceA.readBigUInt64LE(4) > 1_000_000_000n);
    assert.deepEqual(await envelope.fromStorage(a, aad), { data: te('one'), stale: false });
    assert.equal(kms.calls.decrypt, 0);
    await assert.rejects(envelope.fromStorage(a, te('/elsewhere')), {
      message: 'cipher: message authentication failed',
    });
  });

  test('a new key ID rotates the DEK; older values read stale; unknown DEKs are decrypted once', async () => {
    const { kms, probe, envelope, clock } = setup();
    await probe.check();
    const old = await envelope.toStorage(te('v'), aad);
    kms.keyID = 'k2';
    // Within the positive TTL the remembered answer stands.
    await probe.check();
    assert.equal(kms.calls.status, 1);
    clock.advance(upstreamProbeTimings.positiveTTLms);
    await probe.check();
    assert.equal(kms.calls.encrypt, 2);
    assert.equal(probe.currentState().keyID, 'k2');
    assert.deepEqual(await envelope.fromStorage(old, aad), { data: te('v'), stale: true });
    const fresh = await envelope.toStorage(te('w'), aad);
    assert.equal(decodeEncryptedObject(fresh).keyID, 'k2');
    // A second transformer (a restarted server) must ask the plugin for the old DEK, once.
    const restarted = new EnvelopeTransformer({ service: kms, state: () => probe.currentState(), clock });
    await Promise.all([restarted.fromStorage(old, aad), restarted.fromStorage(old, aad)]);
    await restarted.fromStorage(old, aad);
    assert.equal(kms.calls.decrypt, 1);
    kms.failing = true;
    const another = new EnvelopeTransformer({ service: kms, state: () => probe.currentState(), clock });
    await assert.rejects(another.fromStorage(fresh, aad), {
      message: 'failed to decrypt DEK, error: rpc error: code = Unavailable desc = down',
    });
  });

  test("health failures carry upstream's texts; writes coast on the DEK until it expires", async () => {
    const { kms, probe, envelope, clock } = setup();
    await probe.check();
    const stored = await envelope.toStorage(te('v'), aad);
    clock.advance(upstreamProbeTimings.positiveTTLms);
    kms.healthz = 'broken';
    kms.version = 'v2alpha1';
    await assert.rejects(probe.check(), {
      message:
        'kmsv2 Provider p is not healthy, error: [got unexpected healthz status: broken, expected KMSv2 API version v2beta1, got v2alpha1]',
    });
    clock.advance(upstreamProbeTimings.negativeTTLms);
    kms.failing = true;
    await assert.rejects(probe.check(), {
      message:
        'failed to perform status section of the healthz check for KMS Provider p, error: rpc error: code = Unavailable desc = down',
    });
    // Still writable until three minutes after the last good check, readable after that too.
    await envelope.toStorage(te('still'), aad);
    clock.advance(upstreamProbeTimings.writeDEKMaxTTLms);
    await assert.rejects(
      envelope.toStorage(te('late'), aad),
      /^TransformError: EDEK with keyID "k1" expired at 2026-01-01T00:03:20Z \(current time is 2026-01-01T00:03:23Z\)$/,
    );
    assert.equal(Buffer.from((await envelope.fromStorage(stored, aad)).data).toString(), 'v');
    // The plugin answers again with the same key ID: the DEK is extended, not replaced.
    kms.failing = false;
    kms.healthz = 'ok';
    kms.version = kmsAPIVersion;
    clock.advance(upstreamProbeTimings.negativeTTLms);
    await probe.check();
    assert.equal(kms.calls.encrypt, 1);
    await envelope.toStorage(te('again'), aad);
  });

  test('a plugin that seals under another key ID than it reports fails the rotation', async () => {
    const { kms, probe } = setup();
    const original = kms.encrypt.bind(kms);
    kms.encrypt = async (uid, p) => ({ ...(await original(uid, p)), keyId: 'other' });
    await assert.rejects(probe.check(), (err: unknown) => {
      assert.match(
        (err as Error).message,
        /^kmsv2 Provider p is not healthy, error: failed to rotate DEK uid="[0-9a-f-]{36}", errState=got unexpected nil transformer, errGen=<nil>, statusKeyID="k1", encryptKeyID="other", stateKeyID="", expirationTimestamp=0001-01-01T00:00:00Z$/,
      );
      return true;
    });
  });

  test('endpoints and the gRPC messages', () => {
    assert.equal(parseKmsEndpoint('unix:///var/run/kms.sock'), '/var/run/kms.sock');
    assert.equal(parseKmsEndpoint('unix:///@abstract'), '@abstract');
    assert.throws(() => parseKmsEndpoint('tcp://host:1'), {
      message: 'unsupported scheme "tcp" for remote KMS provider',
    });
    assert.throws(() => parseKmsEndpoint(''), {
      message: "remote KMS provider can't use empty string as endpoint",
    });
    const req = { ciphertext: te('c'), uid: 'u', keyId: 'k', annotations: new Map([['a.b', te('v')]]) };
    assert.deepEqual(codec.decryptRequest.decode(codec.decryptRequest.encode(req)), req);
    const status = { version: 'v2beta1', healthz: 'ok', keyId: 'k' };
    assert.deepEqual(codec.statusResponse.decode(codec.statusResponse.encode(status)), status);
    // key_id is field 3 of StatusResponse.
    assert.deepEqual(
      [...codec.statusResponse.encode({ version: '', healthz: '', keyId: 'k' })],
      [0x1a, 1, 0x6b],
    );
  });
});
