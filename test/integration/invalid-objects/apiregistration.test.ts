/**
 * Invalid apiregistration.k8s.io/v1 APIServices and kube-aggregator v0.27's exact errors
 * (pkg/apis/apiregistration/validation).
 */
import { runTable } from './support.js';
import type { Row } from './support.js';

const rows: Row[] = [
  {
    name: 'APIService: name not version.group, priorities zero',
    kind: 'APIService',
    group: 'apiregistration.k8s.io',
    path: '/apis/apiregistration.k8s.io/v1/apiservices',
    body: {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1.example.com' },
      spec: { group: 'other.com', version: 'v2', groupPriorityMinimum: 0, versionPriority: 0 },
    },
    causes: [
      [
        'metadata.name',
        'FieldValueInvalid',
        'Invalid value: "v1.example.com": must be `spec.version+"."+spec.group`: "v2.other.com"',
      ],
      [
        'spec.groupPriorityMinimum',
        'FieldValueInvalid',
        'Invalid value: 0: must be positive and less than 20000',
      ],
      ['spec.versionPriority', 'FieldValueInvalid', 'Invalid value: 0: must be positive and less than 1000'],
    ],
  },
  {
    name: 'APIService: name mismatch, service port 0, insecureSkipTLSVerify with a caBundle',
    kind: 'APIService',
    group: 'apiregistration.k8s.io',
    path: '/apis/apiregistration.k8s.io/v1/apiservices',
    body: {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'badname' },
      spec: {
        group: 'example.com',
        version: 'v1',
        groupPriorityMinimum: 100,
        versionPriority: 10,
        insecureSkipTLSVerify: true,
        caBundle: 'YWJj',
        service: { namespace: 'ns', name: 'svc', port: 0 },
      },
    },
    causes: [
      [
        'metadata.name',
        'FieldValueInvalid',
        'Invalid value: "badname": must be `spec.version+"."+spec.group`: "v1.example.com"',
      ],
      [
        'spec.service.port',
        'FieldValueInvalid',
        'Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive',
      ],
      [
        'spec.insecureSkipTLSVerify',
        'FieldValueInvalid',
        'Invalid value: true: may not be true if caBundle is present',
      ],
    ],
  },
  {
    name: 'APIService: local with a caBundle and insecureSkipTLSVerify, version not a DNS-1035 label',
    kind: 'APIService',
    group: 'apiregistration.k8s.io',
    path: '/apis/apiregistration.k8s.io/v1/apiservices',
    body: {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'V1.example.com' },
      spec: {
        group: 'example.com',
        version: 'V1',
        groupPriorityMinimum: 100,
        versionPriority: 10,
        insecureSkipTLSVerify: true,
        caBundle: 'YWJj',
      },
    },
    causes: [
      [
        'spec.version',
        'FieldValueInvalid',
        "Invalid value: \"V1\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      ],
      [
        'spec.caBundle',
        'FieldValueInvalid',
        'Invalid value: "3 bytes": local APIServices may not have a caBundle',
      ],
      [
        'spec.insecureSkipTLSVerify',
        'FieldValueInvalid',
        'Invalid value: true: local APIServices may not have insecureSkipTLSVerify',
      ],
    ],
  },
  {
    name: 'APIService: empty group for a version other than v1, service without namespace and name',
    kind: 'APIService',
    group: 'apiregistration.k8s.io',
    path: '/apis/apiregistration.k8s.io/v1/apiservices',
    body: {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v2.' },
      spec: { version: 'v2', groupPriorityMinimum: 100, versionPriority: 10, service: {} },
    },
    causes: [
      [
        'spec.group',
        'FieldValueRequired',
        'Required value: only v1 may have an empty group and it better be legacy kube',
      ],
      ['spec.service.namespace', 'FieldValueRequired', 'Required value'],
      ['spec.service.name', 'FieldValueRequired', 'Required value'],
    ],
  },
];

runTable('invalid objects: apiregistration.k8s.io/v1', rows);
