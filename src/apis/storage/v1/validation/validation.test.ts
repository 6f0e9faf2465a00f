import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../../../machinery/object.js';
import type { JsonObject } from '../../../../util/json.js';
import { validateCSIDriver } from './csidriver.js';
import { validateCSINode } from './csinode.js';
import { validateCSIStorageCapacityUpdate } from './csistoragecapacity.js';
import { storageClassWarnings, validateStorageClass } from './storageclass.js';
import { validateVolumeAttachment } from './volumeattachment.js';

const gatesOn = { enabled: () => true };
const messages = (errs: readonly { toString(): string }[]): string[] => errs.map((e) => e.toString());
const object = (kind: string, fields: JsonObject): KubeObject => ({
  apiVersion: 'storage.k8s.io/v1',
  kind,
  metadata: { name: 'x' },
  ...fields,
});

test('StorageClass: provisioner required, parameters bounded, topology duplicates', () => {
  const big = Object.fromEntries(Array.from({ length: 513 }, (_, i) => [`k${i}`, 'v']));
  assert.deepEqual(
    messages(
      validateStorageClass(object('StorageClass', { parameters: big, volumeBindingMode: 'Immediate' })),
    ),
    ['provisioner: Required value', 'parameters: Too long: must have at most 512 bytes'],
  );
  const term = {
    matchLabelExpressions: [
      { key: 'zone', values: ['a', 'a'] },
      { key: 'zone', values: ['b'] },
    ],
  };
  assert.deepEqual(
    messages(
      validateStorageClass(
        object('StorageClass', {
          provisioner: 'p',
          volumeBindingMode: 'Immediate',
          allowedTopologies: [term, term],
        }),
      ),
    ),
    [
      'allowedTopologies[0].matchLabelExpressions[0].values[1]: Duplicate value: "a"',
      'allowedTopologies[0].matchLabelExpressions[1].key: Duplicate value: "zone"',
      'allowedTopologies[1].matchLabelExpressions[0].values[1]: Duplicate value: "a"',
      'allowedTopologies[1].matchLabelExpressions[1].key: Duplicate value: "zone"',
      'allowedTopologies[1].matchLabelExpressions: Duplicate value: ""',
    ],
  );
  // Upstream compares each term with one nil map per term first: an empty term repeats per term.
  assert.deepEqual(
    messages(
      validateStorageClass(
        object('StorageClass', {
          provisioner: 'p',
          volumeBindingMode: 'Immediate',
          allowedTopologies: [{}, {}],
        }),
      ),
    ),
    [
      'allowedTopologies[0].matchLabelExpressions: Duplicate value: ""',
      'allowedTopologies[0].matchLabelExpressions: Duplicate value: ""',
      'allowedTopologies[1].matchLabelExpressions: Duplicate value: ""',
      'allowedTopologies[1].matchLabelExpressions: Duplicate value: ""',
      'allowedTopologies[1].matchLabelExpressions: Duplicate value: ""',
    ],
  );
  assert.deepEqual(
    storageClassWarnings(
      object('StorageClass', {
        allowedTopologies: [{ matchLabelExpressions: [{ key: 'beta.kubernetes.io/os', values: ['linux'] }] }],
      }),
    ),
    [
      'allowedTopologies[0].matchLabelExpressions[0].key: deprecated since v1.14; use "kubernetes.io/os" instead',
    ],
  );
});

test('CSIDriver: required booleans (note `attachedRequired`), policies and modes', () => {
  assert.deepEqual(
    messages(
      validateCSIDriver(
        object('CSIDriver', { spec: { fsGroupPolicy: 'Any', volumeLifecycleModes: ['Other'] } }),
        gatesOn,
      ),
    ),
    [
      'spec.attachedRequired: Required value',
      'spec.podInfoOnMount: Required value',
      'spec.storageCapacity: Required value',
      'spec.fsGroupPolicy: Unsupported value: "Any": supported values: "File", "None", "ReadWriteOnceWithFSType"',
      'spec.volumeLifecycleModes: Unsupported value: "Other": supported values: "Persistent", "Ephemeral"',
      'spec.seLinuxMount: Required value',
    ],
  );
});

test('CSINode: driver names, long node IDs, negative counts', () => {
  const driver = { name: '', nodeID: 'n'.repeat(257), allocatable: { count: -1 }, topologyKeys: [''] };
  assert.deepEqual(messages(validateCSINode(object('CSINode', { spec: { drivers: [driver] } }))), [
    'spec.drivers[0].name: Required value',
    "spec.drivers[0].name: Invalid value: \"\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    `spec.drivers[0].nodeID: Invalid value: "${'n'.repeat(257)}": must be 256 characters or less`,
    'spec.drivers[0].allocatable.count: Invalid value: -1: must be greater than or equal to 0',
    'spec.drivers[0]: Required value',
    'spec.drivers[0]: Invalid value: "": name part must be non-empty',
    "spec.drivers[0]: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
  ]);
});

test('VolumeAttachment: inline spec rules, both sources forbidden', () => {
  const inline = {
    spec: { attacher: 'a', nodeName: 'n', source: { inlineVolumeSpec: { capacity: { storage: '1Gi' } } } },
  };
  assert.deepEqual(messages(validateVolumeAttachment(object('VolumeAttachment', inline))), [
    'spec.source.inlineVolumeSpec.capacity: Forbidden: may not be specified in the context of inline volumes',
    'spec.source.inlineVolumeSpec.csi: Required value: has to be specified in the context of inline volumes',
    'spec.source.inlineVolumeSpec.accessModes: Required value',
    'spec.source.inlineVolumeSpec: Required value: must specify a volume type',
  ]);
  const both = {
    spec: { attacher: 'a', nodeName: 'n', source: { inlineVolumeSpec: {}, persistentVolumeName: 'p' } },
  };
  assert.deepEqual(messages(validateVolumeAttachment(object('VolumeAttachment', both))), [
    'spec.source: Forbidden: must specify exactly one of inlineVolumeSpec and persistentVolumeName',
  ]);
});

test('CSIStorageCapacity update: a removed topology prints null', () => {
  const old = object('CSIStorageCapacity', { storageClassName: 'a', nodeTopology: {} });
  const upd = object('CSIStorageCapacity', { storageClassName: 'a' });
  assert.deepEqual(messages(validateCSIStorageCapacityUpdate(upd, old)), [
    'nodeTopology: Invalid value: "null": field is immutable',
  ]);
});
