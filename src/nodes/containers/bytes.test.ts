import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeBytes, encodeBytes, hexdumpCanonical } from './bytes.js';

test('bytes that are not UTF-8 survive a round trip through file content; UTF-8 stays text', () => {
  const binary = Uint8Array.from([0xde, 0xca, 0xfe, 0xba, 0xd0, 0xfe, 0xff]);
  assert.deepEqual(encodeBytes(decodeBytes(binary)), binary);
  assert.equal(decodeBytes(Buffer.from('héllo ✓', 'utf8')), 'héllo ✓');
  assert.deepEqual(Buffer.from(encodeBytes('héllo ✓ 𝄞')), Buffer.from('héllo ✓ 𝄞', 'utf8'));
});

test('hexdump -C prints as util-linux and busybox do', () => {
  // Upstream: "ConfigMap binary data should be reflected in volume" looks for "de ca fe ba d0 fe ff".
  assert.equal(
    hexdumpCanonical(Uint8Array.from([0xde, 0xca, 0xfe, 0xba, 0xd0, 0xfe, 0xff])),
    '00000000  de ca fe ba d0 fe ff                              |.......|\n00000007\n',
  );
  assert.equal(
    hexdumpCanonical(Buffer.from('Hello world, this is a test of many bytes!!')),
    '00000000  48 65 6c 6c 6f 20 77 6f  72 6c 64 2c 20 74 68 69  |Hello world, thi|\n' +
      '00000010  73 20 69 73 20 61 20 74  65 73 74 20 6f 66 20 6d  |s is a test of m|\n' +
      '00000020  61 6e 79 20 62 79 74 65  73 21 21                 |any bytes!!|\n' +
      '0000002b\n',
  );
  assert.equal(
    hexdumpCanonical(Buffer.from('a'.repeat(48))),
    '00000000  61 61 61 61 61 61 61 61  61 61 61 61 61 61 61 61  |aaaaaaaaaaaaaaaa|\n*\n00000030\n',
  );
  assert.equal(hexdumpCanonical(new Uint8Array()), '');
});
