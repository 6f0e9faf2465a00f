/**
 * Invalid storage.k8s.io/v1 CSIDrivers, CSINodes, CSIStorageCapacities and
 * VolumeAttachments and v1.27's exact errors (pkg/apis/storage/validation).
 */
import { runTable } from './support.js';
import type { Row } from './support.js';

const rows: Row[] = [
  {
    name: 'CSIDriver: bad name, fsGroupPolicy, duplicate token audience, lifecycle mode',
    kind: 'CSIDriver',
    group: 'storage.k8s.io',
    path: '/apis/storage.k8s.io/v1/csidrivers',
    body: {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIDriver',
      metadata: { name: 'Bad_Driver' },
      spec: {
        volumeLifecycleModes: ['Forever'],
        fsGroupPolicy: 'Sometimes',
        tokenRequests: [{ audience: 'a' }, { audience: 'a', expirationSeconds: 60 }],
      },
    },
    causes: [
      [
        'metadata.name',
        'FieldValueInvalid',
        "Invalid value: \"Bad_Driver\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
      [
        'spec.fsGroupPolicy',
        'FieldValueNotSupported',
        'Unsupported value: "Sometimes": supported values: "File", "None", "ReadWriteOnceWithFSType"',
      ],
      ['spec.tokenRequests[1].audience', 'FieldValueDuplicate', 'Duplicate value: "a"'],
      [
        'spec.volumeLifecycleModes',
        'FieldValueNotSupported',
        'Unsupported value: "Forever": supported values: "Persistent", "Ephemeral"',
      ],
    ],
  },
  {
    name: 'CSIDriver: token expiration under ten minutes',
    kind: 'CSIDriver',
    group: 'storage.k8s.io',
    path: '/apis/storage.k8s.io/v1/csidrivers',
    body: {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIDriver',
      metadata: { name: 'csi.example.com' },
      spec: { tokenRequests: [{ audience: 'a', expirationSeconds: 60 }] },
    },
    causes: [
      [
        'spec.tokenRequests[0].expirationSeconds',
        'FieldValueInvalid',
        'Invalid value: 60: may not specify a duration less than 10 minutes',
      ],
    ],
  },
  {
    name: 'CSINode: negative allocatable count, duplicate driver, bad topology key',
    kind: 'CSINode',
    group: 'storage.k8s.io',
    path: '/apis/storage.k8s.io/v1/csinodes',
    body: {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSINode',
      metadata: { name: 'n1' },
      spec: {
        drivers: [
          { name: 'csi.example.com', nodeID: 'x', allocatable: { count: -1 } },
          { name: 'csi.example.com', nodeID: 'y', topologyKeys: ['Bad Key'] },
        ],
      },
    },
    causes: [
      [
        'spec.drivers[0].allocatable.count',
        'FieldValueInvalid',
        'Invalid value: -1: must be greater than or equal to 0',
      ],
      ['spec.drivers[1].name', 'FieldValueDuplicate', 'Duplicate value: "csi.example.com"'],
      [
        'spec.drivers[1]',
        'FieldValueInvalid',
        "Invalid value: \"Bad Key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ],
    ],
  },
  {
    name: 'CSINode: driver name missing and node ID required',
    kind: 'CSINode',
    group: 'storage.k8s.io',
    path: '/apis/storage.k8s.io/v1/csinodes',
    body: {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSINode',
      metadata: { name: 'n2' },
      spec: { drivers: [{ name: '', nodeID: '' }] },
    },
    causes: [
      ['spec.drivers[0].name', 'FieldValueRequired', 'Required value'],
      [
        'spec.drivers[0].name',
        'FieldValueInvalid',
        "Invalid value: \"\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
      ['spec.drivers[0].nodeID', 'FieldValueRequired', 'Required value'],
    ],
  },
  {
    name: 'CSIStorageCapacity: bad class name, negative capacity, bad topology label',
    kind: 'CSIStorageCapacity',
    group: 'storage.k8s.io',
    path: '/apis/storage.k8s.io/v1/namespaces/invalid/csistoragecapacities',
    body: {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIStorageCapacity',
      metadata: { name: 'cap' },
      storageClassName: 'Bad_Class',
      capacity: '-1Gi',
      nodeTopology: { matchLabels: { a: 'b b' } },
    },
    causes: [
      [
        'nodeTopology.matchLabels',
        'FieldValueInvalid',
        "Invalid value: \"b b\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      ],
      [
        'storageClassName',
        'FieldValueInvalid',
        "Invalid value: \"Bad_Class\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
      ['capacity', 'FieldValueInvalid', 'Invalid value: "-1Gi": must be greater than or equal to 0'],
    ],
  },
  {
    name: 'CSIStorageCapacity: storage class name missing, negative maximum volume size',
    kind: 'CSIStorageCapacity',
    group: 'storage.k8s.io',
    path: '/apis/storage.k8s.io/v1/namespaces/invalid/csistoragecapacities',
    body: {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIStorageCapacity',
      metadata: { name: 'cap2' },
      maximumVolumeSize: '-2',
    },
    causes: [
      [
        'storageClassName',
        'FieldValueInvalid',
        "Invalid value: \"\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    ],
  },
  {
    name: 'VolumeAttachment: attacher missing, both sources, node name empty',
    kind: 'VolumeAttachment',
    group: 'storage.k8s.io',
    path: '/apis/storage.k8s.io/v1/volumeattachments',
    body: {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttachment',
      metadata: { name: 'va' },
      spec: {
        attacher: '',
        source: { persistentVolumeName: 'pv', inlineVolumeSpec: { csi: { driver: 'd', volumeHandle: 'h' } } },
        nodeName: '',
      },
    },
    causes: [
      ['spec.attacher', 'FieldValueRequired', 'Required value'],
      [
        'spec.source',
        'FieldValueForbidden',
        'Forbidden: must specify exactly one of inlineVolumeSpec and persistentVolumeName',
      ],
      [
        'spec.nodeName',
        'FieldValueInvalid',
        "Invalid value: \"\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
      ['spec.attacher', 'FieldValueRequired', 'Required value'],
      [
        'spec.attacher',
        'FieldValueInvalid',
        "Invalid value: \"\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    ],
  },
  {
    name: 'VolumeAttachment: persistent volume name not a DNS subdomain',
    kind: 'VolumeAttachment',
    group: 'storage.k8s.io',
    path: '/apis/storage.k8s.io/v1/volumeattachments',
    body: {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttachment',
      metadata: { name: 'va2' },
      spec: { attacher: 'csi.example.com', source: { persistentVolumeName: 'Bad_PV' }, nodeName: 'n1' },
    },
    causes: [
      [
        'spec.source.persistentVolumeName',
        'FieldValueInvalid',
        "Invalid value: \"Bad_PV\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    ],
  },
  {
    name: 'VolumeAttachment: inline volume spec that is not CSI',
    kind: 'VolumeAttachment',
    group: 'storage.k8s.io',
    path: '/apis/storage.k8s.io/v1/volumeattachments',
    body: {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttachment',
      metadata: { name: 'va3' },
      spec: {
        attacher: 'csi.example.com',
        source: { inlineVolumeSpec: { hostPath: { path: '/x' } } },
        nodeName: 'n1',
      },
    },
    causes: [
      [
        'spec.source.inlineVolumeSpec.csi',
        'FieldValueRequired',
        'Required value: has to be specified in the context of inline volumes',
      ],
      ['spec.source.inlineVolumeSpec.accessModes', 'FieldValueRequired', 'Required value'],
    ],
  },
];

runTable('invalid objects: storage.k8s.io/v1', rows);
