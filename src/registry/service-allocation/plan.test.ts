import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../machinery/errors.js';
import type { JsonObject } from '../../util/json.js';
import { planCreate, planDelete, planUpdate } from './plan.js';
import { allocators } from './testing.js';

const message = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof StatusError);
    return err.message;
  }
  assert.fail('no error');
};

describe('Service allocation plans (NW-03, upstream alloc.go)', () => {
  it('create: single-stack defaults and one address', () => {
    const spec: JsonObject = { type: 'ClusterIP', ports: [{ port: 80 }] };
    const plan = planCreate('a', spec, allocators());
    assert.deepEqual(spec['clusterIPs'], ['10.96.0.1']);
    assert.equal(spec['clusterIP'], '10.96.0.1');
    assert.deepEqual(spec['ipFamilies'], ['IPv4']);
    assert.equal(spec['ipFamilyPolicy'], 'SingleStack');
    assert.deepEqual(plan.takeIPs, ['10.96.0.1']);
  });

  it('create: PreferDualStack gets both families on a dual-stack cluster, one on a single-stack one', () => {
    const dual: JsonObject = { type: 'ClusterIP', ipFamilyPolicy: 'PreferDualStack' };
    planCreate('a', dual, allocators(true));
    assert.deepEqual(dual['ipFamilies'], ['IPv4', 'IPv6']);
    assert.deepEqual(dual['clusterIPs'], ['10.96.0.1', 'fd00::1']);
    const single: JsonObject = { type: 'ClusterIP', ipFamilyPolicy: 'PreferDualStack' };
    planCreate('a', single, allocators());
    assert.deepEqual(single['clusterIPs'], ['10.96.0.1']);
  });

  it('create: headless without selector defaults to RequireDualStack with both families', () => {
    const spec: JsonObject = { type: 'ClusterIP', clusterIP: 'None', clusterIPs: ['None'] };
    const plan = planCreate('h', spec, allocators());
    assert.equal(spec['ipFamilyPolicy'], 'RequireDualStack');
    assert.deepEqual(spec['ipFamilies'], ['IPv4', 'IPv6']);
    assert.deepEqual(plan.takeIPs, []);
  });

  it('create: refusals as upstream', () => {
    const al = allocators();
    planCreate('a', { clusterIP: '10.96.0.5', clusterIPs: ['10.96.0.5'] }, al);
    assert.equal(
      message(() => planCreate('b', { clusterIP: '10.96.0.5', clusterIPs: ['10.96.0.5'] }, al)),
      'Service "b" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.5"}: failed to allocate IP 10.96.0.5: provided IP is already allocated',
    );
    assert.equal(
      message(() => planCreate('c', { ipFamilies: ['IPv6'] }, al)),
      'Service "c" is invalid: spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster',
    );
    assert.equal(
      message(() =>
        planCreate('d', { ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4', 'IPv6'] }, allocators(true)),
      ),
      `Service "d" is invalid: spec.ipFamilyPolicy: Invalid value: "SingleStack": must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified`,
    );
  });

  it('create: node ports, shared by ports with the same number, and the health check port', () => {
    const spec: JsonObject = {
      type: 'LoadBalancer',
      externalTrafficPolicy: 'Local',
      ports: [
        { name: 'tcp', port: 53, protocol: 'TCP' },
        { name: 'udp', port: 53, protocol: 'UDP' },
        { name: 'web', port: 80, nodePort: 30080 },
      ],
    };
    const plan = planCreate('lb', spec, allocators());
    const ports = spec['ports'] as JsonObject[];
    assert.equal(ports[0]!['nodePort'], ports[1]!['nodePort']);
    assert.equal(ports[2]!['nodePort'], 30080);
    assert.equal(typeof spec['healthCheckNodePort'], 'number');
    assert.equal(new Set(plan.takePorts).size, 3);
  });

  it('create: LoadBalancer with allocateLoadBalancerNodePorts false takes none', () => {
    const spec: JsonObject = {
      type: 'LoadBalancer',
      allocateLoadBalancerNodePorts: false,
      ports: [{ port: 80 }],
    };
    assert.deepEqual(planCreate('lb', spec, allocators()).takePorts, []);
  });

  it('update: type change to ExternalName gives everything back, from ExternalName takes', () => {
    const al = allocators();
    const old: JsonObject = { type: 'NodePort', ports: [{ port: 80 }] };
    planCreate('a', old, al);
    const spec: JsonObject = { type: 'ExternalName', externalName: 'x.example', ports: [{ port: 80 }] };
    const plan = planUpdate('a', spec, old, al);
    assert.deepEqual(plan.releaseIPs, ['10.96.0.1']);
    assert.deepEqual(plan.releasePorts, [30000]);
    const back: JsonObject = { type: 'ClusterIP', ports: [{ port: 80 }] };
    assert.equal(planUpdate('a', back, spec, al).takeIPs.length, 1);
  });

  it('update: dual-stack upgrade takes the secondary, downgrade gives it back', () => {
    const al = allocators(true);
    const old: JsonObject = { type: 'ClusterIP' };
    planCreate('a', old, al);
    const up: JsonObject = { ...structuredClone(old), ipFamilyPolicy: 'RequireDualStack' };
    const plan = planUpdate('a', up, old, al);
    assert.deepEqual(up['clusterIPs'], ['10.96.0.1', 'fd00::1']);
    assert.deepEqual(plan.takeIPs, ['fd00::1']);
    const down: JsonObject = { ...structuredClone(up), ipFamilyPolicy: 'SingleStack' };
    const back = planUpdate('a', down, up, al);
    assert.deepEqual(down['clusterIPs'], ['10.96.0.1']);
    assert.deepEqual(back.releaseIPs, ['fd00::1']);
  });

  it('update: unchanged node ports are kept, removed ones given back', () => {
    const al = allocators();
    const old: JsonObject = {
      type: 'NodePort',
      ports: [
        { name: 'a', port: 80 },
        { name: 'b', port: 81 },
      ],
    };
    planCreate('a', old, al);
    const spec = structuredClone(old);
    (spec['ports'] as JsonObject[]).pop();
    const plan = planUpdate('a', spec, old, al);
    assert.deepEqual(plan.takePorts, []);
    assert.deepEqual(plan.releasePorts, [30001]);
  });

  it('delete: everything held', () => {
    const spec: JsonObject = {
      type: 'LoadBalancer',
      externalTrafficPolicy: 'Local',
      clusterIPs: ['10.96.0.3'],
      healthCheckNodePort: 30005,
      ports: [{ port: 80, nodePort: 30004 }],
    };
    assert.deepEqual(planDelete(spec), {
      takeIPs: [],
      releaseIPs: ['10.96.0.3'],
      takePorts: [],
      releasePorts: [30004, 30005],
    });
  });
});
