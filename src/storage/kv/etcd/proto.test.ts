import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CompareResult, CompareTarget, decode, encode } from './proto.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const k = new TextEncoder().encode('k');

test("a compare on mod is written with etcd's enum values (MOD = 2, mod_revision = field 6)", () => {
  const bytes = encode.txn({
    compare: [{ key: k, result: CompareResult.EQUAL, target: CompareTarget.MOD, value: 5 }],
    success: [],
    failure: [],
  });
  // TxnRequest.compare (1) { result (1) = EQUAL 0, target (2) = MOD 2, key (3) = "k", mod_revision (6) = 5 }
  assert.equal(hex(bytes), '0a09' + '0800' + '1002' + '1a016b' + '3005');
});

test('create = 0 (the key is absent) keeps its zero: a oneof member is written when set', () => {
  const bytes = encode.txn({
    compare: [{ key: k, result: CompareResult.EQUAL, target: CompareTarget.CREATE, value: 0 }],
    success: [{ put: { key: k, value: new Uint8Array([1]), lease: 0x7fff_ffff_ffff_fff0n } }],
    failure: [{ range: { key: k } }],
  });
  // compare { result 0, target CREATE 1, key, create_revision (5) = 0 }
  // success (2) { request_put (2) { key, value, lease (3) = 2^63-16 as a 9-byte varint } }
  // failure (3) { request_range (1) { key } }
  assert.equal(
    hex(bytes),
    '0a09080010011a016b2800' +
      '1212' +
      '1210' +
      '0a016b' +
      '120101' +
      '18f0ffffffffffffff7f' +
      '1a05' +
      '0a03' +
      '0a016b',
  );
});

test('responses: a 64-bit lease ID survives, revisions are numbers', () => {
  // RangeResponse { header { revision: 7 }, kvs [{ key "k", create 2, mod 7, version 3, value "v", lease 2^63-1 }], count 1 }
  const kv = '0a016b' + '1002' + '1807' + '2003' + '2a0176' + '30ffffffffffffffff7f';
  const bytes = Buffer.from(
    `0a021807` + `12${(kv.length / 2).toString(16).padStart(2, '0')}${kv}` + '2001',
    'hex',
  );
  const r = decode.range(bytes);
  assert.equal(r.header.revision, 7);
  assert.equal(r.count, 1);
  assert.equal(r.kvs[0]?.lease, 0x7fff_ffff_ffff_ffffn);
  assert.deepEqual([r.kvs[0]?.createRevision, r.kvs[0]?.modRevision, r.kvs[0]?.version], [2, 7, 3]);
});

test('watch requests: create with a start revision, cancel, progress', () => {
  assert.equal(
    hex(encode.watch({ create: { key: k, startRevision: 9, prevKv: true, progressNotify: true } })),
    '0a09' + '0a016b' + '1809' + '2001' + '3001',
  );
  assert.equal(hex(encode.watch({ cancel: { watchId: 3 } })), '12020803');
  assert.equal(hex(encode.watch({ progress: true })), '1a00');
});
