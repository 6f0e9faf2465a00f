import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FeatureGates } from '../../../../machinery/features.js';
import type { StrategyContext } from '../../../../machinery/validation-context.js';
import type { JsonObject } from '../../../../util/json.js';
import { defaultLimitRange } from '../defaults/limitrange.js';
import { defaultPersistentVolume } from '../defaults/persistentvolume.js';
import { defaultReplicationController } from '../defaults/replicationcontroller.js';
import { validateLimitRange } from './limitrange.js';
import {
  validatePersistentVolume,
  validatePersistentVolumeClaim,
  validatePersistentVolumeClaimUpdate,
} from './persistentvolume.js';
import {
  validateReplicationController,
  validateReplicationControllerUpdate,
} from './replicationcontroller.js';
import { validateResourceQuota, validateResourceQuotaUpdate } from './resourcequota.js';

const ctx: StrategyContext = { namespace: 'default', features: new FeatureGates() };
const msgs = (errs: readonly { toString(): string }[]): string[] => errs.map((e) => e.toString());

test('RC defaults: selector and labels from the template, replicas 1, template defaulted', () => {
  const rc: JsonObject = {
    metadata: { labels: { keep: 'me' } },
    spec: { template: { metadata: { labels: { a: 'b' } } } },
  };
  defaultReplicationController(rc);
  assert.deepEqual((rc['spec'] as JsonObject)['selector'], { a: 'b' });
  assert.deepEqual((rc['metadata'] as JsonObject)['labels'], { keep: 'me' });
  assert.equal((rc['spec'] as JsonObject)['replicas'], 1);
  const noTemplate: JsonObject = { spec: {} };
  defaultReplicationController(noTemplate);
  assert.deepEqual(noTemplate, { spec: { replicas: 1 } });
});

test('RC validation: selector and template required; update repeats spec errors', () => {
  const errs = validateReplicationController(ctx, { spec: { replicas: 1 } });
  assert.deepEqual(msgs(errs), ['spec.selector: Required value', 'spec.template: Required value']);
  assert.equal(validateReplicationControllerUpdate(ctx, { spec: { replicas: 1 } }).length, 4);
});

test('PV defaults and source rules', () => {
  const pv: JsonObject = { spec: { rbd: {} } };
  defaultPersistentVolume(pv);
  assert.deepEqual(pv, {
    status: { phase: 'Pending' },
    spec: {
      persistentVolumeReclaimPolicy: 'Retain',
      volumeMode: 'Filesystem',
      rbd: { pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' },
    },
  });
  assert.deepEqual(
    msgs(
      validatePersistentVolume({
        spec: { accessModes: ['Foo'], capacity: { storage: '1Gi' }, local: { path: '/a' } },
      }),
    ),
    [
      'spec.accessModes: Unsupported value: "Foo": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
      'spec.nodeAffinity: Required value: Local volume requires node affinity',
    ],
  );
  assert.deepEqual(
    msgs(
      validatePersistentVolume({
        spec: { accessModes: ['ReadWriteOnce'], capacity: {}, csi: { driver: 'd.example.com' } },
      }),
    ),
    [
      'spec.capacity: Required value',
      'spec.capacity: Unsupported value: core.ResourceList{}: supported values: "storage"',
      'spec.csi.volumeHandle: Required value',
    ],
  );
});

test('PVC data sources and the storage class upgrade from the beta annotation', () => {
  assert.deepEqual(
    msgs(
      validatePersistentVolumeClaim({
        spec: {
          accessModes: ['ReadWriteOnce'],
          resources: { requests: { storage: '1Gi' } },
          dataSource: { kind: 'Snap', name: 'a' },
          dataSourceRef: { kind: 'PersistentVolumeClaim', name: 'b' },
        },
      }),
    ),
    [
      `spec.dataSource: Invalid value: "Snap": must be 'PersistentVolumeClaim' when referencing the default apiGroup`,
      'spec: Invalid value: field.Path{name:"dataSource", index:"", parent:(*field.Path)(0xc000010000)}: must match dataSourceRef',
    ],
  );
  const spec = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } };
  const old = { metadata: { annotations: { 'volume.beta.kubernetes.io/storage-class': 'gold' } }, spec };
  const upgraded = { metadata: {}, spec: { ...spec, storageClassName: 'gold' } };
  assert.deepEqual(msgs(validatePersistentVolumeClaimUpdate(upgraded, old)), []);
  const fromNil = { metadata: {}, spec: { ...spec, storageClassName: 'silver' } };
  assert.deepEqual(msgs(validatePersistentVolumeClaimUpdate(fromNil, { metadata: {}, spec })), []);
});

test('ResourceQuota: integer resources, scope/resource pairs and immutable scopes', () => {
  assert.deepEqual(msgs(validateResourceQuota({ spec: { hard: { cpu: '1' }, scopes: ['BestEffort'] } })), [
    'spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort"}: unsupported scope applied to resource',
  ]);
  assert.deepEqual(msgs(validateResourceQuota({ spec: { hard: { 'count/foo.example.com': '500m' } } })), [
    'spec.hard[count/foo.example.com]: Invalid value: resource.Quantity{i:resource.int64Amount{value:500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"500m", Format:"DecimalSI"}: must be an integer',
  ]);
  assert.deepEqual(
    msgs(
      validateResourceQuota({
        spec: {
          scopeSelector: { matchExpressions: [{ scopeName: 'Terminating', operator: 'In', values: ['x'] }] },
        },
      }),
    ),
    [
      'spec.scopeSelector.matchExpressions.operator: Invalid value: "In": must be \'Exist\' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity',
    ],
  );
  assert.deepEqual(msgs(validateResourceQuotaUpdate({ spec: { scopes: ['Terminating'] } }, { spec: {} })), [
    'spec.scopes: Invalid value: []core.ResourceQuotaScope{"Terminating"}: field is immutable',
  ]);
});

test('LimitRange: defaults and the ratio, pod and PVC rules', () => {
  const lr: JsonObject = {
    spec: {
      limits: [
        { type: 'Container', max: { cpu: '2' }, default: { memory: '1Gi' } },
        { type: 'Pod', max: { cpu: '1' } },
      ],
    },
  };
  defaultLimitRange(lr);
  const items = (lr['spec'] as JsonObject)['limits'] as JsonObject[];
  assert.deepEqual(items[0], {
    type: 'Container',
    max: { cpu: '2' },
    default: { memory: '1Gi', cpu: '2' },
    defaultRequest: { memory: '1Gi', cpu: '2' },
  });
  assert.deepEqual(items[1], { type: 'Pod', max: { cpu: '1' } });
  assert.deepEqual(
    msgs(
      validateLimitRange({
        spec: {
          limits: [
            {
              type: 'Pod',
              default: { cpu: '1' },
              min: { cpu: '1' },
              max: { cpu: '2' },
              maxLimitRequestRatio: { cpu: '3' },
            },
            { type: 'PersistentVolumeClaim' },
            { type: 'Pod' },
          ],
        },
      }),
    ),
    [
      "spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'",
      'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:3, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"3", Format:"DecimalSI"}: ratio 3 is greater than max/min = 2.000000',
      'spec.limits[1].limits: Required value: either minimum or maximum storage value is required, but neither was provided',
      'spec.limits[2].type: Duplicate value: "Pod"',
    ],
  );
});
