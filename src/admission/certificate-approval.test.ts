import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../machinery/object.js';
import { certificateApprovalPlugin } from './certificate-approval.js';
import { attrsOf, runPlugin, statusOf, testDeps, testUser } from './testing/fake-admission-deps.js';
import type { AdmissionAuthorizationRequest } from './dependencies.js';

const csr = (signerName: string, conditions?: unknown[]): KubeObject =>
  ({
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name: 'csr' },
    spec: { signerName, request: 'eA==', usages: ['client auth'] },
    ...(conditions ? { status: { conditions } } : {}),
  }) as KubeObject;
const approved = [{ type: 'Approved', status: 'True', reason: 'r' }];

const approval = (oldObject: KubeObject, object: KubeObject, subresource = 'approval') =>
  attrsOf({
    operation: 'UPDATE',
    group: 'certificates.k8s.io',
    resource: 'certificatesigningrequests',
    kind: 'CertificateSigningRequest',
    subresource,
    oldObject,
    object,
    user: testUser('approver'),
  });

const grants =
  (...names: string[]) =>
  (r: AdmissionAuthorizationRequest): boolean =>
    r.verb === 'approve' && names.includes(r.name);

test('CertificateApproval validates updates', () => {
  const p = certificateApprovalPlugin(testDeps());
  assert.equal(p.name, 'CertificateApproval');
  assert.deepEqual([...p.operations], ['UPDATE']);
});

test('approve on the signer, or on its domain wildcard, allows approval', async () => {
  const exact = testDeps({ allow: grants('example.com/foo') });
  await runPlugin(
    certificateApprovalPlugin(exact),
    approval(csr('example.com/foo'), csr('example.com/foo', approved)),
  );
  assert.deepEqual(exact.asked, [
    {
      user: testUser('approver'),
      verb: 'approve',
      apiGroup: 'certificates.k8s.io',
      resource: 'signers',
      name: 'example.com/foo',
    },
  ]);
  const wildcard = testDeps({ allow: grants('example.com/*') });
  await runPlugin(
    certificateApprovalPlugin(wildcard),
    approval(csr('example.com/foo'), csr('example.com/foo', approved)),
  );
  assert.deepEqual(
    wildcard.asked.map((r) => r.name),
    ['example.com/foo', 'example.com/*'],
  );
});

test('without approve the write is refused, judged by the stored signerName', async () => {
  const deps = testDeps({ allow: grants('example.com/other', 'example.com/*') });
  await assert.rejects(
    runPlugin(
      certificateApprovalPlugin(deps),
      approval(csr('kubernetes.io/kubelet-serving'), csr('example.com/other')),
    ),
    (err) => {
      assert.deepEqual(statusOf(err), {
        code: 403,
        message:
          'certificatesigningrequests.certificates.k8s.io "csr" is forbidden: user not permitted to approve requests with signerName "kubernetes.io/kubelet-serving"',
      });
      return true;
    },
  );
});

test('upstream asks even when the conditions do not change', async () => {
  const deps = testDeps();
  await assert.rejects(
    runPlugin(
      certificateApprovalPlugin(deps),
      approval(csr('example.com/foo', approved), csr('example.com/foo', approved)),
    ),
  );
});

test('other subresources and resources are not this plugin’s business', async () => {
  const deps = testDeps();
  const plugin = certificateApprovalPlugin(deps);
  await runPlugin(plugin, approval(csr('example.com/foo'), csr('example.com/foo', approved), 'status'));
  await runPlugin(plugin, approval(csr('example.com/foo'), csr('example.com/foo', approved), ''));
  assert.equal(deps.asked.length, 0);
});
