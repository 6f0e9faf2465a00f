import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseQuantity } from '../../machinery/quantity/quantity.js';
import {
  limitRequestRatioConstraint,
  maxConstraint,
  maxRequestConstraint,
  minConstraint,
} from './constraints.js';
import type { ResourceList } from '../../apis/core/v1/quota/resource-list.js';

const q = parseQuantity;
const list = (o: Record<string, string>): ResourceList =>
  new Map(Object.entries(o).map(([k, v]) => [k, parseQuantity(v)]));
const none = list({});

test('min: no request, request below, limit below, satisfied', () => {
  assert.equal(
    minConstraint('Container', 'cpu', q('100m'), none, none),
    'minimum cpu usage per Container is 100m.  No request is specified',
  );
  assert.equal(
    minConstraint('Container', 'cpu', q('100m'), list({ cpu: '50m' }), none),
    'minimum cpu usage per Container is 100m, but request is 50m',
  );
  assert.equal(
    minConstraint('Container', 'memory', q('64Mi'), list({ memory: '64Mi' }), list({ memory: '32Mi' })),
    'minimum memory usage per Container is 64Mi, but limit is 32Mi',
  );
  assert.equal(
    minConstraint('Container', 'cpu', q('100m'), list({ cpu: '0.1' }), list({ cpu: '1' })),
    undefined,
  );
});

test('min compares milli values rounded up (sub-milli requests pass a milli minimum)', () => {
  assert.equal(minConstraint('Container', 'cpu', q('100m'), list({ cpu: '99500u' }), none), undefined);
  assert.equal(
    minConstraint('Container', 'cpu', q('100m'), list({ cpu: '99000u' }), none),
    'minimum cpu usage per Container is 100m, but request is 99m',
  );
});

test('max: no limit, limit above, request above, satisfied', () => {
  assert.equal(
    maxConstraint('Pod', 'memory', q('1Gi'), list({ memory: '1Gi' }), none),
    'maximum memory usage per Pod is 1Gi.  No limit is specified',
  );
  assert.equal(
    maxConstraint('Container', 'cpu', q('1'), none, list({ cpu: '1500m' })),
    'maximum cpu usage per Container is 1, but limit is 1500m',
  );
  assert.equal(
    maxConstraint('Container', 'cpu', q('1'), list({ cpu: '2' }), list({ cpu: '1' })),
    'maximum cpu usage per Container is 1, but request is 2',
  );
  assert.equal(maxConstraint('Container', 'cpu', q('1'), none, list({ cpu: '1' })), undefined);
});

test('huge values fall back to whole units', () => {
  assert.equal(
    maxConstraint('Container', 'memory', q('10E'), none, list({ memory: '11E' })),
    'maximum memory usage per Container is 10E, but limit is 11E',
  );
  assert.equal(maxConstraint('Container', 'memory', q('10E'), none, list({ memory: '10E' })), undefined);
});

test('max on requests only (PersistentVolumeClaim)', () => {
  assert.equal(
    maxRequestConstraint('PersistentVolumeClaim', 'storage', q('2Gi'), none),
    'maximum storage usage per PersistentVolumeClaim is 2Gi.  No request is specified',
  );
  assert.equal(
    maxRequestConstraint('PersistentVolumeClaim', 'storage', q('2Gi'), list({ storage: '5Gi' })),
    'maximum storage usage per PersistentVolumeClaim is 2Gi, but request is 5Gi',
  );
  assert.equal(
    maxRequestConstraint('PersistentVolumeClaim', 'storage', q('2Gi'), list({ storage: '2Gi' })),
    undefined,
  );
});

test('limit to request ratio', () => {
  assert.equal(
    limitRequestRatioConstraint('Container', 'cpu', q('2'), list({ cpu: '100m' }), list({ cpu: '400m' })),
    'cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000',
  );
  assert.equal(
    limitRequestRatioConstraint('Container', 'cpu', q('2'), list({ cpu: '100m' }), list({ cpu: '200m' })),
    undefined,
  );
  assert.equal(
    limitRequestRatioConstraint('Container', 'cpu', q('2'), none, list({ cpu: '200m' })),
    'cpu max limit to request ratio per Container is 2, but no request is specified or request is 0',
  );
  assert.equal(
    limitRequestRatioConstraint('Container', 'cpu', q('2'), list({ cpu: '0' }), list({ cpu: '200m' })),
    'cpu max limit to request ratio per Container is 2, but no request is specified or request is 0',
  );
  assert.equal(
    limitRequestRatioConstraint('Pod', 'memory', q('1500m'), list({ memory: '3' }), none),
    'memory max limit to request ratio per Pod is 1500m, but no limit is specified or limit is 0',
  );
  assert.equal(
    limitRequestRatioConstraint(
      'Container',
      'memory',
      q('1500m'),
      list({ memory: '3' }),
      list({ memory: '5' }),
    ),
    'memory max limit to request ratio per Container is 1500m, but provided ratio is 1.666667',
  );
});
