/**
 * Integration: the certificate plugins of the admission chain on an in-process server
 * over SQLite, with a non-admin user (a client certificate from the server's CA) whose RBAC roles
 * grant — or not — `approve`, `sign` and `attest` on certificates.k8s.io `signers`:
 * CertificateApproval, CertificateSigning, CertificateSubjectRestriction and (with the
 * ClusterTrustBundle gate and certificates.k8s.io/v1alpha1 on) ClusterTrustBundleAttest.
 * The admin, in system:masters, is allowed everything.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { webcrypto } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { makeCert } from '../../src/apis/certificates/testdata/fixtures.js';
import type { JsonObject } from '../../src/util/json.js';
import { clientCert } from '../support/certs.js';
import type { CertAndKey } from '../support/certs.js';
import { bind, createRole, user, waitForAccess } from '../support/rbac.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const csrs = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
const bundles = '/apis/certificates.k8s.io/v1alpha1/clustertrustbundles';
const ecdsa = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** A PEM certificate request for `subject` (e.g. `CN=alice, O=dev`). */
async function certificateRequest(subject: string): Promise<string> {
  await import('reflect-metadata');
  const x509 = await import('@peculiar/x509');
  x509.cryptoProvider.set(webcrypto as Parameters<typeof x509.cryptoProvider.set>[1]);
  const keys = await webcrypto.subtle.generateKey(ecdsa, true, ['sign', 'verify']);
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: subject,
    keys,
    signingAlgorithm: ecdsa,
  });
  return csr.toString('pem');
}

const csr = (name: string, signerName: string, request: string): JsonObject => ({
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: { name },
  spec: {
    request: Buffer.from(request).toString('base64'),
    signerName,
    usages: ['digital signature', 'client auth'],
  },
});

const forbidden = (resource: string, name: string, message: string): JsonObject => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: `${resource}.certificates.k8s.io "${name}" is forbidden: ${message}`,
  reason: 'Forbidden',
  details: { name, group: 'certificates.k8s.io', kind: resource },
  code: 403,
});

type Csr = JsonObject & { status?: { conditions?: JsonObject[]; certificate?: string } };

