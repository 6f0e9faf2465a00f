/**
 * Invalid flowcontrol.apiserver.k8s.io/v1beta3 FlowSchemas and PriorityLevelConfigurations
 * and v1.27's exact errors (pkg/apis/flowcontrol/validation).
 */
import { runTable } from './support.js';
import type { Row } from './support.js';

const rows: Row[] = [
  {
    name: 'FlowSchema: precedence too high, unknown distinguisher, no priority level, empty subjects and verbs',
    kind: 'FlowSchema',
    group: 'flowcontrol.apiserver.k8s.io',
    path: '/apis/flowcontrol.apiserver.k8s.io/v1beta3/flowschemas',
    body: {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3',
      kind: 'FlowSchema',
      metadata: { name: 'fs' },
      spec: {
        priorityLevelConfiguration: { name: '' },
        matchingPrecedence: 20000,
        distinguisherMethod: { type: 'ByHost' },
        rules: [
          {
            subjects: [],
            resourceRules: [{ verbs: [], apiGroups: ['*'], resources: ['*'], namespaces: ['*'] }],
          },
        ],
      },
    },
    causes: [
      [
        'spec.matchingPrecedence',
        'FieldValueInvalid',
        'Invalid value: 20000: must not be greater than 10000',
      ],
      [
        'spec.distinguisherMethod.type',
        'FieldValueNotSupported',
        'Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:"ByHost"}: supported values: "ByNamespace", "ByUser"',
      ],
      [
        'spec.priorityLevelConfiguration.name',
        'FieldValueRequired',
        'Required value: must reference a priority level',
      ],
      [
        'spec.rules[0].subjects',
        'FieldValueRequired',
        'Required value: subjects must contain at least one value',
      ],
      [
        'spec.rules[0].resourceRules[0].verbs',
        'FieldValueRequired',
        'Required value: verbs must contain at least one value',
      ],
    ],
  },
  {
    name: 'FlowSchema: user subject without user, unknown subject kind, non-resource URL without slash',
    kind: 'FlowSchema',
    group: 'flowcontrol.apiserver.k8s.io',
    path: '/apis/flowcontrol.apiserver.k8s.io/v1beta3/flowschemas',
    body: {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3',
      kind: 'FlowSchema',
      metadata: { name: 'fs2' },
      spec: {
        priorityLevelConfiguration: { name: 'global-default' },
        rules: [
          {
            subjects: [{ kind: 'User' }, { kind: 'Robot' }],
            nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['noslash'] }],
          },
        ],
      },
    },
    causes: [
      [
        'spec.rules[0].subjects[0].user',
        'FieldValueRequired',
        "Required value: user is required when subject kind is 'User'",
      ],
      [
        'spec.rules[0].subjects[1].kind',
        'FieldValueNotSupported',
        'Unsupported value: "Robot": supported values: "Group", "ServiceAccount", "User"',
      ],
      [
        'spec.rules[0].nonResourceRules[0].nonResourceURLs[0]',
        'FieldValueInvalid',
        'Invalid value: "noslash": must start with slash',
      ],
    ],
  },
  {
    name: 'FlowSchema: precedence 1 for a schema not named exempt, rule with neither resource nor non-resource rules',
    kind: 'FlowSchema',
    group: 'flowcontrol.apiserver.k8s.io',
    path: '/apis/flowcontrol.apiserver.k8s.io/v1beta3/flowschemas',
    body: {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3',
      kind: 'FlowSchema',
      metadata: { name: 'fs3' },
      spec: {
        priorityLevelConfiguration: { name: 'global-default' },
        matchingPrecedence: 1,
        rules: [{ subjects: [{ kind: 'Group', group: { name: 'g' } }] }],
      },
    },
    causes: [
      [
        'spec.matchingPrecedence',
        'FieldValueInvalid',
        "Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1",
      ],
      [
        'spec.rules[0]',
        'FieldValueRequired',
        'Required value: at least one of resourceRules and nonResourceRules has to be non-empty',
      ],
    ],
  },
  {
    name: 'PriorityLevelConfiguration: Exempt type for another name, limited set',
    kind: 'PriorityLevelConfiguration',
    group: 'flowcontrol.apiserver.k8s.io',
    path: '/apis/flowcontrol.apiserver.k8s.io/v1beta3/prioritylevelconfigurations',
    body: {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3',
      kind: 'PriorityLevelConfiguration',
      metadata: { name: 'plc' },
      spec: { type: 'Exempt', limited: { nominalConcurrencyShares: 5 } },
    },
    causes: [
      [
        'spec.type',
        'FieldValueInvalid',
        "Invalid value: \"Exempt\": type must be 'Exempt' if and only if name is 'exempt'",
      ],
      ['spec.limited', 'FieldValueForbidden', 'Forbidden: must be nil if the type is not Limited'],
    ],
  },
  {
    name: 'PriorityLevelConfiguration: hand size over queues, lendable percent over 100',
    kind: 'PriorityLevelConfiguration',
    group: 'flowcontrol.apiserver.k8s.io',
    path: '/apis/flowcontrol.apiserver.k8s.io/v1beta3/prioritylevelconfigurations',
    body: {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3',
      kind: 'PriorityLevelConfiguration',
      metadata: { name: 'plc2' },
      spec: {
        type: 'Limited',
        limited: {
          nominalConcurrencyShares: 5,
          lendablePercent: 101,
          limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 100, queueLengthLimit: 0 } },
        },
      },
    },
    causes: [
      [
        'spec.limited.limitResponse.queuing.handSize',
        'FieldValueInvalid',
        'Invalid value: 100: should not be greater than queues (64)',
      ],
      [
        'spec.limited.lendablePercent',
        'FieldValueInvalid',
        'Invalid value: 101: must be between 0 and 100, inclusive',
      ],
    ],
  },
  {
    name: 'PriorityLevelConfiguration: Reject with queuing',
    kind: 'PriorityLevelConfiguration',
    group: 'flowcontrol.apiserver.k8s.io',
    path: '/apis/flowcontrol.apiserver.k8s.io/v1beta3/prioritylevelconfigurations',
    body: {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3',
      kind: 'PriorityLevelConfiguration',
      metadata: { name: 'plc3' },
      spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject', queuing: { queues: 1 } } } },
    },
    causes: [
      [
        'spec.limited.limitResponse.queuing',
        'FieldValueForbidden',
        'Forbidden: must be nil if limited.limitResponse.type is not Limited',
      ],
    ],
  },
  {
    name: 'PriorityLevelConfiguration: Limited without limited, then unknown type',
    kind: 'PriorityLevelConfiguration',
    group: 'flowcontrol.apiserver.k8s.io',
    path: '/apis/flowcontrol.apiserver.k8s.io/v1beta3/prioritylevelconfigurations',
    body: {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3',
      kind: 'PriorityLevelConfiguration',
      metadata: { name: 'plc4' },
      spec: { type: 'Sometimes' },
    },
    causes: [
      [
        'spec.type',
        'FieldValueNotSupported',
        'Unsupported value: "Sometimes": supported values: "Exempt", "Limited"',
      ],
    ],
  },
  {
    name: 'PriorityLevelConfiguration: too many queues, negative borrowing limit',
    kind: 'PriorityLevelConfiguration',
    group: 'flowcontrol.apiserver.k8s.io',
    path: '/apis/flowcontrol.apiserver.k8s.io/v1beta3/prioritylevelconfigurations',
    body: {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3',
      kind: 'PriorityLevelConfiguration',
      metadata: { name: 'plc5' },
      spec: {
        type: 'Limited',
        limited: {
          borrowingLimitPercent: -1,
          limitResponse: { type: 'Queue', queuing: { queues: 513, handSize: 8 } },
        },
      },
    },
    causes: [
      [
        'spec.limited.limitResponse.queuing.handSize',
        'FieldValueInvalid',
        'Invalid value: 8: required entropy bits of deckSize 513 and handSize 8 should not be greater than 60',
      ],
      [
        'spec.limited.borrowingLimitPercent',
        'FieldValueInvalid',
        'Invalid value: -1: if specified, must be a non-negative integer',
      ],
    ],
  },
];

runTable('invalid objects: flowcontrol.apiserver.k8s.io/v1beta3', rows);
