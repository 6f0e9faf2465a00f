import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TlsOptionError, tlsCipherSuites, tlsMinVersion, tlsServingOptions } from './tls-options.js';

test('versions: upstream names to node:tls protocols, TLS 1.2 by default', () => {
  assert.equal(tlsMinVersion(''), 'TLSv1.2');
  assert.equal(tlsMinVersion('VersionTLS10'), 'TLSv1');
  assert.equal(tlsMinVersion('VersionTLS11'), 'TLSv1.1');
  assert.equal(tlsMinVersion('VersionTLS13'), 'TLSv1.3');
  assert.throws(
    () => tlsMinVersion('VersionSSL30'),
    new TlsOptionError('unknown tls version "VersionSSL30"'),
  );
});

test("suites: Go's names to OpenSSL's, TLS 1.3's always on, insecure ones named for the warning", () => {
  const s = tlsCipherSuites([
    'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384',
    'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305',
    'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256',
    'TLS_CHACHA20_POLY1305_SHA256',
    'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256',
  ]);
  assert.equal(
    s.openssl,
    'TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-CHACHA20-POLY1305:ECDHE-RSA-AES128-SHA256',
  );
  assert.deepEqual(s.insecure, ['TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256']);
  assert.throws(
    () => tlsCipherSuites(['ECDHE-RSA-AES128-GCM-SHA256']),
    new TlsOptionError("Cipher suite ECDHE-RSA-AES128-GCM-SHA256 not supported or doesn't exist"),
  );
});

test('a minimum below TLS 1.2 lowers OpenSSL security level, as Go serves those versions when asked', () => {
  assert.equal(tlsServingOptions({ minVersion: 'TLSv1.2', ciphers: 'X' }).ciphers, 'X');
  assert.equal(tlsServingOptions({ minVersion: 'TLSv1', ciphers: 'X' }).ciphers, 'X:@SECLEVEL=0');
});
