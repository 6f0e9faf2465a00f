/**
 * Invalid apiextensions.k8s.io/v1 CustomResourceDefinitions and the errors of
 * apiextensions-apiserver v0.27 (pkg/apis/apiextensions/validation) for the metadata and spec rules
 * nanokube checks (no structural-schema or CEL validation yet).
 */
import { runTable } from './support.js';
import type { Row } from './support.js';

const rows: Row[] = [
  {
    name: 'CRD: name not plural.group, unknown scope, no versions, no stored version',
    kind: 'CustomResourceDefinition',
    group: 'apiextensions.k8s.io',
    path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    body: {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'other.com',
        scope: 'Galaxy',
        names: { plural: 'gadgets', kind: 'Gadget' },
        versions: [],
      },
    },
    causes: [
      [
        'metadata.name',
        'FieldValueInvalid',
        'Invalid value: "widgets.example.com": must be spec.names.plural+"."+spec.group',
      ],
      [
        'spec.scope',
        'FieldValueNotSupported',
        'Unsupported value: "Galaxy": supported values: "Cluster", "Namespaced"',
      ],
      [
        'spec.versions',
        'FieldValueInvalid',
        'Invalid value: []apiextensions.CustomResourceDefinitionVersion{}: must have exactly one version marked as storage version',
      ],
      [
        'status.storedVersions',
        'FieldValueInvalid',
        'Invalid value: []string(nil): must have at least one stored version',
      ],
    ],
  },
  {
    name: 'CRD: group without a dot, kind equal to listKind',
    kind: 'CustomResourceDefinition',
    group: 'apiextensions.k8s.io',
    path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    body: {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'things' },
      spec: {
        group: 'example',
        scope: 'Cluster',
        names: { plural: 'things', kind: 'thing', listKind: 'thing' },
        versions: [
          { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
        ],
      },
    },
    causes: [
      [
        'metadata.name',
        'FieldValueInvalid',
        'Invalid value: "things": must be spec.names.plural+"."+spec.group',
      ],
      [
        'spec.group',
        'FieldValueInvalid',
        'Invalid value: "example": should be a domain with at least one dot',
      ],
      [
        'spec.names.listKind',
        'FieldValueInvalid',
        'Invalid value: "thing": kind and listKind may not be the same',
      ],
    ],
  },
  {
    name: 'CRD: versions without schemas, a version name not a DNS-1035 label, none stored',
    kind: 'CustomResourceDefinition',
    group: 'apiextensions.k8s.io',
    path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    body: {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', kind: 'Widget' },
        versions: [
          { name: 'v1', served: true, storage: false },
          { name: 'V2', served: false, storage: false },
        ],
      },
    },
    causes: [
      [
        'spec.versions[0].schema.openAPIV3Schema',
        'FieldValueRequired',
        'Required value: schemas are required',
      ],
      [
        'spec.versions[1].schema.openAPIV3Schema',
        'FieldValueRequired',
        'Required value: schemas are required',
      ],
      [
        'spec.versions[1].name',
        'FieldValueInvalid',
        "Invalid value: \"V2\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      ],
      [
        'spec.versions',
        'FieldValueInvalid',
        'Invalid value: []apiextensions.CustomResourceDefinitionVersion{apiextensions.CustomResourceDefinitionVersion{Name:"v1", Served:true, Storage:false, Deprecated:false, DeprecationWarning:(*string)(nil), Schema:(*apiextensions.CustomResourceValidation)(nil), Subresources:(*apiextensions.CustomResourceSubresources)(nil), AdditionalPrinterColumns:[]apiextensions.CustomResourceColumnDefinition(nil)}, apiextensions.CustomResourceDefinitionVersion{Name:"V2", Served:false, Storage:false, Deprecated:false, DeprecationWarning:(*string)(nil), Schema:(*apiextensions.CustomResourceValidation)(nil), Subresources:(*apiextensions.CustomResourceSubresources)(nil), AdditionalPrinterColumns:[]apiextensions.CustomResourceColumnDefinition(nil)}}: must have exactly one version marked as storage version',
      ],
      [
        'status.storedVersions',
        'FieldValueInvalid',
        'Invalid value: []string(nil): must have at least one stored version',
      ],
    ],
  },
  {
    name: 'CRD: plural, singular and a short name not DNS-1035 labels (a mixed-case kind is fine)',
    kind: 'CustomResourceDefinition',
    group: 'apiextensions.k8s.io',
    path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    body: {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'Widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'Widgets', singular: 'Widget', kind: 'widget-kind', shortNames: ['W S'] },
        versions: [
          { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
        ],
      },
    },
    causes: [
      [
        'metadata.name',
        'FieldValueInvalid',
        "Invalid value: \"Widgets.example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
      [
        'spec.names.plural',
        'FieldValueInvalid',
        "Invalid value: \"Widgets\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      ],
      [
        'spec.names.singular',
        'FieldValueInvalid',
        "Invalid value: \"Widget\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      ],
      [
        'spec.names.shortNames[0]',
        'FieldValueInvalid',
        "Invalid value: \"W S\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
  },
];

runTable('invalid objects: apiextensions.k8s.io/v1', rows);
