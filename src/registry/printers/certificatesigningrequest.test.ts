import assert from 'node:assert/strict';
import { test } from 'node:test';
import { certificateSigningRequestTable, csrCondition } from './certificatesigningrequest.js';

const now = new Date('2024-05-01T12:00:00Z');

test('certificateSigningRequestTable: columns and cells as v1.27', () => {
  assert.deepEqual(
    certificateSigningRequestTable.columns.map((c) => [c.name, c.type, c.priority]),
    [
      ['Name', 'string', 0],
      ['Age', 'string', 0],
      ['SignerName', 'string', 0],
      ['Requestor', 'string', 0],
      ['RequestedDuration', 'string', 0],
      ['Condition', 'string', 0],
    ],
  );
  const csr = {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name: 'c', creationTimestamp: '2024-05-01T11:59:00Z' },
    spec: { signerName: 'kubernetes.io/kube-apiserver-client', username: 'alice', expirationSeconds: 86400 },
  };
  assert.deepEqual(certificateSigningRequestTable.cells(csr, now), [
    'c',
    '60s',
    'kubernetes.io/kube-apiserver-client',
    'alice',
    '24h',
    'Pending',
  ]);
  assert.deepEqual(certificateSigningRequestTable.cells({ ...csr, spec: {} }, now).slice(2, 5), [
    '<none>',
    '',
    '<none>',
  ]);
});

test('csrCondition: Denied over Approved, then Failed and Issued', () => {
  const withConds = (types: string[], certificate?: string) => ({
    status: {
      conditions: types.map((type) => ({ type, status: 'True' })),
      ...(certificate ? { certificate } : {}),
    },
  });
  assert.equal(csrCondition({}), 'Pending');
  assert.equal(csrCondition(withConds(['Approved'], 'Y2VydA==')), 'Approved,Issued');
  assert.equal(csrCondition(withConds(['Approved', 'Denied'])), 'Denied');
  assert.equal(csrCondition(withConds(['Failed', 'Approved'], 'eA==')), 'Approved,Failed,Issued');
});
