import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonObject } from '../../util/json.js';
import { desiredSubsets, subsetsJson, tolerateUnready, truncateSubsets } from './desired-endpoints.js';
import type { EndpointSubset } from './desired-endpoints.js';

function pod(
  name: string,
  ip: string,
  o: { ready?: boolean; deleting?: boolean; phase?: string } = {},
): JsonObject {
  return {
    metadata: {
      name,
      namespace: 'ns',
      uid: `uid-${name}`,
      labels: { app: 'a' },
      ...(o.deleting === true ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec: {
      nodeName: 'n1',
      containers: [{ name: 'c', ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }] }],
    },
    status: {
      phase: o.phase ?? 'Running',
      podIP: ip,
      podIPs: [{ ip }],
      conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }],
    },
  };
}

function service(spec: JsonObject = {}, ann: Record<string, string> = {}): JsonObject {
  return {
    metadata: { name: 's', namespace: 'ns', annotations: ann },
    spec: {
      clusterIP: '10.0.0.10',
      ipFamilies: ['IPv4'],
      selector: { app: 'a' },
      ports: [{ name: 'web', port: 80, targetPort: 'http', protocol: 'TCP' }],
      ...spec,
    },
  };
}

describe('desiredSubsets (endpoints_controller.go syncService)', () => {
  it('resolves a named targetPort and splits ready from not-ready addresses', () => {
    const subsets = subsetsJson(
      desiredSubsets(service(), [pod('b', '10.1.0.3', { ready: false }), pod('a', '10.1.0.2')]),
    );
    assert.deepEqual(subsets, [
      {
        addresses: [
          {
            ip: '10.1.0.2',
            nodeName: 'n1',
            targetRef: { kind: 'Pod', namespace: 'ns', name: 'a', uid: 'uid-a' },
          },
        ],
        notReadyAddresses: [
          {
            ip: '10.1.0.3',
            nodeName: 'n1',
            targetRef: { kind: 'Pod', namespace: 'ns', name: 'b', uid: 'uid-b' },
          },
        ],
        ports: [{ name: 'web', port: 8080, protocol: 'TCP' }],
      },
    ]);
  });

  it('skips terminating and terminal pods unless publishNotReadyAddresses', () => {
    const pods = [pod('a', '10.1.0.2', { deleting: true }), pod('b', '10.1.0.3', { phase: 'Failed' })];
    assert.deepEqual(desiredSubsets(service(), pods), []);
    const published = desiredSubsets(service({ publishNotReadyAddresses: true }), pods);
    assert.deepEqual(
      published.flatMap((s) => s.addresses.map((a) => a.ip)),
      ['10.1.0.2'],
    );
  });

  it('honours the tolerate-unready annotation, and its false over publishNotReadyAddresses', () => {
    assert.equal(
      tolerateUnready(service({}, { 'service.alpha.kubernetes.io/tolerate-unready-endpoints': 'true' })),
      true,
    );
    assert.equal(
      tolerateUnready(
        service(
          { publishNotReadyAddresses: true },
          { 'service.alpha.kubernetes.io/tolerate-unready-endpoints': 'false' },
        ),
      ),
      false,
    );
  });

  it('drops pods whose named port is missing, and lists headless port-less Services', () => {
    const p = pod('a', '10.1.0.2');
    assert.deepEqual(
      desiredSubsets(service({ ports: [{ port: 80, targetPort: 'nope', protocol: 'TCP' }] }), [p]),
      [],
    );
    const headless = desiredSubsets(service({ clusterIP: 'None', ports: [] }), [p]);
    assert.equal(headless.length, 1);
    assert.deepEqual(headless[0]?.ports, []);
  });

  it('groups ports by the set of addresses offering them (RepackSubsets)', () => {
    const two = service({
      ports: [
        { name: 'web', port: 80, targetPort: 'http', protocol: 'TCP' },
        { name: 'raw', port: 81, targetPort: 9090, protocol: 'TCP' },
      ],
    });
    const noHttp = pod('b', '10.1.0.3');
    (noHttp['spec'] as JsonObject)['containers'] = [{ name: 'c' }];
    const subsets = desiredSubsets(two, [pod('a', '10.1.0.2'), noHttp]);
    assert.equal(subsets.length, 2);
    assert.deepEqual(
      subsets.map((s) => [s.addresses.map((a) => a.ip), s.ports.map((p) => p.name)]),
      [
        [['10.1.0.2', '10.1.0.3'], ['raw']],
        [['10.1.0.2'], ['web']],
      ],
    );
  });

  it('uses the pod IP of the Service primary family', () => {
    const p = pod('a', '10.1.0.2');
    (p['status'] as JsonObject)['podIPs'] = [{ ip: '10.1.0.2' }, { ip: 'fd00::2' }];
    const v6 = desiredSubsets(service({ ipFamilies: ['IPv6'], clusterIP: 'fd00:10::1' }), [p]);
    assert.equal(v6[0]?.addresses[0]?.ip, 'fd00::2');
  });
});

describe('truncateSubsets (truncateEndpoints)', () => {
  const addrs = (n: number, base: number): { ip: string }[] =>
    Array.from({ length: n }, (_, i) => ({ ip: `10.0.${Math.floor((base + i) / 250)}.${(base + i) % 250}` }));
  it('keeps 1000 addresses proportionally, ready ones first', () => {
    const subsets: EndpointSubset[] = [
      { addresses: addrs(600, 0), notReadyAddresses: addrs(10, 5000), ports: [] },
      { addresses: addrs(600, 1000), notReadyAddresses: [], ports: [] },
    ];
    assert.equal(truncateSubsets(subsets), true);
    assert.deepEqual(
      subsets.map((s) => [s.addresses.length, s.notReadyAddresses.length]),
      [
        [500, 0],
        [500, 0],
      ],
    );
  });
  it('truncates only not-ready addresses when the ready ones fit', () => {
    const subsets: EndpointSubset[] = [
      { addresses: addrs(900, 0), notReadyAddresses: addrs(300, 2000), ports: [] },
    ];
    assert.equal(truncateSubsets(subsets), true);
    assert.deepEqual([subsets[0]?.addresses.length, subsets[0]?.notReadyAddresses.length], [900, 100]);
    assert.equal(truncateSubsets([{ addresses: addrs(1000, 0), notReadyAddresses: [], ports: [] }]), false);
  });
});
