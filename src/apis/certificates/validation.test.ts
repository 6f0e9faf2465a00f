import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { FieldPath } from '../../machinery/field/errors.js';
import type { KubeObject } from '../../machinery/object.js';
import { decodeAllPem, decodePem } from './pem.js';
import { clusterTrustBundleNameFunc, validateSignerName } from './signername.js';
import { b64, corruptSignature, makeCert, makeCsr } from './testdata/fixtures.js';
import {
  allValidUsages,
  certificateDataError,
  csrRequestError,
  goBytes,
  validateCertificateSigningRequestApprovalUpdate,
  validateCertificateSigningRequestCreate,
  validateCertificateSigningRequestStatusUpdate,
  validateCertificateSigningRequestUpdate,
} from './v1/validation.js';
import {
  maxTrustBundleSize,
  validateClusterTrustBundle,
  validateClusterTrustBundleUpdate,
  validateTrustBundle,
} from './v1alpha1/validation.js';

const msgs = (errs: readonly { toString(): string }[]): string[] => errs.map(String);

describe('PEM decoding as Go encoding/pem', () => {
  test('skips leading text, reads headers, needs a matching END line and strict base64', () => {
    const body = 'AQID';
    const r = decodePem(`junk\n-----BEGIN X-----\n${body}\n-----END X-----\ntail`);
    assert.equal(r?.block.type, 'X');
    assert.deepEqual([...(r?.block.bytes ?? [])], [1, 2, 3]);
    assert.equal(r?.rest, 'tail');
    const h = decodePem('-----BEGIN X-----\nProc-Type: 4,ENCRYPTED\n\nAQID\n-----END X-----\n');
    assert.deepEqual(h?.block.headers, [['Proc-Type', '4,ENCRYPTED']]);
    assert.equal(decodePem('-----BEGIN X-----\nAQID\n-----END Y-----\n'), undefined);
    assert.equal(decodePem('-----BEGIN X-----\nAQI\n-----END X-----\n'), undefined, 'unpadded base64');
    // A malformed block is skipped for the next one.
    const two = decodeAllPem(
      '-----BEGIN A-----\n!!\n-----END A-----\n-----BEGIN B-----\nAQID\n-----END B-----\n',
    );
    assert.deepEqual(
      two.map((b) => b.type),
      ['B'],
    );
    assert.equal(decodePem('-----BEGIN X-----\r\nAQID\r\n-----END X-----\r\n')?.block.type, 'X');
  });
});

describe('signer names', () => {
  const p = FieldPath.root('spec', 'signerName');
  test('upstream messages', () => {
    assert.deepEqual(validateSignerName(p, 'example.com/my-signer'), []);
    assert.deepEqual(validateSignerName(p, 'example.com/ns.name'), []);
    assert.deepEqual(msgs(validateSignerName(p, '')), ['spec.signerName: Required value']);
    assert.deepEqual(msgs(validateSignerName(p, 'example.com')), [
      `spec.signerName: Invalid value: "example.com": must be a fully qualified domain and path of the form 'example.com/signer-name'`,
    ]);
    assert.deepEqual(msgs(validateSignerName(p, 'example/signer')), [
      'spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots',
    ]);
    assert.deepEqual(msgs(validateSignerName(p, 'Example.com/x')), [
      `spec.signerName: Invalid value: "Example.com": validating label "Example": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    ]);
    assert.deepEqual(msgs(validateSignerName(p, 'example.com/A_b')), [
      `spec.signerName: Invalid value: "A_b": validating label "A_b": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ]);
  });
  test('ClusterTrustBundle names', () => {
    assert.deepEqual(clusterTrustBundleNameFunc('')('plain', false), []);
    assert.deepEqual(clusterTrustBundleNameFunc('')('a:b', false), [
      'ClusterTrustBundle without signer name must not have ":" in its name',
    ]);
    assert.deepEqual(clusterTrustBundleNameFunc('example.com/s')('example.com:s:one', false), []);
    assert.deepEqual(clusterTrustBundleNameFunc('example.com/s')('one', false), [
      'ClusterTrustBundle for signerName example.com/s must be named with prefix example.com:s:',
    ]);
  });
});

