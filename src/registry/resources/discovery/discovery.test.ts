import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ctx, messages } from '../../../apis/apps/v1/testdata/fixtures.js';
import { defaultEndpointSlice } from '../../../apis/discovery/v1/defaults.js';
import type { KubeObject } from '../../../machinery/object.js';
import { cloneJson } from '../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../util/json.js';
import { endpointSlices } from './endpointslices.js';
import { discoveryV1Resources } from './index.js';

function eps(addressType: string, endpoints: JsonValue[], ports: JsonObject[] = []): KubeObject {
  const o: KubeObject = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: 'web-abc', namespace: 'default', labels: { 'kubernetes.io/service-name': 'web' } },
    addressType,
    endpoints,
    ports,
  };
  defaultEndpointSlice(o);
  return o;
}

const validate = (o: KubeObject): string[] => messages(endpointSlices.strategy.validate(ctx, o));

test('discovery.k8s.io/v1 serves endpointslices, namespaced, without short names or status', () => {
  assert.deepEqual(
    discoveryV1Resources.map((r) => [
      r.info.resource,
      r.info.singular,
      r.info.kind,
      r.info.namespaced,
      r.info.shortNames ?? [],
      r.info.statusSubresource === true,
    ]),
    [['endpointslices', 'endpointslice', 'EndpointSlice', true, [], false]],
  );
});

test('ports default to name "" and protocol TCP', () => {
  const o = eps('IPv4', [], [{ port: 80 }, { name: 'dns', port: 53, protocol: 'UDP' }]);
  assert.deepEqual(o['ports'], [
    { port: 80, name: '', protocol: 'TCP' },
    { name: 'dns', port: 53, protocol: 'UDP' },
  ]);
});

test('a valid slice passes and gets generation 1; deprecatedTopology is dropped', () => {
  const o = eps(
    'IPv4',
    [
      {
        addresses: ['10.1.2.3'],
        conditions: { ready: true },
        hostname: 'web-0',
        nodeName: 'node-1',
        zone: 'us-east-1a',
        hints: { forZones: [{ name: 'us-east-1a' }] },
        deprecatedTopology: { 'kubernetes.io/hostname': 'node-1' },
      },
    ],
    [{ name: 'http', port: 80, appProtocol: 'http' }],
  );
  endpointSlices.strategy.prepareForCreate(ctx, o);
  assert.equal(o.metadata.generation, 1);
  assert.equal((o['endpoints'] as JsonObject[])[0]!['deprecatedTopology'], undefined);
  assert.deepEqual(validate(o), []);
  assert.deepEqual(endpointSlices.strategy.warningsOnCreate(ctx, o), []);
});

test('addressType: required, supported values', () => {
  assert.deepEqual(validate(eps('', [])), ['addressType: Required value']);
  assert.deepEqual(validate(eps('IP', [])), [
    'addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"',
  ]);
});

test('addresses are checked per address type', () => {
  assert.deepEqual(
    validate(
      eps('IPv4', [
        { addresses: [] },
        { addresses: ['2001:db8::1', '127.0.0.1', 'foo', '0.0.0.0', '169.254.1.1', '::ffff:10.0.0.1'] },
      ]),
    ),
    [
      'endpoints[0].addresses: Required value: must contain at least 1 address',
      'endpoints[1].addresses[0]: Invalid value: "2001:db8::1": must be a valid IPv4 address',
      'endpoints[1].addresses[1]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      'endpoints[1].addresses[2]: Invalid value: "foo": must be a valid IPv4 address',
      'endpoints[1].addresses[2]: Invalid value: "foo": must be a valid IP address',
      'endpoints[1].addresses[3]: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)',
      'endpoints[1].addresses[4]: Invalid value: "169.254.1.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
    ],
  );
  assert.deepEqual(validate(eps('IPv6', [{ addresses: ['10.0.0.1', '::1', '2001:db8::5'] }])), [
    'endpoints[0].addresses[0]: Invalid value: "10.0.0.1": must be a valid IPv6 address',
    'endpoints[0].addresses[1]: Invalid value: "::1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
  ]);
  const fqdn = eps('FQDN', [
    { addresses: ['example.com', 'example.com.', 'localhost', 'Bad.com', 'a_b.example.com'] },
  ]);
  assert.deepEqual(validate(fqdn), [
    'endpoints[0].addresses[2]: Invalid value: "localhost": should be a domain with at least two segments separated by dots',
    "endpoints[0].addresses[3]: Invalid value: \"Bad.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    "endpoints[0].addresses[4]: Invalid value: \"a_b.example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
  ]);
  assert.deepEqual(endpointSlices.strategy.warningsOnCreate(ctx, fqdn), [
    'spec.addressType: FQDN endpoints are deprecated',
  ]);
});

