import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  isCIdentifier,
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidIP,
  isValidLabelValue,
  isValidPathSegmentName,
  isValidPercent,
  isValidPortName,
  isValidPortNum,
  nameIsDNS1035Label,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  validatePathSegmentName,
} from './names.js';

const labelMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const dns1035Msg =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const qnameMsg =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const labelValueMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('DNS names', () => {
  it('RFC 1123 label', () => {
    for (const ok of ['a', '0', 'a-b', 'my-name', '123-abc', 'a'.repeat(63)])
      assert.deepEqual(isDNS1123Label(ok), []);
    assert.deepEqual(isDNS1123Label('My'), [labelMsg]);
    assert.deepEqual(isDNS1123Label(''), [labelMsg]);
    assert.deepEqual(isDNS1123Label('-a'), [labelMsg]);
    assert.deepEqual(isDNS1123Label('a.b'), ['must not contain dots']);
    assert.deepEqual(isDNS1123Label('a'.repeat(64)), ['must be no more than 63 characters']);
  });
  it('RFC 1123 subdomain', () => {
    for (const ok of ['a', 'a.b', 'example.com', '1.2.3.4', 'a'.repeat(253)]) {
      assert.deepEqual(isDNS1123Subdomain(ok), []);
    }
    assert.deepEqual(isDNS1123Subdomain('A'), [subdomainMsg]);
    assert.deepEqual(isDNS1123Subdomain('a..b'), [subdomainMsg]);
    assert.deepEqual(isDNS1123Subdomain('a'.repeat(254)), ['must be no more than 253 characters']);
    assert.deepEqual(isDNS1123Subdomain(`${'a'.repeat(254)}_`), [
      'must be no more than 253 characters',
      subdomainMsg,
    ]);
  });
  it('RFC 1035 label', () => {
    assert.deepEqual(isDNS1035Label('abc-123'), []);
    assert.deepEqual(isDNS1035Label('1abc'), [dns1035Msg]);
  });
});

describe('qualified names and label values', () => {
  it('accepts prefixed and plain names', () => {
    for (const ok of ['simple', 'now-with-dashes', '1-starts-with-num', 'example.com/Name', 'a/b', 'A_b.c']) {
      assert.deepEqual(isQualifiedName(ok), [], ok);
    }
  });
  it('reports each part', () => {
    assert.deepEqual(isQualifiedName('-a'), [qnameMsg]);
    assert.deepEqual(isQualifiedName('/a'), ['prefix part must be non-empty']);
    assert.deepEqual(isQualifiedName('a/'), ['name part must be non-empty', qnameMsg]);
    assert.deepEqual(isQualifiedName('Ex.com/a'), [`prefix part ${subdomainMsg}`]);
    assert.deepEqual(isQualifiedName('a'.repeat(64)), ['name part must be no more than 63 characters']);
    assert.deepEqual(isQualifiedName('a/b/c'), [
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ]);
  });
  it('label values', () => {
    for (const ok of ['', 'a', 'A-b_c.d', '1'.repeat(63)]) assert.deepEqual(isValidLabelValue(ok), []);
    assert.deepEqual(isValidLabelValue('-a'), [labelValueMsg]);
    assert.deepEqual(isValidLabelValue('a b'), [labelValueMsg]);
    assert.deepEqual(isValidLabelValue('a'.repeat(64)), ['must be no more than 63 characters']);
  });
});

describe('other formats', () => {
  it('C identifiers', () => {
    assert.deepEqual(isCIdentifier('_a1'), []);
    assert.deepEqual(isCIdentifier('1a'), [
      "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')",
    ]);
  });
  it('ports', () => {
    assert.deepEqual(isValidPortNum(1), []);
    assert.deepEqual(isValidPortNum(65535), []);
    assert.deepEqual(isValidPortNum(0), ['must be between 1 and 65535, inclusive']);
    assert.deepEqual(isValidPortName('http'), []);
    assert.deepEqual(isValidPortName('a-1'), []);
    assert.deepEqual(isValidPortName('123'), ['must contain at least one letter (a-z)']);
    assert.deepEqual(isValidPortName('a--b'), [
      'must contain consecutive hyphens'.replace('must', 'must not'),
    ]);
    assert.deepEqual(isValidPortName('-ab'), ['must not begin or end with a hyphen']);
    assert.deepEqual(isValidPortName('HTTP'), [
      'must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'must contain at least one letter (a-z)',
    ]);
    assert.deepEqual(isValidPortName('abcdefghijklmnop'), ['must be no more than 15 characters']);
    assert.deepEqual(isValidPortName(''), [
      'must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'must contain at least one letter (a-z)',
    ]);
  });
  it('IP addresses (sloppy IPv4 leading zeros accepted)', () => {
    const bad = ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
    for (const ok of [
      '1.2.3.4',
      '010.001.0.01',
      '0.0.0.0',
      '255.255.255.255',
      '::',
      '::1',
      '2001:db8::ffff',
      '1:2:3:4:5:6:7:8',
      '::ffff:1.2.3.4',
      '1:2:3:4:5:6:1.2.3.4',
      'fe80::',
      '0001:2::',
    ]) {
      assert.deepEqual(isValidIP(ok), [], ok);
    }
    for (const ko of [
      '',
      '1.2.3',
      '1.2.3.4.5',
      '256.1.1.1',
      '1.2.3.4 ',
      'a.b.c.d',
      ':::',
      '1::2::3',
      '1:2:3:4:5:6:7:8:9',
      '1:2:3:4:5:6:7::8:9',
      '1:2:3:4:5:6:7:8::',
      '12345::',
      'fe80::1%eth0',
      '1:2:3:4:5:6:7:1.2.3.4',
      'localhost',
    ]) {
      assert.deepEqual(isValidIP(ko), bad, ko);
    }
  });
  it('percent', () => {
    assert.deepEqual(isValidPercent('25%'), []);
    assert.deepEqual(isValidPercent('25'), [
      "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
    ]);
  });
  it('path segment names', () => {
    assert.deepEqual(isValidPathSegmentName('ok:name'), []);
    assert.deepEqual(isValidPathSegmentName('.'), ["may not be '.'"]);
    assert.deepEqual(isValidPathSegmentName('..'), ["may not be '..'"]);
    assert.deepEqual(isValidPathSegmentName('a/b%c'), ["may not contain '/'", "may not contain '%'"]);
    assert.deepEqual(validatePathSegmentName('..', true), []);
    assert.deepEqual(validatePathSegmentName('a/', true), ["may not contain '/'"]);
  });
});

describe('ValidateNameFunc variants', () => {
  it('allows a trailing dash for generateName only', () => {
    assert.deepEqual(nameIsDNSSubdomain('web-', true), []);
    assert.deepEqual(nameIsDNSSubdomain('web-', false), [subdomainMsg]);
    assert.deepEqual(nameIsDNSLabel('web-', true), []);
    assert.deepEqual(nameIsDNS1035Label('web-', true), []);
    assert.deepEqual(nameIsDNSSubdomain('-', true), [subdomainMsg]);
    // Upstream masks by replacing the last two characters with 'a': "-a-" becomes "-a".
    assert.deepEqual(nameIsDNSSubdomain('-a-', true), [subdomainMsg]);
    assert.deepEqual(nameIsDNSSubdomain('a.-', true), []);
    assert.deepEqual(nameIsDNSSubdomain('Web-', true), [subdomainMsg]);
  });
});
