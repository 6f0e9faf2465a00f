import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { b64, makeCert, makeCsr } from '../../../apis/certificates/testdata/fixtures.js';
import type { KubeObject } from '../../../machinery/object.js';
import type { StrategyContext } from '../../strategy.js';
import { populateConditionTimestamps } from './certificatesigningrequests.js';
import { certificatesV1Resources, certificatesV1alpha1Resources } from './index.js';

const [csrs] = certificatesV1Resources;
const [bundles] = certificatesV1alpha1Resources;

const ctx: StrategyContext = {
  namespace: '',
  features: { enabled: () => false },
  user: {
    name: 'alice',
    uid: 'u-1',
    groups: ['devs', 'system:authenticated'],
    extra: { scopes: ['a', 'b'] },
  },
};

let request: string;
let ca: string;
before(async () => {
  request = await makeCsr('alice');
  ca = await makeCert('ca', true);
});

function csr(): KubeObject {
  return {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name: 'c', resourceVersion: '5' },
    spec: {
      request: b64(request),
      signerName: 'example.com/s',
      usages: ['client auth'],
      username: 'mallory',
      groups: ['system:masters'],
    },
    status: { conditions: [{ type: 'Approved', status: 'True' }], certificate: b64(ca) },
  };
}

test('CSR info and strategy basics', () => {
  assert.equal(csrs!.info.shortNames?.[0], 'csr');
  assert.deepEqual(csrs!.info.extraSubresources, [{ name: 'approval', verbs: ['get', 'patch', 'update'] }]);
  assert.equal(csrs!.info.statusSubresource, true);
  assert.equal(csrs!.strategy.namespaced, false);
  assert.equal(csrs!.strategy.nameValidation, 'pathSegment');
  assert.equal(csrs!.strategy.allowUnconditionalUpdate, true);
  assert.deepEqual(csrs!.selectableFields!(csr()), { 'spec.signerName': 'example.com/s' });
});

test('create: the requester is recorded and the status cleared', () => {
  const c = csr();
  csrs!.strategy.prepareForCreate(ctx, c);
  const spec = c['spec'] as Record<string, unknown>;
  assert.equal(spec['username'], 'alice');
  assert.equal(spec['uid'], 'u-1');
  assert.deepEqual(spec['groups'], ['devs', 'system:authenticated']);
  assert.deepEqual(spec['extra'], { scopes: ['a', 'b'] });
  assert.deepEqual(c['status'], {});
  assert.deepEqual(csrs!.strategy.validate(ctx, c), []);

  const anon = csr();
  csrs!.strategy.prepareForCreate({ ...ctx, user: { name: 'bob', uid: '', groups: [], extra: {} } }, anon);
  const s2 = anon['spec'] as Record<string, unknown>;
  assert.equal(s2['username'], 'bob');
  assert.equal('uid' in s2 || 'groups' in s2 || 'extra' in s2, false);
});

test('update of the main resource keeps spec and status', () => {
  const old = csr();
  const next = csr();
  next.metadata.labels = { a: 'b' };
  next['spec'] = { request: '', usages: [] };
  next['status'] = {};
  csrs!.strategy.prepareForUpdate(ctx, next, old);
  assert.deepEqual(next['spec'], old['spec']);
  assert.deepEqual(next['status'], old['status']);
  assert.deepEqual(next.metadata.labels, { a: 'b' });
});

test('/status keeps spec and stored Approved/Denied, fills timestamps', () => {
  const status = csrs!.statusStrategy!;
  const old = csr();
  const stamped = {
    type: 'Approved',
    status: 'True',
    lastUpdateTime: '2024-01-01T00:00:00Z',
    lastTransitionTime: '2024-01-01T00:00:00Z',
  };
  (old['status'] as Record<string, unknown>)['conditions'] = [stamped];
  const next = csr();
  next['spec'] = {};
  next['status'] = {
    conditions: [
      { type: 'Approved', status: 'True', reason: 'changed' },
      { type: 'Failed', status: 'True' },
    ],
  };
  status.prepareForUpdate(ctx, next, old);
  assert.deepEqual(next['spec'], old['spec']);
  const conds = (next['status'] as { conditions: Record<string, unknown>[] }).conditions;
  assert.deepEqual(conds[0], stamped, 'the stored Approved condition wins');
  assert.equal(typeof conds[1]!['lastUpdateTime'], 'string');
  assert.equal(conds[1]!['lastTransitionTime'], conds[1]!['lastUpdateTime']);
  assert.deepEqual(
    status.validateUpdate(ctx, next, old).map(String),
    ['status.certificate: Forbidden: updates may not modify existing certificate content'],
    'the certificate was removed',
  );
});

test('/approval changes only conditions', () => {
  const approval = csrs!.subresourceStrategies!['approval']!;
  const old = csr();
  (old['status'] as Record<string, unknown>)['conditions'] = [];
  const next = csr();
  next['spec'] = {};
  next['status'] = { conditions: [{ type: 'Denied', status: 'True', reason: 'no' }], certificate: '' };
  approval.prepareForUpdate(ctx, next, old);
  assert.deepEqual(next['spec'], old['spec']);
  const st = next['status'] as { conditions: Record<string, unknown>[]; certificate: string };
  assert.equal(st.certificate, b64(ca));
  assert.deepEqual(Object.keys(st), ['conditions', 'certificate']);
  assert.equal(st.conditions[0]!['reason'], 'no');
  assert.deepEqual(approval.validateUpdate(ctx, next, old), []);
});

test('condition timestamps: a kept type/status keeps its transition time', () => {
  const old: KubeObject = {
    apiVersion: 'v',
    kind: 'k',
    metadata: {},
    status: { conditions: [{ type: 'Failed', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z' }] },
  };
  const next: KubeObject = {
    apiVersion: 'v',
    kind: 'k',
    metadata: {},
    status: {
      conditions: [
        { type: 'Failed', status: 'True' },
        { type: 'X', status: 'False' },
      ],
    },
  };
  populateConditionTimestamps(next, old, '2024-05-05T00:00:00Z');
  assert.deepEqual((next['status'] as { conditions: unknown[] }).conditions, [
    {
      type: 'Failed',
      status: 'True',
      lastUpdateTime: '2024-05-05T00:00:00Z',
      lastTransitionTime: '2024-01-01T00:00:00Z',
    },
    {
      type: 'X',
      status: 'False',
      lastUpdateTime: '2024-05-05T00:00:00Z',
      lastTransitionTime: '2024-05-05T00:00:00Z',
    },
  ]);
});

test('ClusterTrustBundle strategy: conditional updates only, signer selectable', () => {
  assert.equal(bundles!.strategy.allowUnconditionalUpdate, false);
  assert.equal(bundles!.info.version, 'v1alpha1');
  assert.equal(bundles!.info.shortNames, undefined);
  const b: KubeObject = {
    apiVersion: 'certificates.k8s.io/v1alpha1',
    kind: 'ClusterTrustBundle',
    metadata: { name: 'example.com:s:one' },
    spec: { signerName: 'example.com/s', trustBundle: ca },
  };
  assert.deepEqual(bundles!.strategy.validate(ctx, b), []);
  assert.deepEqual(bundles!.selectableFields!(b), { 'spec.signerName': 'example.com/s' });
});
