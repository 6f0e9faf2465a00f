import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import { serviceTable } from './service.js';

const now = new Date('2024-05-01T12:00:00Z');

function svc(spec: JsonObject, status: JsonObject = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 's', namespace: 'default', creationTimestamp: '2024-04-30T10:00:00Z' },
    spec,
    status,
  };
}

describe('serviceTable', () => {
  it('has the v1.27 columns', () => {
    assert.deepEqual(
      serviceTable.columns.map((c) => [c.name, c.priority]),
      [
        ['Name', 0],
        ['Type', 0],
        ['Cluster-IP', 0],
        ['External-IP', 0],
        ['Port(s)', 0],
        ['Age', 0],
        ['Selector', 1],
      ],
    );
  });

  it('prints a ClusterIP service', () => {
    const s = svc({
      type: 'ClusterIP',
      clusterIP: '10.96.0.10',
      clusterIPs: ['10.96.0.10'],
      ports: [
        { name: 'dns', port: 53, protocol: 'UDP' },
        { name: 'dns-tcp', port: 53, protocol: 'TCP' },
      ],
      selector: { 'k8s-app': 'kube-dns', app: 'dns' },
    });
    assert.deepEqual(serviceTable.cells(s, now), [
      's',
      'ClusterIP',
      '10.96.0.10',
      '<none>',
      '53/UDP,53/TCP',
      '26h',
      'app=dns,k8s-app=kube-dns',
    ]);
  });

  it('prints NodePort ports and external IPs', () => {
    const s = svc({
      type: 'NodePort',
      clusterIPs: ['10.96.1.1'],
      externalIPs: ['1.2.3.4', '5.6.7.8'],
      ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }],
    });
    const cells = serviceTable.cells(s, now);
    assert.equal(cells[3], '1.2.3.4,5.6.7.8');
    assert.equal(cells[4], '80:30080/TCP');
    assert.equal(cells[6], '<none>');
  });

  it('prints a LoadBalancer: pending, ingress sorted and unclipped, plus externalIPs', () => {
    const base = {
      type: 'LoadBalancer',
      clusterIPs: ['10.96.2.2'],
      ports: [{ port: 443, nodePort: 31443, protocol: 'TCP' }],
    };
    assert.equal(serviceTable.cells(svc(base), now)[3], '<pending>');
    const ingress = {
      loadBalancer: {
        ingress: [
          { ip: '203.0.113.9' },
          { hostname: 'a-very-long-name.elb.example.com' },
          { ip: '203.0.113.9' },
        ],
      },
    };
    assert.equal(
      serviceTable.cells(svc(base, ingress), now)[3],
      '203.0.113.9,a-very-long-name.elb.example.com',
    );
    const withExternal = svc({ ...base, externalIPs: ['1.1.1.1'] }, ingress);
    assert.equal(
      serviceTable.cells(withExternal, now)[3],
      '203.0.113.9,a-very-long-name.elb.example.com,1.1.1.1',
    );
    assert.equal(serviceTable.cells(svc({ ...base, externalIPs: ['1.1.1.1'] }), now)[3], '1.1.1.1');
  });

  it('prints headless and ExternalName services', () => {
    const headless = svc({ type: 'ClusterIP', clusterIP: 'None', clusterIPs: ['None'] });
    assert.deepEqual(serviceTable.cells(headless, now).slice(2, 5), ['None', '<none>', '<none>']);
    const ext = svc({ type: 'ExternalName', externalName: 'db.example.com', ports: [] });
    assert.deepEqual(serviceTable.cells(ext, now).slice(1, 5), [
      'ExternalName',
      '<none>',
      'db.example.com',
      '<none>',
    ]);
  });
});
