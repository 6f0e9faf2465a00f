/**
 * Invalid admissionregistration.k8s.io/v1 webhook configurations and v1.27's exact errors
 * (pkg/apis/admissionregistration/validation, k8s.io/apiserver's webhook URL and service checks).
 */
import { runTable } from './support.js';
import type { Row } from './support.js';

const rows: Row[] = [
  {
    name: 'validating webhook: short name, bad operation, missing sideEffects, timeout, clientConfig and review versions',
    kind: 'ValidatingWebhookConfiguration',
    group: 'admissionregistration.k8s.io',
    path: '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
    body: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'vwc' },
      webhooks: [
        {
          name: 'short.name',
          clientConfig: {},
          timeoutSeconds: 31,
          rules: [{ operations: ['GET'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
        },
      ],
    },
    causes: [
      [
        'webhooks[0].name',
        'FieldValueInvalid',
        'Invalid value: "short.name": should be a domain with at least three segments separated by dots',
      ],
      [
        'webhooks[0].rules[0].operations[0]',
        'FieldValueNotSupported',
        'Unsupported value: "GET": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
      ],
      [
        'webhooks[0].sideEffects',
        'FieldValueRequired',
        'Required value: must specify one of None, NoneOnDryRun',
      ],
      [
        'webhooks[0].timeoutSeconds',
        'FieldValueInvalid',
        'Invalid value: 31: the timeout value must be between 1 and 30 seconds',
      ],
      [
        'webhooks[0].clientConfig',
        'FieldValueRequired',
        'Required value: exactly one of url or service is required',
      ],
      [
        'webhooks[0].admissionReviewVersions',
        'FieldValueRequired',
        'Required value: must specify one of v1, v1beta1',
      ],
    ],
  },
  {
    name: 'validating webhook: side effects Some, http URL with query, unknown review version, bad service, duplicate names',
    kind: 'ValidatingWebhookConfiguration',
    group: 'admissionregistration.k8s.io',
    path: '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
    body: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'vwc2' },
      webhooks: [
        {
          name: 'a.b.c',
          sideEffects: 'Some',
          admissionReviewVersions: ['v2'],
          clientConfig: { url: 'http://example.com/x?y=1' },
        },
        {
          name: 'a.b.c',
          sideEffects: 'None',
          admissionReviewVersions: ['v1', 'v1'],
          clientConfig: { service: { name: 's', namespace: 'n', path: 'no-slash', port: 70000 } },
        },
      ],
    },
    causes: [
      [
        'webhooks[0].sideEffects',
        'FieldValueNotSupported',
        'Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
      ],
      [
        'webhooks[0].clientConfig.url',
        'FieldValueInvalid',
        'Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
      ],
      [
        'webhooks[0].clientConfig.url',
        'FieldValueInvalid',
        'Invalid value: "y=1": query parameters are not permitted in the URL',
      ],
      [
        'webhooks[0].admissionReviewVersions',
        'FieldValueInvalid',
        'Invalid value: []string{"v2"}: must include at least one of v1, v1beta1',
      ],
      [
        'webhooks[1].clientConfig.service.port',
        'FieldValueInvalid',
        'Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
      ],
      [
        'webhooks[1].clientConfig.service.path',
        'FieldValueInvalid',
        'Invalid value: "no-slash": must start with a \'/\'',
      ],
      [
        'webhooks[1].admissionReviewVersions[1]',
        'FieldValueInvalid',
        'Invalid value: "v1": duplicate version',
      ],
      ['webhooks[1].name', 'FieldValueDuplicate', 'Duplicate value: "a.b.c"'],
    ],
  },
  {
    name: 'validating webhook: URL with user info and fragment, service path with an empty segment',
    kind: 'ValidatingWebhookConfiguration',
    group: 'admissionregistration.k8s.io',
    path: '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
    body: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'vwc3' },
      webhooks: [
        {
          name: 'a.example.com',
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          clientConfig: { url: 'https://user:pw@example.com/x#frag' },
        },
        {
          name: 'b.example.com',
          sideEffects: 'NoneOnDryRun',
          admissionReviewVersions: ['v1beta1'],
          clientConfig: { service: { name: 's', namespace: 'n', path: '/a//b' } },
        },
      ],
    },
    causes: [
      [
        'webhooks[0].clientConfig.url',
        'FieldValueInvalid',
        'Invalid value: "user:pw": user information is not permitted in the URL',
      ],
      [
        'webhooks[0].clientConfig.url',
        'FieldValueInvalid',
        'Invalid value: "frag": fragments are not permitted in the URL',
      ],
      [
        'webhooks[1].clientConfig.service.path',
        'FieldValueInvalid',
        'Invalid value: "/a//b": segment[1] may not be empty',
      ],
    ],
  },
  {
    name: 'mutating webhook: failure, match and reinvocation policies, selector without values',
    kind: 'MutatingWebhookConfiguration',
    group: 'admissionregistration.k8s.io',
    path: '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations',
    body: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'mwc' },
      webhooks: [
        {
          name: 'm.example.com',
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          reinvocationPolicy: 'Always',
          failurePolicy: 'Maybe',
          matchPolicy: 'Fuzzy',
          clientConfig: { service: { name: 's', namespace: 'n' } },
          namespaceSelector: { matchExpressions: [{ key: 'a', operator: 'In' }] },
        },
      ],
    },
    causes: [
      [
        'webhooks[0].failurePolicy',
        'FieldValueNotSupported',
        'Unsupported value: "Maybe": supported values: "Fail", "Ignore"',
      ],
      [
        'webhooks[0].matchPolicy',
        'FieldValueNotSupported',
        'Unsupported value: "Fuzzy": supported values: "Equivalent", "Exact"',
      ],
      [
        'webhooks[0].namespaceSelector.matchExpressions[0].values',
        'FieldValueRequired',
        "Required value: must be specified when `operator` is 'In' or 'NotIn'",
      ],
      [
        'webhooks[0].reinvocationPolicy',
        'FieldValueNotSupported',
        'Unsupported value: "Always": supported values: "IfNeeded", "Never"',
      ],
    ],
  },
  {
    name: "mutating webhook rules: '*' with other operations, no apiGroups, unknown scope",
    kind: 'MutatingWebhookConfiguration',
    group: 'admissionregistration.k8s.io',
    path: '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations',
    body: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'mwc2' },
      webhooks: [
        {
          name: 'm.example.com',
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          clientConfig: { url: 'https://example.com' },
          rules: [
            {
              operations: ['*', 'CREATE'],
              apiGroups: [],
              apiVersions: ['v1'],
              resources: ['pods/*', '*/status'],
              scope: 'Everywhere',
            },
          ],
        },
      ],
    },
    causes: [
      [
        'webhooks[0].rules[0].operations',
        'FieldValueInvalid',
        'Invalid value: []admissionregistration.OperationType{"*", "CREATE"}: if \'*\' is present, must not specify other operations',
      ],
      ['webhooks[0].rules[0].apiGroups', 'FieldValueRequired', 'Required value'],
      [
        'webhooks[0].rules[0].scope',
        'FieldValueNotSupported',
        'Unsupported value: "Everywhere": supported values: "*", "Cluster", "Namespaced"',
      ],
    ],
  },
  {
    name: 'mutating webhook: missing name, resources overlap and a bad object selector label',
    kind: 'MutatingWebhookConfiguration',
    group: 'admissionregistration.k8s.io',
    path: '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations',
    body: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'mwc3' },
      webhooks: [
        {
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          clientConfig: { url: 'https://example.com' },
          objectSelector: { matchLabels: { a: 'b b' } },
          rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['*', 'pods'] }],
        },
      ],
    },
    causes: [
      ['webhooks[0].name', 'FieldValueRequired', 'Required value'],
      [
        'webhooks[0].rules[0].resources',
        'FieldValueInvalid',
        'Invalid value: []string{"*", "pods"}: if \'*\' is present, must not specify other resources without subresources',
      ],
      [
        'webhooks[0].objectSelector.matchLabels',
        'FieldValueInvalid',
        "Invalid value: \"b b\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      ],
    ],
  },
];

runTable('invalid objects: admissionregistration.k8s.io/v1', rows);
