/**
 * Integration: CSR approving and signing against an in-process server — an approved
 * kube-apiserver-client request is issued by the cluster CA and the certificate authenticates
 * its subject; a kubelet client request from the node itself is auto-approved after a
 * SubjectAccessReview and signed; a request breaking its signer's rules gets the Failed condition.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { webcrypto } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SharedInformerFactory } from '../../src/client/informer-factory.js';
import { RestClient } from '../../src/client/rest-client.js';
import { CsrApprovingController } from '../../src/controllers/certificates/approver.js';
import { CsrSigningController } from '../../src/controllers/certificates/signer.js';
import type { JsonObject } from '../../src/util/json.js';
import { adminClient, startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { waitFor } from '../support/poll.js';

const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

async function csrFor(subject: string): Promise<{ csrPem: string; keyPem: string }> {
  await import('reflect-metadata');
  const x509 = await import('@peculiar/x509');
  x509.cryptoProvider.set(webcrypto as Parameters<typeof x509.cryptoProvider.set>[1]);
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: subject,
    keys,
    signingAlgorithm: alg,
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  return {
    csrPem: csr.toString('pem'),
    keyPem: `-----BEGIN PRIVATE KEY-----\n${pkcs8.match(/.{1,64}/g)!.join('\n')}\n-----END PRIVATE KEY-----\n`,
  };
}

/** Polls `get` until `ok` holds for its value, and returns that value. */
const until = <T>(get: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> =>
  waitFor(what, async () => {
    const v = await get();
    return ok(v) ? v : undefined;
  });

describe('CSR approving and signing', () => {
  let s: TestServer;
  let client: RestClient;
  let informers: SharedInformerFactory;
  const abort = new AbortController();
  let running: Promise<unknown>;
  before(async () => {
    s = await startTestServer({ controllers: false });
    client = adminClient(s);
    informers = new SharedInformerFactory({ client });
    const caKeyPem = readFileSync(join(s.dataDir, 'pki', 'ca.key'), 'utf8');
    running = Promise.all([
      new CsrSigningController({ client, informers, caCertPem: s.pki.caCert, caKeyPem }).run(abort.signal),
      new CsrApprovingController({ client, informers }).run(abort.signal),
    ]);
    informers.start(abort.signal);
  });
  after(async () => {
    abort.abort();
    await running;
    await informers.stopped();
    client.close();
    await s.stop();
  });

  const get = (name: string): Promise<JsonObject> =>
    client.request('GET', `/apis/certificates.k8s.io/v1/certificatesigningrequests/${name}`);

  it('an approved kube-apiserver-client request is signed and its certificate authenticates', async () => {
    const { csrPem, keyPem } = await csrFor('CN=alice, O=dev');
    const created = await client.request('POST', '/apis/certificates.k8s.io/v1/certificatesigningrequests', {
      body: {
        apiVersion: 'certificates.k8s.io/v1',
        kind: 'CertificateSigningRequest',
        metadata: { name: 'alice' },
        spec: {
          request: Buffer.from(csrPem).toString('base64'),
          signerName: 'kubernetes.io/kube-apiserver-client',
          usages: ['client auth'],
          expirationSeconds: 3600,
        },
      },
    });
    // kubectl certificate approve: the Approved condition through /approval.
    const status = (created['status'] ?? {}) as JsonObject;
    await client.request('PUT', '/apis/certificates.k8s.io/v1/certificatesigningrequests/alice/approval', {
      body: {
        ...created,
        status: {
          ...status,
          conditions: [{ type: 'Approved', status: 'True', reason: 'KubectlApprove', message: 'ok' }],
        },
      },
    });
    const signed = await until(
      () => get('alice'),
      (c) => typeof (c['status'] as JsonObject)['certificate'] === 'string',
      'the certificate',
    );
    const certPem = Buffer.from((signed['status'] as JsonObject)['certificate'] as string, 'base64').toString(
      'utf8',
    );
    const x509 = await import('@peculiar/x509');
    const cert = new x509.X509Certificate(certPem);
    assert.equal(cert.subject, 'CN=alice, O=dev');
    assert.ok(cert.notAfter.getTime() - cert.notBefore.getTime() <= 3600_000 + 5 * 60_000 + 1000);
    const alice = new RestClient({
      server: `https://127.0.0.1:${s.port}`,
      ca: s.pki.caCert,
      cert: certPem,
      key: keyPem,
    });
    try {
      const review = await alice.request('POST', '/apis/authentication.k8s.io/v1beta1/selfsubjectreviews', {
        body: { apiVersion: 'authentication.k8s.io/v1beta1', kind: 'SelfSubjectReview' },
      });
      const user = ((review['status'] as JsonObject)['userInfo'] ?? {}) as JsonObject;
      assert.equal(user['username'], 'alice');
      assert.deepEqual(user['groups'], ['dev', 'system:authenticated']);
    } finally {
      alice.close();
    }
  });

  it('a node client request is auto-approved after a SubjectAccessReview and signed', async () => {
    const { csrPem } = await csrFor('CN=system:node:n1, O=system:nodes');
    await client.request('POST', '/apis/certificates.k8s.io/v1/certificatesigningrequests', {
      body: {
        apiVersion: 'certificates.k8s.io/v1',
        kind: 'CertificateSigningRequest',
        metadata: { name: 'node-n1' },
        spec: {
          request: Buffer.from(csrPem).toString('base64'),
          signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
          usages: ['digital signature', 'client auth'],
        },
      },
    });
    const done = await until(
      () => get('node-n1'),
      (c) => typeof (c['status'] as JsonObject)['certificate'] === 'string',
      'approval and signing',
    );
    const approved = ((done['status'] as JsonObject)['conditions'] as JsonObject[]).find(
      (c) => c['type'] === 'Approved',
    )!;
    assert.equal(approved['reason'], 'AutoApproved');
    assert.equal(approved['message'], 'Auto approving kubelet client certificate after SubjectAccessReview.');
  });

  it('a request breaking its signer rules fails with SignerValidationFailure', async () => {
    const { csrPem } = await csrFor('CN=not-a-node');
    const created = await client.request('POST', '/apis/certificates.k8s.io/v1/certificatesigningrequests', {
      body: {
        apiVersion: 'certificates.k8s.io/v1',
        kind: 'CertificateSigningRequest',
        metadata: { name: 'bad-serving' },
        spec: {
          request: Buffer.from(csrPem).toString('base64'),
          signerName: 'kubernetes.io/kubelet-serving',
          usages: ['digital signature', 'server auth'],
        },
      },
    });
    await client.request(
      'PUT',
      '/apis/certificates.k8s.io/v1/certificatesigningrequests/bad-serving/approval',
      {
        body: {
          ...created,
          status: { conditions: [{ type: 'Approved', status: 'True', reason: 'R', message: 'm' }] },
        },
      },
    );
    const failed = await until(
      () => get('bad-serving'),
      (c) =>
        ((c['status'] as JsonObject)['conditions'] as JsonObject[] | undefined)?.some(
          (x) => x['type'] === 'Failed',
        ) === true,
      'the Failed condition',
    );
    const cond = ((failed['status'] as JsonObject)['conditions'] as JsonObject[]).find(
      (c) => c['type'] === 'Failed',
    )!;
    assert.equal(cond['reason'], 'SignerValidationFailure');
    assert.equal((failed['status'] as JsonObject)['certificate'], undefined);
  });
});
