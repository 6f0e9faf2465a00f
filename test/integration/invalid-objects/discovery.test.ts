/**
 * Invalid discovery.k8s.io/v1 EndpointSlices and v1.27's exact errors
 * (pkg/apis/discovery/validation).
 */
import { runTable } from './support.js';
import type { Row } from './support.js';

const rows: Row[] = [
  {
    name: 'EndpointSlice: unsupported address type',
    kind: 'EndpointSlice',
    group: 'discovery.k8s.io',
    path: '/apis/discovery.k8s.io/v1/namespaces/invalid/endpointslices',
    body: {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'es' },
      addressType: 'IPv5',
      endpoints: [],
    },
    causes: [
      [
        'addressType',
        'FieldValueNotSupported',
        'Unsupported value: "IPv5": supported values: "FQDN", "IPv4", "IPv6"',
      ],
    ],
  },
  {
    name: 'EndpointSlice: empty addresses, bad IPv4, node name, hostname, port name, protocol, duplicate port, app protocol',
    kind: 'EndpointSlice',
    group: 'discovery.k8s.io',
    path: '/apis/discovery.k8s.io/v1/namespaces/invalid/endpointslices',
    body: {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'es2' },
      addressType: 'IPv4',
      endpoints: [
        { addresses: [] },
        { addresses: ['10.0.0.300'], hostname: 'Bad_Host', nodeName: 'Bad_Node' },
      ],
      ports: [
        { name: 'Bad_Port', port: 0, protocol: 'ICMP' },
        { name: 'p', port: 80 },
        { name: 'p', port: 81, appProtocol: 'not a/valid/protocol' },
      ],
    },
    causes: [
      ['endpoints[0].addresses', 'FieldValueRequired', 'Required value: must contain at least 1 address'],
      [
        'endpoints[1].addresses[0]',
        'FieldValueInvalid',
        'Invalid value: "10.0.0.300": must be a valid IPv4 address',
      ],
      [
        'endpoints[1].addresses[0]',
        'FieldValueInvalid',
        'Invalid value: "10.0.0.300": must be a valid IP address',
      ],
      [
        'endpoints[1].nodeName',
        'FieldValueInvalid',
        "Invalid value: \"Bad_Node\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
      [
        'endpoints[1].hostname',
        'FieldValueInvalid',
        "Invalid value: \"Bad_Host\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
      [
        'ports[0].name',
        'FieldValueInvalid',
        "Invalid value: \"Bad_Port\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
      [
        'ports[0].protocol',
        'FieldValueNotSupported',
        'Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
      ],
      ['ports[2].name', 'FieldValueDuplicate', 'Duplicate value: "p"'],
      [
        'ports[2].appProtocol',
        'FieldValueInvalid',
        "Invalid value: \"not a/valid/protocol\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
      ],
    ],
  },
  {
    name: 'EndpointSlice: FQDN address not a domain',
    kind: 'EndpointSlice',
    group: 'discovery.k8s.io',
    path: '/apis/discovery.k8s.io/v1/namespaces/invalid/endpointslices',
    body: {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'es3' },
      addressType: 'FQDN',
      endpoints: [{ addresses: ['Not_A_Domain'] }],
    },
    causes: [
      [
        'endpoints[0].addresses[0]',
        'FieldValueInvalid',
        "Invalid value: \"Not_A_Domain\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    ],
  },
  {
    name: 'EndpointSlice: IPv6 slice with an IPv4 address, duplicate zone hints',
    kind: 'EndpointSlice',
    group: 'discovery.k8s.io',
    path: '/apis/discovery.k8s.io/v1/namespaces/invalid/endpointslices',
    body: {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'es4' },
      addressType: 'IPv6',
      endpoints: [{ addresses: ['10.0.0.1'], hints: { forZones: [{ name: 'a' }, { name: 'a' }] } }],
    },
    causes: [
      [
        'endpoints[0].addresses[0]',
        'FieldValueInvalid',
        'Invalid value: "10.0.0.1": must be a valid IPv6 address',
      ],
      ['endpoints[0].hints.forZones[1].name', 'FieldValueDuplicate', 'Duplicate value: "a"'],
    ],
  },
];

runTable('invalid objects: discovery.k8s.io/v1', rows);