describe('CertificateSigningRequest validation', () => {
  let request: string;
  let ca: string;
  let leaf: string;
  before(async () => {
    request = await makeCsr('alice');
    ca = await makeCert('ca', true);
    leaf = await makeCert('leaf', false);
  });
  const csr = (spec: Record<string, unknown>, status: Record<string, unknown> = {}): KubeObject =>
    ({
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name: 'c' },
      spec: { request: b64(request), signerName: 'example.com/s', usages: ['client auth'], ...spec },
      status,
    }) as KubeObject;

  test('the request must be a signed PEM CERTIFICATE REQUEST', async () => {
    assert.equal(csrRequestError(Buffer.from(request)), undefined);
    assert.equal(csrRequestError(Buffer.from(await makeCsr('r', 'rsa'))), undefined);
    assert.equal(csrRequestError(Buffer.from(await makeCsr('e', 'ed25519'))), undefined);
    assert.equal(csrRequestError(Buffer.from(corruptSignature(request))), 'x509: ECDSA verification failure');
    assert.equal(csrRequestError(Buffer.from(ca)), 'PEM block type must be CERTIFICATE REQUEST');
    assert.equal(csrRequestError(undefined), 'PEM block type must be CERTIFICATE REQUEST');
    assert.deepEqual(validateCertificateSigningRequestCreate(csr({})), []);
    assert.deepEqual(msgs(validateCertificateSigningRequestCreate(csr({ request: b64('hi') }))), [
      'spec.request: Invalid value: []byte{0x68, 0x69}: PEM block type must be CERTIFICATE REQUEST',
    ]);
    assert.equal(goBytes(undefined), '[]byte(nil)');
    assert.equal(goBytes(Buffer.alloc(0)), '[]byte{}');
    assert.equal(goBytes(Buffer.from([10, 255])), '[]byte{0xa, 0xff}');
  });

  test('usages, signer name and expirationSeconds', () => {
    assert.equal(allValidUsages[0], 'any');
    assert.deepEqual(
      msgs(
        validateCertificateSigningRequestCreate(
          csr({
            usages: ['client auth', 'bogus', 'client auth'],
            signerName: 'kubernetes.io/legacy-unknown',
            expirationSeconds: 599,
          }),
        ),
      ),
      [
        `spec.usages[1]: Unsupported value: "bogus": supported values: ${allValidUsages.map((u) => JSON.stringify(u)).join(', ')}`,
        'spec.usages[2]: Duplicate value: "client auth"',
        'spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version',
        'spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)',
      ],
    );
    assert.deepEqual(msgs(validateCertificateSigningRequestCreate(csr({ usages: [], signerName: '' }))), [
      'spec.usages: Required value',
      'spec.signerName: Required value',
    ]);
    assert.deepEqual(validateCertificateSigningRequestCreate(csr({ expirationSeconds: 600 })), []);
  });

  test('conditions and certificate', () => {
    const conds = [
      { type: 'Approved', status: 'False' },
      { type: 'Denied', status: 'True' },
      { type: 'Custom', status: 'Maybe' },
      { type: '', status: '' },
      { type: 'Custom', status: 'True' },
    ];
    assert.deepEqual(msgs(validateCertificateSigningRequestCreate(csr({}, { conditions: conds }))), [
      'status.conditions[0].status: Unsupported value: "False": supported values: "True"',
      'status.conditions[1].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive',
      'status.conditions[2].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
      'status.conditions[3].type: Required value',
      'status.conditions[3].status: Required value',
      'status.conditions[4].type: Duplicate value: "Custom"',
    ]);
    assert.deepEqual(validateCertificateSigningRequestCreate(csr({}, { certificate: b64(ca + leaf) })), []);
    assert.deepEqual(msgs(validateCertificateSigningRequestCreate(csr({}, { certificate: b64('x') }))), [
      'status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block',
    ]);
    assert.equal(
      certificateDataError(Buffer.from(request)),
      'only CERTIFICATE PEM blocks are allowed, found "CERTIFICATE REQUEST"',
    );
    assert.equal(
      certificateDataError(Buffer.from('-----BEGIN CERTIFICATE-----\nAQID\n-----END CERTIFICATE-----\n')),
      'x509: malformed certificate',
    );
  });

  test('updates: which path may change what', () => {
    const old = csr({});
    const approved = csr({}, { conditions: [{ type: 'Approved', status: 'True' }] });
    assert.deepEqual(msgs(validateCertificateSigningRequestStatusUpdate(approved, old)), [
      'status.conditions: Forbidden: updates may not add a condition of type "Approved"',
    ]);
    assert.deepEqual(validateCertificateSigningRequestApprovalUpdate(approved, old), []);
    assert.deepEqual(msgs(validateCertificateSigningRequestApprovalUpdate(old, approved)), [
      'status.conditions: Forbidden: updates may not remove a condition of type "Approved"',
    ]);
    const issued = csr({}, { certificate: b64(ca) });
    assert.deepEqual(validateCertificateSigningRequestStatusUpdate(issued, old), []);
    assert.deepEqual(msgs(validateCertificateSigningRequestApprovalUpdate(issued, old)), [
      'status.certificate: Forbidden: updates may not set certificate content',
    ]);
    assert.deepEqual(
      msgs(validateCertificateSigningRequestStatusUpdate(csr({}, { certificate: b64(leaf) }), issued)),
      ['status.certificate: Forbidden: updates may not modify existing certificate content'],
    );
    // Problems already stored are tolerated.
    const legacy = csr({ signerName: 'kubernetes.io/legacy-unknown', usages: ['bogus', 'bogus'] });
    assert.deepEqual(validateCertificateSigningRequestUpdate(legacy, legacy), []);
  });
});

