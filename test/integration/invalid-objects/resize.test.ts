/**
 * AM-01: in-place pod vertical scaling (InPlacePodVerticalScaling on) and v1.27's exact
 * errors (pkg/apis/core/validation validateResizePolicy, ValidatePodUpdate's QoS check).
 */
import { runTable } from './support.js';
import type { Row } from './support.js';

const server = { featureGates: { InPlacePodVerticalScaling: true } };
const path = '/api/v1/namespaces/invalid/pods';

function pod(name: string, container: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers: [{ name: 'c', image: 'nginx', ...container }] },
  };
}

const rows: Row[] = [
  {
    name: 'Pod: resizePolicy with a repeated resource',
    server,
    kind: 'Pod',
    path,
    body: pod('dup', {
      resizePolicy: [
        { resourceName: 'cpu', restartPolicy: 'NotRequired' },
        { resourceName: 'cpu', restartPolicy: 'RestartContainer' },
      ],
    }),
    causes: [['spec.containers[0].resizePolicy[1]', 'FieldValueDuplicate', 'Duplicate value: "cpu"']],
  },
  {
    name: 'Pod: resizePolicy with an unsupported resource and restart policy',
    server,
    kind: 'Pod',
    path,
    body: pod('unsupported', { resizePolicy: [{ resourceName: 'nvidia.com/gpu', restartPolicy: 'Never' }] }),
    causes: [
      [
        'spec.containers[0].resizePolicy',
        'FieldValueNotSupported',
        'Unsupported value: "nvidia.com/gpu": supported values: "cpu", "memory"',
      ],
      [
        'spec.containers[0].resizePolicy',
        'FieldValueNotSupported',
        'Unsupported value: "Never": supported values: "NotRequired", "RestartContainer"',
      ],
    ],
  },
  {
    name: 'Pod: resizePolicy without resource name and restart policy',
    server,
    kind: 'Pod',
    path,
    body: pod('empty', { resizePolicy: [{ resourceName: '', restartPolicy: '' }] }),
    causes: [
      ['spec.containers[0].resizePolicy', 'FieldValueRequired', 'Required value'],
      ['spec.containers[0].resizePolicy', 'FieldValueRequired', 'Required value'],
    ],
  },
  {
    name: 'Pod update: a resize that changes the QoS class (BestEffort → Burstable)',
    server,
    kind: 'Pod',
    path,
    body: pod('besteffort', {}),
    update: {
      mergePatch: {
        spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { memory: '400Mi' } } }] },
      },
    },
    causes: [['metadata', 'FieldValueInvalid', 'Invalid value: "BestEffort": Pod QoS is immutable']],
  },
  {
    name: 'Pod update: a resize that changes the QoS class (Guaranteed → Burstable)',
    server,
    kind: 'Pod',
    path,
    body: pod('guaranteed', { resources: { limits: { cpu: '1', memory: '1Gi' } } }),
    update: (created) => {
      const spec = created['spec'] as { containers: { resources: { limits: Record<string, string> } }[] };
      spec.containers[0]!.resources.limits['cpu'] = '2';
      return created;
    },
    causes: [['metadata', 'FieldValueInvalid', 'Invalid value: "Guaranteed": Pod QoS is immutable']],
  },
];

runTable('in-place pod resize (AM-01)', rows);
