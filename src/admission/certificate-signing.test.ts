import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../machinery/object.js';
import { certificateSigningPlugin } from './certificate-signing.js';
import { attrsOf, runPlugin, statusOf, testDeps } from './testing/fake-admission-deps.js';

const csr = (signerName: string, status?: Record<string, unknown>): KubeObject =>
  ({
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name: 'csr' },
    spec: { signerName, request: 'eA==', usages: ['client auth'] },
    ...(status ? { status } : {}),
  }) as KubeObject;
const approved = [{ type: 'Approved', status: 'True' }];
const failed = [...approved, { type: 'Failed', status: 'True', reason: 'oops' }];
const cert = Buffer.from('-----BEGIN CERTIFICATE-----\n...').toString('base64');

const statusWrite = (oldObject: KubeObject, object: KubeObject, subresource = 'status') =>
  attrsOf({
    operation: 'UPDATE',
    group: 'certificates.k8s.io',
    resource: 'certificatesigningrequests',
    kind: 'CertificateSigningRequest',
    subresource,
    oldObject,
    object,
  });

const denied =
  'certificatesigningrequests.certificates.k8s.io "csr" is forbidden: user not permitted to sign requests with signerName "example.com/foo"';

test('CertificateSigning validates updates', () => {
  const p = certificateSigningPlugin(testDeps());
  assert.equal(p.name, 'CertificateSigning');
  assert.deepEqual([...p.operations], ['UPDATE']);
});

test('issuing a certificate or setting a condition needs sign (exact or wildcard)', async () => {
  for (const allowed of ['example.com/foo', 'example.com/*']) {
    const deps = testDeps({ allow: (r) => r.verb === 'sign' && r.name === allowed });
    const plugin = certificateSigningPlugin(deps);
    await runPlugin(
      plugin,
      statusWrite(
        csr('example.com/foo', { conditions: approved }),
        csr('example.com/foo', { conditions: approved, certificate: cert }),
      ),
    );
    await runPlugin(
      plugin,
      statusWrite(
        csr('example.com/foo', { conditions: approved }),
        csr('example.com/foo', { conditions: failed }),
      ),
    );
  }
});

test('without sign, changing the certificate or the conditions is refused', async () => {
  const plugin = certificateSigningPlugin(testDeps({ allow: (r) => r.verb === 'approve' }));
  for (const [oldStatus, newStatus] of [
    [{ conditions: approved }, { conditions: approved, certificate: cert }],
    [{ conditions: approved }, { conditions: failed }],
    // nil and empty bytes differ for reflect.DeepEqual.
    [{ conditions: approved }, { conditions: approved, certificate: '' }],
  ] as const) {
    await assert.rejects(
      runPlugin(plugin, statusWrite(csr('example.com/foo', oldStatus), csr('example.com/foo', newStatus))),
      (err) => {
        assert.deepEqual(statusOf(err), { code: 403, message: denied });
        return true;
      },
    );
  }
});

test('a status write that changes neither needs no permission', async () => {
  const deps = testDeps();
  const plugin = certificateSigningPlugin(deps);
  await runPlugin(
    plugin,
    statusWrite(csr('example.com/foo', { conditions: approved, certificate: cert }), {
      ...csr('example.com/foo', { conditions: approved, certificate: cert }),
      metadata: { name: 'csr', labels: { a: 'b' } },
    }),
  );
  // nil and empty condition lists are semantically equal.
  await runPlugin(plugin, statusWrite(csr('example.com/foo'), csr('example.com/foo', { conditions: [] })));
  await runPlugin(
    plugin,
    statusWrite(csr('example.com/foo'), csr('example.com/foo', { conditions: failed }), 'approval'),
  );
  assert.equal(deps.asked.length, 0);
});