describe('certificate admission plugins', () => {
  let s: TestServer;
  let alice: CertAndKey;
  let request: string;
  before(async () => {
    s = await startTestServer({
      controllers: false,
      nodes: 0,
      featureGates: { ClusterTrustBundle: true },
      runtimeConfig: 'certificates.k8s.io/v1alpha1=true',
      admission: { disable: ['ServiceAccount'] },
    });
    const pki = join(s.dataDir, 'pki');
    alice = await clientCert(
      { cert: readFileSync(join(pki, 'ca.crt'), 'utf8'), key: readFileSync(join(pki, 'ca.key'), 'utf8') },
      'CN=alice, O=dev',
    );
    request = await certificateRequest('CN=alice, O=dev');
    // alice may write requests, their approval and status, and trust bundles — but holds no
    // `approve`, `sign` or `attest` on any signer yet.
    await createRole(s, {
      name: 'csr-writer',
      rules: [
        {
          verbs: ['create', 'get', 'list', 'update'],
          apiGroups: ['certificates.k8s.io'],
          resources: [
            'certificatesigningrequests',
            'certificatesigningrequests/approval',
            'certificatesigningrequests/status',
            'clustertrustbundles',
          ],
        },
      ],
    });
    await bind(s, {
      name: 'csr-writer',
      role: { kind: 'ClusterRole', name: 'csr-writer' },
      subjects: [user('alice')],
    });
    await waitForAccess(s, {
      user: 'alice',
      groups: ['dev', 'system:authenticated'],
      resourceAttributes: {
        group: 'certificates.k8s.io',
        resource: 'certificatesigningrequests',
        subresource: 'approval',
        verb: 'update',
      },
    });
  });
  after(async () => {
    await s.stop();
  });

  /** Grants alice `verb` on the signers named, and waits until the authorizer says so. */
  const grant = async (name: string, verb: string, signers: string[]): Promise<void> => {
    await createRole(s, {
      name,
      rules: [
        { verbs: [verb], apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: signers },
      ],
    });
    await bind(s, { name, role: { kind: 'ClusterRole', name }, subjects: [user('alice')] });
    await waitForAccess(s, {
      user: 'alice',
      groups: ['dev', 'system:authenticated'],
      resourceAttributes: { group: 'certificates.k8s.io', resource: 'signers', verb, name: signers[0]! },
    });
  };

  const get = async (name: string): Promise<Csr> => {
    const r = await s.request('GET', `${csrs}/${name}`);
    assert.equal(r.status, 200, r.text);
    return r.json<Csr>();
  };
  const create = async (body: JsonObject, credentials?: CertAndKey): Promise<void> => {
    const r = await s.request('POST', csrs, { body, ...(credentials !== undefined ? { credentials } : {}) });
    assert.equal(r.status, 201, r.text);
  };
  /** PUTs the request to /approval with an Approved condition added. */
  const approve = async (name: string, credentials?: CertAndKey) => {
    const current = await get(name);
    current.status = {
      ...(current.status ?? {}),
      conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'approved by the test' }],
    };
    return s.request('PUT', `${csrs}/${name}/approval`, {
      body: current,
      ...(credentials !== undefined ? { credentials } : {}),
    });
  };

  describe('CertificateSubjectRestriction', () => {
    it('a kube-apiserver-client request for system:masters is refused, even to the admin', async () => {
      const masters = await certificateRequest('CN=mallory, O=system:masters');
      const r = await s.request('POST', csrs, {
        body: csr('masters', 'kubernetes.io/kube-apiserver-client', masters),
      });
      assert.equal(r.status, 403, r.text);
      assert.deepEqual(
        r.json(),
        forbidden(
          'certificatesigningrequests',
          'masters',
          'use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed',
        ),
      );
      assert.equal((await s.request('GET', `${csrs}/masters`)).status, 404);
      // Other organizations, and other signers, are fine.
      await create(csr('dev-client', 'kubernetes.io/kube-apiserver-client', request));
      await create(csr('masters-elsewhere', 'example.com/signer', masters));
    });
  });

  describe('CertificateApproval', () => {
    it('approving needs `approve` on the signer (or its domain wildcard)', async () => {
      await create(csr('alice-1', 'example.com/signer', request), alice);
      const refused = await approve('alice-1', alice);
      assert.equal(refused.status, 403, refused.text);
      assert.deepEqual(
        refused.json(),
        forbidden(
          'certificatesigningrequests',
          'alice-1',
          'user not permitted to approve requests with signerName "example.com/signer"',
        ),
      );
      assert.equal((await get('alice-1')).status?.conditions, undefined);

      await grant('approve-example', 'approve', ['example.com/signer']);
      const approved = await approve('alice-1', alice);
      assert.equal(approved.status, 200, approved.text);
      const conditions = (await get('alice-1')).status?.conditions ?? [];
      assert.deepEqual(
        conditions.map((c) => [c['type'], c['status']]),
        [['Approved', 'True']],
      );

      // The grant names one signer: another of the same domain is still refused...
      await create(csr('alice-2', 'example.com/other', request), alice);
      const other = await approve('alice-2', alice);
      assert.equal(other.status, 403, other.text);
      assert.equal(
        other.json().message,
        'certificatesigningrequests.certificates.k8s.io "alice-2" is forbidden: user not permitted to approve requests with signerName "example.com/other"',
      );
      // ...until `<domain>/*` is granted.
      await grant('approve-example-all', 'approve', ['example.com/*']);
      const wildcard = await approve('alice-2', alice);
      assert.equal(wildcard.status, 200, wildcard.text);
    });

    it('the admin (system:masters) approves any signer', async () => {
      await create(csr('admin-1', 'example.net/signer', request));
      const r = await approve('admin-1');
      assert.equal(r.status, 200, r.text);
    });
  });

  describe('CertificateSigning', () => {
    it('setting the certificate needs `sign` on the signer; a status write changing nothing does not', async () => {
      const certificate = Buffer.from(await makeCert('alice', undefined)).toString('base64');
      const approved = await get('alice-1');
      // Neither the certificate nor the conditions change: not a signing.
      const unchanged = await s.request('PUT', `${csrs}/alice-1/status`, {
        body: approved,
        credentials: alice,
      });
      assert.equal(unchanged.status, 200, unchanged.text);

      const current = await get('alice-1');
      const signed = { ...current, status: { ...(current.status ?? {}), certificate } };
      const refused = await s.request('PUT', `${csrs}/alice-1/status`, { body: signed, credentials: alice });
      assert.equal(refused.status, 403, refused.text);
      assert.deepEqual(
        refused.json(),
        forbidden(
          'certificatesigningrequests',
          'alice-1',
          'user not permitted to sign requests with signerName "example.com/signer"',
        ),
      );
      assert.equal((await get('alice-1')).status?.certificate, undefined);

      await grant('sign-example', 'sign', ['example.com/*']);
      const ok = await s.request('PUT', `${csrs}/alice-1/status`, {
        body: { ...signed, metadata: (await get('alice-1'))['metadata'] },
        credentials: alice,
      });
      assert.equal(ok.status, 200, ok.text);
      assert.equal((await get('alice-1')).status?.certificate, certificate);
    });

    it('the admin signs for any signer', async () => {
      const certificate = Buffer.from(await makeCert('admin', undefined)).toString('base64');
      const approved = await get('admin-1');
      const r = await s.request('PUT', `${csrs}/admin-1/status`, {
        body: { ...approved, status: { ...(approved.status ?? {}), certificate } },
      });
      assert.equal(r.status, 200, r.text);
    });
  });

  describe('ClusterTrustBundleAttest', () => {
    let ca: string;
    before(async () => {
      ca = await makeCert('bundle-ca', true);
    });
    const bundle = (name: string, signerName?: string): JsonObject => ({
      apiVersion: 'certificates.k8s.io/v1alpha1',
      kind: 'ClusterTrustBundle',
      metadata: { name },
      spec: { ...(signerName !== undefined ? { signerName } : {}), trustBundle: ca },
    });

    it('a bundle for a signer needs `attest` on it; one without a signer needs nothing', async () => {
      const refused = await s.request('POST', bundles, {
        body: bundle('example.com:signer:one', 'example.com/signer'),
        credentials: alice,
      });
      assert.equal(refused.status, 403, refused.text);
      assert.deepEqual(
        refused.json(),
        forbidden(
          'clustertrustbundles',
          'example.com:signer:one',
          'user not permitted to attest for signerName "example.com/signer"',
        ),
      );
      const plain = await s.request('POST', bundles, { body: bundle('plain'), credentials: alice });
      assert.equal(plain.status, 201, plain.text);

      await grant('attest-example', 'attest', ['example.com/signer']);
      const ok = await s.request('POST', bundles, {
        body: bundle('example.com:signer:one', 'example.com/signer'),
        credentials: alice,
      });
      assert.equal(ok.status, 201, ok.text);
    });

    it('updates are judged too; the admin attests for any signer', async () => {
      const admin = await s.request('POST', bundles, {
        body: bundle('example.net:signer:b', 'example.net/signer'),
      });
      assert.equal(admin.status, 201, admin.text);
      const stored = admin.json<JsonObject & { metadata: JsonObject }>();
      const update = {
        ...stored,
        metadata: { ...stored.metadata, labels: { owner: 'alice' } },
      };
      const r = await s.request('PUT', `${bundles}/example.net:signer:b`, {
        body: update,
        credentials: alice,
      });
      assert.equal(r.status, 403, r.text);
      assert.equal(
        r.json().message,
        'clustertrustbundles.certificates.k8s.io "example.net:signer:b" is forbidden: user not permitted to attest for signerName "example.net/signer"',
      );
      const byAdmin = await s.request('PUT', `${bundles}/example.net:signer:b`, { body: update });
      assert.equal(byAdmin.status, 200, byAdmin.text);
    });
  });
});
