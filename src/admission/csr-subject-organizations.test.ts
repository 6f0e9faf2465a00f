import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeCsr } from '../apis/certificates/testdata/fixtures.js';
import { csrSubjectOrganizations } from './csr-subject-organizations.js';

test('collects every organization of the subject, in order', async () => {
  const pem = await makeCsr('u, O=system:masters, O=dev');
  assert.deepEqual(csrSubjectOrganizations(Buffer.from(pem)), {
    ok: true,
    organizations: ['system:masters', 'dev'],
  });
  assert.deepEqual(csrSubjectOrganizations(Buffer.from(await makeCsr('plain', 'rsa'))), {
    ok: true,
    organizations: [],
  });
});

test('a non-request PEM or broken DER is an error', () => {
  assert.deepEqual(csrSubjectOrganizations(Buffer.from('junk')), {
    ok: false,
    error: 'PEM block type must be CERTIFICATE REQUEST',
  });
  const broken = '-----BEGIN CERTIFICATE REQUEST-----\nMAA=\n-----END CERTIFICATE REQUEST-----\n';
  const r = csrSubjectOrganizations(Buffer.from(broken));
  assert.equal(r.ok, false);
});
