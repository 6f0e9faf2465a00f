import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  desiredService,
  endpointSliceFor,
  endpointsRepair,
  serviceRepair,
  sliceUpToDate,
} from './desired.js';
import type { ApiserverServiceSpec } from './desired.js';

const spec: ApiserverServiceSpec = {
  serviceIP: '10.96.0.1',
  servicePort: 443,
  endpointIP: '192.168.1.5',
  endpointPort: 6443,
};
const https = { name: 'https', port: 6443, protocol: 'TCP' };
const skipMirror = { 'endpointslice.kubernetes.io/skip-mirror': 'true' };

test('the Service: createPortAndServiceSpec, repaired (ports and type) only when they differ', () => {
  const svc = desiredService(spec);
  assert.deepEqual(svc['spec'], {
    ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 6443 }],
    clusterIP: '10.96.0.1',
    ipFamilyPolicy: 'SingleStack',
    sessionAffinity: 'None',
    type: 'ClusterIP',
  });
  assert.equal(serviceRepair(svc, spec), undefined);
  const changed = desiredService(spec);
  changed['spec'] = {
    type: 'NodePort',
    ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 6443, nodePort: 30000 }],
    clusterIP: '10.96.0.1',
  };
  assert.deepEqual(serviceRepair(changed, spec)?.['spec'], {
    type: 'ClusterIP',
    ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 6443 }],
    clusterIP: '10.96.0.1',
  });
});

test('Endpoints: created, left alone when right, repaired as the lease reconciler does', () => {
  const created = endpointsRepair(undefined, spec, true)!;
  assert.deepEqual(created, {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: 'kubernetes', namespace: 'default', labels: skipMirror },
    subsets: [{ addresses: [{ ip: '192.168.1.5' }], ports: [https] }],
  });
  assert.equal(endpointsRepair(created, spec, true), undefined);
  // Ports are only reset on the first run; the address and label always.
  const otherPort = {
    ...created,
    subsets: [{ addresses: [{ ip: '192.168.1.5' }], ports: [{ ...https, port: 1 }] }],
  };
  assert.equal(endpointsRepair(otherPort, spec, false), undefined);
  assert.deepEqual(endpointsRepair(otherPort, spec, true)?.['subsets'], created['subsets']);
  const otherIP = { ...created, subsets: [{ addresses: [{ ip: '10.0.0.9' }], ports: [https] }] };
  assert.deepEqual(endpointsRepair(otherIP, spec, false)?.['subsets'], created['subsets']);
  const unlabelled = { ...created, metadata: { name: 'kubernetes', namespace: 'default' } };
  assert.deepEqual(endpointsRepair(unlabelled, spec, false)?.['metadata'], created['metadata']);
  const twoSubsets = {
    ...created,
    subsets: [{ addresses: [{ ip: '1.1.1.1' }] }, { addresses: [{ ip: '2.2.2.2' }] }],
  };
  assert.deepEqual(endpointsRepair(twoSubsets, spec, false)?.['subsets'], created['subsets']);
});

test('Endpoints of several servers: every address with a live lease, in any order (AM-13)', () => {
  const both = endpointsRepair(undefined, spec, true, ['192.168.1.5', '192.168.1.6'])!;
  assert.deepEqual(both['subsets'], [
    { addresses: [{ ip: '192.168.1.5' }, { ip: '192.168.1.6' }], ports: [https] },
  ]);
  // The same set in another order is right as it is; one server gone is repaired.
  assert.equal(endpointsRepair(both, spec, false, ['192.168.1.6', '192.168.1.5']), undefined);
  assert.deepEqual(endpointsRepair(both, spec, false, ['192.168.1.6'])?.['subsets'], [
    { addresses: [{ ip: '192.168.1.6' }], ports: [https] },
  ]);
  assert.equal(endpointSliceFor(both)['endpoints'] !== undefined, true);
});

test('the EndpointSlice follows the Endpoints (endpointSliceFromEndpoints)', () => {
  const ep = endpointsRepair(undefined, spec, true)!;
  const slice = endpointSliceFor(ep);
  assert.deepEqual(slice, {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: 'kubernetes',
      namespace: 'default',
      labels: { 'kubernetes.io/service-name': 'kubernetes' },
    },
    addressType: 'IPv4',
    ports: [https],
    endpoints: [{ addresses: ['192.168.1.5'], conditions: { ready: true } }],
  });
  assert.ok(sliceUpToDate({ ...slice, metadata: { ...(slice['metadata'] as object), uid: 'x' } }, slice));
  assert.ok(!sliceUpToDate({ ...slice, ports: [] }, slice));
  const v6 = endpointSliceFor({ ...ep, subsets: [{ addresses: [{ ip: 'fd00::5' }], ports: [https] }] });
  assert.equal(v6['addressType'], 'IPv6');
});