describe('ClusterTrustBundle validation', () => {
  let ca: string;
  let ca2: string;
  let leaf: string;
  let noConstraints: string;
  before(async () => {
    ca = await makeCert('ca', true);
    ca2 = await makeCert('ca2', true);
    leaf = await makeCert('leaf', false);
    noConstraints = await makeCert('plain', undefined);
  });
  const bundle = (name: string, spec: Record<string, unknown>): KubeObject =>
    ({
      apiVersion: 'certificates.k8s.io/v1alpha1',
      kind: 'ClusterTrustBundle',
      metadata: { name },
      spec,
    }) as KubeObject;
  const p = FieldPath.root('spec', 'trustBundle');

  test('trust anchors: CA certificates only, no duplicates, at least one', () => {
    assert.deepEqual(validateTrustBundle(p, ca + ca2), []);
    assert.deepEqual(msgs(validateTrustBundle(p, '')), [
      'spec.trustBundle: Invalid value: "<value omitted>": at least one trust anchor must be provided',
    ]);
    assert.deepEqual(msgs(validateTrustBundle(p, ca + leaf + noConstraints)), [
      'spec.trustBundle: Invalid value: "<value omitted>": entry 1 does not have the CA bit set',
      'spec.trustBundle: Invalid value: "<value omitted>": entry 2 does not have the CA bit set',
    ]);
    assert.deepEqual(msgs(validateTrustBundle(p, ca + ca2 + ca)), [
      'spec.trustBundle: Invalid value: "<value omitted>": duplicate trust anchor (indices [0 2])',
    ]);
    assert.deepEqual(
      msgs(validateTrustBundle(p, `${ca}-----BEGIN PRIVATE KEY-----\nAQID\n-----END PRIVATE KEY-----\n`)),
      ['spec.trustBundle: Invalid value: "<value omitted>": entry 1 has bad block type: PRIVATE KEY'],
    );
    assert.deepEqual(
      msgs(validateTrustBundle(p, '-----BEGIN CERTIFICATE-----\nAQID\n-----END CERTIFICATE-----\n')),
      ['spec.trustBundle: Invalid value: "<value omitted>": entry 0 does not parse as X.509'],
    );
    assert.deepEqual(msgs(validateTrustBundle(p, 'x'.repeat(maxTrustBundleSize + 1))), [
      'spec.trustBundle: Too long: must have at most 1048576 bytes',
    ]);
  });

  test('names follow the signer; the signer is immutable; unchanged bundles are not parsed', () => {
    assert.deepEqual(
      validateClusterTrustBundle(bundle('example.com:s:a', { signerName: 'example.com/s', trustBundle: ca })),
      [],
    );
    assert.deepEqual(
      msgs(validateClusterTrustBundle(bundle('a', { signerName: 'example.com/s', trustBundle: ca }))),
      [
        'metadata.name: Invalid value: "a": ClusterTrustBundle for signerName example.com/s must be named with prefix example.com:s:',
      ],
    );
    assert.deepEqual(msgs(validateClusterTrustBundle(bundle('a:b', { trustBundle: ca }))), [
      'metadata.name: Invalid value: "a:b": ClusterTrustBundle without signer name must not have ":" in its name',
    ]);
    const old = bundle('example.com:s:a', { signerName: 'example.com/s', trustBundle: 'stored garbage' });
    assert.deepEqual(validateClusterTrustBundleUpdate(old, old), []);
    assert.deepEqual(
      msgs(
        validateClusterTrustBundleUpdate(
          bundle('example.com:s:a', { signerName: 'example.com/t', trustBundle: 'stored garbage' }),
          old,
        ),
      ),
      [
        'metadata.name: Invalid value: "example.com:s:a": ClusterTrustBundle for signerName example.com/t must be named with prefix example.com:t:',
        'spec.signerName: Invalid value: "example.com/t": field is immutable',
      ],
    );
  });
});
