import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isKnownFormat, validatesFormat } from './formats.js';
import { loadRe2 } from '../../../util/re2.js';

// RE2 is loaded on first use; these tests call the schema checks directly.
await loadRe2();

// Samples from kube-openapi pkg/validation/strfmt default_test.go, time_test.go, duration_test.go.
const valid: Record<string, string[]> = {
  'date-time': ['2014-12-15T19:30:20.000Z', '2014-12-15t19:30:20z', '2011-08-18T19:03:37.000000000+01:00'],
  date: ['2014-12-15', '2020-02-29'],
  duration: ['1h', '3 days', '5 weeks', '300ms', '-1.5h', '2h45m', '3\u00b5s', '3\u03bcs', '2 \u00b5s'],
  uuid: ['a8098c1a-f86e-11da-bd1a-00112444be1e', 'A8098C1AF86E11DABD1A00112444BE1E'],
  uuid4: ['f47ac10b-58cc-4372-a567-0e02b2c3d479'],
  hostname: ['somewhere.com', 'www.example-hyphenated.com', 'xn--bcher-kva.example', 'localhost'],
  ipv4: ['192.168.254.1', '010.1.1.1'],
  ipv6: ['::1', '2001:db8::68'],
  cidr: ['192.168.254.1/24', '2001:db8::/32'],
  mac: ['01:02:03:04:05:06', '01-02-03-04-05-06', '0102.0304.0506'],
  byte: ['ZWxpemFiZXRocG9zZXk='],
  creditcard: ['4111-1111-1111-1111', '4012888888881881'],
  ssn: ['111-11-1111'],
  hexcolor: ['#FFFFFF', '#fff'],
  rgbcolor: ['rgb(255,255,255)', 'rgb(0, 31, 255)'],
  isbn10: ['0321751043'],
  isbn13: ['978-0321751041'],
  email: ['somebody@somewhere.com', 'Somebody <somebody@somewhere.com>'],
  uri: ['http://somewhere.com', '/path', 'mailto:x@y'],
  bsonobjectid: ['507f1f77bcf86cd799439011'],
};
const invalid: Record<string, string[]> = {
  'date-time': ['2014-12-15 19:30:20', '2014-13-15T19:30:20Z', '2014-12-15T25:30:20Z'],
  date: ['2014-02-30', '20141215'],
  duration: ['foo', ''],
  uuid: ['not-a-uuid'],
  uuid4: ['a8098c1a-f86e-11da-bd1a-00112444be1e'],
  hostname: ['somewhere..com', '-bad.com', 'x'.repeat(64) + '.com'],
  ipv4: ['256.1.1.1', '::1'],
  ipv6: ['192.168.1.1', 'x::'],
  cidr: ['192.168.254.1', '10.0.0.0/33'],
  mac: ['01:02:03:04:05'],
  byte: ['not base64!'],
  creditcard: ['4111-1111-1111-1112'],
  ssn: ['11-111-1111'],
  hexcolor: ['#FFFFFFF'],
  rgbcolor: ['rgb(256,0,0)'],
  isbn10: ['0321751044'],
  email: ['somebody'],
  uri: ['relative/path', 'http://a b'],
};

describe('formats (kube-openapi strfmt as apiextensions keeps them)', () => {
  it('knows the kept formats only', () => {
    assert.equal(isKnownFormat('date-time'), true);
    assert.equal(isKnownFormat('datetime'), true);
    assert.equal(isKnownFormat('int32'), false);
    assert.equal(isKnownFormat('quantity'), false);
  });
  for (const [format, samples] of Object.entries(valid)) {
    it(`accepts ${format}`, () => {
      for (const s of samples) assert.equal(validatesFormat(format, s), true, s);
    });
  }
  for (const [format, samples] of Object.entries(invalid)) {
    it(`refuses bad ${format}`, () => {
      for (const s of samples) assert.equal(validatesFormat(format, s), false, s);
    });
  }
});
