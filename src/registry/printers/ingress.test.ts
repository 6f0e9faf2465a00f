import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import { formatIngressHosts, ingressTable } from './ingress.js';

const now = new Date('2024-05-01T12:00:00Z');

function ingress(spec: JsonObject, status: JsonObject = {}): KubeObject {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'web', namespace: 'default', creationTimestamp: '2024-05-01T11:00:00Z' },
    spec,
    status,
  };
}

test('Ingress columns: NAME, CLASS, HOSTS, ADDRESS, PORTS, AGE (none wide-only)', () => {
  assert.deepEqual(
    ingressTable.columns.map((c) => [c.name, c.priority]),
    [
      ['Name', 0],
      ['Class', 0],
      ['Hosts', 0],
      ['Address', 0],
      ['Ports', 0],
      ['Age', 0],
    ],
  );
});

test('Ingress row: class or <none>, hosts, sorted unique addresses, TLS ports', () => {
  assert.deepEqual(ingressTable.cells(ingress({ defaultBackend: {} }), now), [
    'web',
    '<none>',
    '*',
    '',
    '80',
    '60m',
  ]);
  const row = ingressTable.cells(
    ingress(
      { ingressClassName: 'nginx', rules: [{ host: 'a.com' }, {}], tls: [{ hosts: ['a.com'] }] },
      {
        loadBalancer: {
          ingress: [
            { ip: '10.0.0.2' },
            { hostname: 'lb.example.com' },
            { ip: '10.0.0.1', hostname: 'x' },
            { ip: '10.0.0.2' },
          ],
        },
      },
    ),
    now,
  );
  assert.deepEqual(row, ['web', 'nginx', 'a.com', '10.0.0.1,10.0.0.2,lb.example.com', '80, 443', '60m']);
});

test('Ingress hosts: at most three, then "+ N more..." over the remaining rules', () => {
  const rules = (hosts: string[]): JsonObject[] => hosts.map((host) => (host === '' ? {} : { host }));
  assert.equal(formatIngressHosts(rules(['a', 'b', 'c'])), 'a,b,c');
  assert.equal(formatIngressHosts(rules(['a', 'b', 'c', 'd', 'e'])), 'a,b,c + 2 more...');
  // A hostless rule among the first three leaves room, so the fourth host is listed.
  assert.equal(formatIngressHosts(rules(['a', '', 'b', 'c'])), 'a,b,c');
  assert.equal(formatIngressHosts(rules(['a', '', 'b', 'c', 'd'])), 'a,b,c + 2 more...');
  assert.equal(formatIngressHosts(rules(['', ''])), '*');
});
