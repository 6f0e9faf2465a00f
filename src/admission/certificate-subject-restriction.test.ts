import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeCsr } from '../apis/certificates/testdata/fixtures.js';
import type { KubeObject } from '../machinery/object.js';
import { certificateSubjectRestrictionPlugin } from './certificate-subject-restriction.js';
import { attrsOf, runPlugin, statusOf, testDeps } from './testing/fake-admission-deps.js';

const csr = (signerName: string, pem: string): KubeObject => ({
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: { name: 'csr' },
  spec: { signerName, request: Buffer.from(pem).toString('base64'), usages: ['client auth'] },
});

const create = (object: KubeObject, subresource = '') =>
  attrsOf({
    group: 'certificates.k8s.io',
    resource: 'certificatesigningrequests',
    kind: 'CertificateSigningRequest',
    subresource,
    object,
  });

const plugin = certificateSubjectRestrictionPlugin(testDeps());

test('CertificateSubjectRestriction validates creates', () => {
  assert.equal(plugin.name, 'CertificateSubjectRestriction');
  assert.deepEqual([...plugin.operations], ['CREATE']);
});

test('system:masters in a kube-apiserver-client request is refused', async () => {
  const pem = await makeCsr('mallory, O=dev, O=system:masters');
  await assert.rejects(runPlugin(plugin, create(csr('kubernetes.io/kube-apiserver-client', pem))), (err) => {
    assert.deepEqual(statusOf(err), {
      code: 403,
      message:
        'certificatesigningrequests.certificates.k8s.io "csr" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed',
    });
    return true;
  });
});

test('other groups, other signers and subresources are allowed', async () => {
  await runPlugin(plugin, create(csr('kubernetes.io/kube-apiserver-client', await makeCsr('bob, O=dev'))));
  const masters = await makeCsr('mallory, O=system:masters');
  await runPlugin(plugin, create(csr('example.com/client', masters)));
  await runPlugin(plugin, create(csr('kubernetes.io/kube-apiserver-client-kubelet', masters)));
  await runPlugin(plugin, create(csr('kubernetes.io/kube-apiserver-client', masters), 'status'));
});

test('a request that does not parse is refused', async () => {
  await assert.rejects(
    runPlugin(plugin, create(csr('kubernetes.io/kube-apiserver-client', 'junk'))),
    (err) => {
      assert.deepEqual(statusOf(err), {
        code: 403,
        message:
          'certificatesigningrequests.certificates.k8s.io "csr" is forbidden: failed to parse CSR: PEM block type must be CERTIFICATE REQUEST',
      });
      return true;
    },
  );
});
