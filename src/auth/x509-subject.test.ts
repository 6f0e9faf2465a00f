/** Client-certificate subjects read from DER as Go's pkix.Name does. */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { test } from 'node:test';
import * as x509 from '@peculiar/x509';
import { certificateSubject } from './x509-subject.js';

x509.cryptoProvider.set(webcrypto as Parameters<typeof x509.cryptoProvider.set>[1]);
const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

async function der(name: x509.JsonName): Promise<Uint8Array> {
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name,
    notBefore: new Date(),
    notAfter: new Date(Date.now() + 86_400_000),
    signingAlgorithm: algorithm,
    keys,
  });
  return new Uint8Array(cert.rawData);
}

test('the last CN names the user; every O is a group, whatever RDN holds it', async () => {
  assert.deepEqual(certificateSubject(await der([{ CN: ['alice'] }, { O: ['dev'] }, { O: ['qa'] }])), {
    commonName: 'alice',
    organizations: ['dev', 'qa'],
  });
  assert.deepEqual(certificateSubject(await der([{ CN: ['alice'] }, { CN: ['admin'] }])), {
    commonName: 'admin',
    organizations: [],
  });
  assert.deepEqual(certificateSubject(await der([{ CN: ['alice'], O: ['system:masters'] }])), {
    commonName: 'alice',
    organizations: ['system:masters'],
  });
  // A value is one value: nothing in it is parsed as another attribute.
  assert.deepEqual(certificateSubject(await der([{ CN: ['jürgen'] }, { O: ['dev, O=system:masters'] }])), {
    commonName: 'jürgen',
    organizations: ['dev, O=system:masters'],
  });
  assert.deepEqual(certificateSubject(await der([{ O: ['system:masters'] }])), {
    commonName: '',
    organizations: ['system:masters'],
  });
});

test('bytes that are no certificate name nobody', () => {
  assert.equal(certificateSubject(new Uint8Array([0x30, 0x82, 0xff])), undefined);
  assert.equal(certificateSubject(new Uint8Array([0x04, 0x00])), undefined);
  assert.equal(certificateSubject(new Uint8Array()), undefined);
});