test('limits: 1000 endpoints, 100 addresses, 8 zone hints, 20000 ports', () => {
  const many = Array.from({ length: 1001 }, () => ({ addresses: ['10.0.0.1'] }));
  assert.deepEqual(validate(eps('IPv4', many)), ['endpoints: Too many: 1001: must have at most 1000 items']);
  const addrs = Array.from({ length: 101 }, (_, i) => `10.0.${Math.floor(i / 250)}.${(i % 250) + 1}`);
  assert.deepEqual(validate(eps('IPv4', [{ addresses: addrs }])), [
    'endpoints[0].addresses: Too many: 101: must have at most 100 items',
  ]);
  const zones = Array.from({ length: 9 }, (_, i) => ({ name: `z${i}` }));
  assert.deepEqual(validate(eps('IPv4', [{ addresses: ['10.0.0.1'], hints: { forZones: zones } }])), [
    'endpoints[0].hints.forZones: Too many: 9: must have at most 8 items',
  ]);
  const ports = Array.from({ length: 20001 }, (_, i) => ({ name: `p${i}`, port: 1 }));
  assert.deepEqual(validate(eps('IPv4', [], ports)), [
    'ports: Too many: 20001: must have at most 20000 items',
  ]);
  assert.deepEqual(validate(eps('IPv4', [], ports.slice(0, 101))), []);
});

test('endpoint fields: hostname, nodeName, zone hints', () => {
  assert.deepEqual(
    validate(
      eps('IPv4', [
        {
          addresses: ['10.0.0.1'],
          hostname: 'Web_0',
          nodeName: 'Node 1',
          hints: { forZones: [{ name: 'a' }, { name: 'a' }, { name: 'bad zone' }] },
        },
      ]),
    ),
    [
      "endpoints[0].nodeName: Invalid value: \"Node 1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      "endpoints[0].hostname: Invalid value: \"Web_0\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      'endpoints[0].hints.forZones[1].name: Duplicate value: "a"',
      "endpoints[0].hints.forZones[2].name: Invalid value: \"bad zone\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ],
  );
});

test('ports: names unique DNS labels, protocols, appProtocol qualified names', () => {
  const o = eps(
    'IPv4',
    [],
    [
      { name: 'http', port: 80 },
      { name: 'http', port: 81 },
      { port: 82 },
      { port: 83 },
      { name: 'Web', port: 84, protocol: 'ICMP' },
      { name: 'x', port: 85, appProtocol: 'bad proto' },
    ],
  );
  assert.deepEqual(validate(o), [
    'ports[1].name: Duplicate value: "http"',
    'ports[3].name: Duplicate value: ""',
    "ports[4].name: Invalid value: \"Web\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    'ports[4].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
    "ports[5].appProtocol: Invalid value: \"bad proto\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
  ]);
});

test('updates: addressType immutable; generation follows endpoints, ports and labels', () => {
  const old = eps('IPv4', [{ addresses: ['10.0.0.1'] }]);
  endpointSlices.strategy.prepareForCreate(ctx, old);
  const same = cloneJson(old);
  same.metadata.annotations = { note: 'x' };
  endpointSlices.strategy.prepareForUpdate(ctx, same, old);
  assert.equal(same.metadata.generation, 1);
  const relabelled = cloneJson(old);
  relabelled.metadata.labels = { 'kubernetes.io/service-name': 'other' };
  endpointSlices.strategy.prepareForUpdate(ctx, relabelled, old);
  assert.equal(relabelled.metadata.generation, 2);
  const moved = cloneJson(old);
  moved['addressType'] = 'IPv6';
  moved['endpoints'] = [{ addresses: ['2001:db8::1'] }];
  endpointSlices.strategy.prepareForUpdate(ctx, moved, old);
  assert.equal(moved.metadata.generation, 2);
  assert.deepEqual(messages(endpointSlices.strategy.validateUpdate(ctx, moved, old)), [
    'addressType: Invalid value: "IPv6": field is immutable',
  ]);
});
