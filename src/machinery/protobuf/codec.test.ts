import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ProtoPackage } from './descriptor.js';
import { ProtobufCodec, ProtobufDecodeError } from './codec.js';
import { ProtoRegistry } from './registry.js';
import { KubeProtobuf } from './serializer.js';

/** A small package shaped like generated ones: one kind with every field flavour. */
const pkg: ProtoPackage = {
  package: 'test.v1',
  groupVersion: 'test.example/v1',
  messages: [
    [
      'test.v1.Thing',
      [
        [1, 'name', 'string', ''],
        [3, 'count', 'int32', 'po'],
        [2, 'note', 'string', 'o'],
        [4, 'labels', 'map<string,string>', 'ko'],
        [5, 'items', 'test.v1.Item', 'ro'],
        [6, 'size', 'k8s.io.apimachinery.pkg.util.intstr.IntOrString', 'o'],
        [7, 'data', 'bytes', 'o'],
        [8, '', 'test.v1.Source', 'i'],
        [9, 'when', 'k8s.io.apimachinery.pkg.apis.meta.v1.Time', 'o'],
        [10, 'ports', 'int32', 'r'],
        [11, 'enabled', 'bool', 'o'],
      ],
    ],
    ['test.v1.Item', [[1, 'key', 'string', '']]],
    ['test.v1.Source', [[1, 'path', 'string', 'po']]],
  ],
};
const codec = new ProtobufCodec(new ProtoRegistry([pkg]));
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('protobuf codec', () => {
  it('writes non-pointer fields always, pointers only when set, in field-number order', () => {
    // name "" (0a00), note "" (1200), size IntOrString{0,0,""} (3206 0800 1000 1a00), inline
    // source {} (4200), when zero time → empty (4a00), enabled false (5800).
    assert.equal(
      hex(codec.encode('test.v1.Thing', {})),
      '0a00' + '1200' + '3206080010001a00' + '4200' + '4a00' + '5800',
    );
    const withCount = codec.encode('test.v1.Thing', { name: 'a', count: 0 });
    assert.ok(hex(withCount).includes('1800'), 'a pointer set to zero is written');
  });

  it('sorts map keys bytewise and writes repeated scalars unpacked', () => {
    const bytes = codec.encode('test.v1.Thing', { labels: { b: '2', a: '1' }, ports: [80, 443] });
    const h = hex(bytes);
    assert.ok(h.indexOf('0a0161') < h.indexOf('0a0162'), 'key a before key b');
    assert.ok(h.includes('5050') && h.includes('50bb03'), 'each port has its own tag');
  });

  it('orders map keys outside the BMP by their UTF-8 bytes, as Go does', () => {
    const h = hex(codec.encode('test.v1.Thing', { labels: { '\u{1F600}': 'a', '\uFFFD': 'b' } }));
    assert.ok(h.indexOf('efbfbd') < h.indexOf('f09f9880'), 'U+FFFD (EF BF BD) sorts before U+1F600 (F0 ...)');
  });

  it('decodes to the JSON Go would write: omitempty zeros dropped, zeros filled in, inline merged', () => {
    const decoded = codec.decode('test.v1.Thing', codec.encode('test.v1.Thing', { name: 'x', path: '/p' }));
    assert.deepEqual(decoded, { name: 'x', size: 0, path: '/p', when: null, ports: null });
    const full = {
      name: 'x',
      count: 0,
      note: 'n',
      labels: { a: '1' },
      items: [{ key: 'k' }],
      size: '25%',
      data: 'AAE=',
      when: '2026-11-30T14:08:55Z',
      ports: [1],
      enabled: true,
    };
    assert.deepEqual(codec.decode('test.v1.Thing', codec.encode('test.v1.Thing', full)), full);
  });

  it('reads packed repeated scalars and skips unknown fields', () => {
    // ports packed: tag 10 wire 2 (52), length 3, 80, 0xbb 0x03; then unknown field 99 varint.
    const bytes = Buffer.from('0a01785203' + '50bb03' + '98060' + '1', 'hex');
    const decoded = codec.decode('test.v1.Thing', bytes);
    assert.deepEqual((decoded as { ports: unknown }).ports, [80, 443]);
  });

  it('refuses bodies whose wire types do not match', () => {
    assert.throws(() => codec.decode('test.v1.Thing', Buffer.from('0801', 'hex')), ProtobufDecodeError);
  });

  it('envelopes objects in k8s\\x00 + runtime.Unknown and reads them back', () => {
    const pb = new KubeProtobuf(new ProtoRegistry([pkg]));
    const bytes = pb.encode({ apiVersion: 'test.example/v1', kind: 'Thing', name: 'x' });
    assert.equal(hex(bytes.subarray(0, 4)), '6b387300');
    const back = pb.decode(bytes);
    assert.equal(back.kind, 'Thing');
    assert.equal(back.object['name'], 'x');
    assert.throws(
      () => pb.decode(Buffer.from('{}')),
      /does not appear to be a protobuf message, expected prefix \[107 56 115 0\]/,
    );
    assert.throws(() => pb.decode(new Uint8Array(0)), /empty data/);
    assert.throws(
      () => pb.encode({ apiVersion: 'x/v1', kind: 'Nope' }),
      /does not implement the protobuf marshalling interface/,
    );
  });
});
