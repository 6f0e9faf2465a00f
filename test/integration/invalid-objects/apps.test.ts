/** Invalid apps/v1 objects and v1.27's exact field errors (pkg/apis/apps/validation). */
import { runTable } from './support.js';
import type { Manifest, Row } from './support.js';

const ns = '/apis/apps/v1/namespaces/invalid';
const template = {
  metadata: { labels: { app: 'a' } },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
};

function workload(kind: string, name: string, spec: Record<string, unknown>): Manifest {
  return {
    apiVersion: 'apps/v1',
    kind,
    metadata: { name },
    spec: { selector: { matchLabels: { app: 'a' } }, template, ...spec },
  };
}

const rows: Row[] = [
  {
    kind: 'Deployment',
    group: 'apps',
    path: `${ns}/deployments`,
    name: 'deployment replicas negative',
    body: workload('Deployment', 'd-replicas', { replicas: -1 }),
    causes: [['spec.replicas', 'FieldValueInvalid', 'Invalid value: -1: must be greater than or equal to 0']],
  },
  {
    kind: 'Deployment',
    group: 'apps',
    path: `${ns}/deployments`,
    name: 'deployment selector does not match template labels',
    body: workload('Deployment', 'd-selector', { selector: { matchLabels: { app: 'b' } } }),
    causes: [
      [
        'spec.template.metadata.labels',
        'FieldValueInvalid',
        'Invalid value: map[string]string{"app":"a"}: `selector` does not match template `labels`',
      ],
    ],
  },
  {
    kind: 'Deployment',
    group: 'apps',
    path: `${ns}/deployments`,
    name: 'deployment strategy type unsupported',
    body: workload('Deployment', 'd-strategy', { strategy: { type: 'Sometimes' } }),
    causes: [
      [
        'spec.strategy',
        'FieldValueNotSupported',
        'Unsupported value: apps.DeploymentStrategy{Type:"Sometimes", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: "Recreate", "RollingUpdate"',
      ],
    ],
  },
  {
    kind: 'ReplicaSet',
    group: 'apps',
    path: `${ns}/replicasets`,
    name: 'replicaset without selector',
    body: { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'rs' }, spec: { template } },
    causes: [
      ['spec.selector', 'FieldValueRequired', 'Required value'],
      [
        'spec.template.metadata.labels',
        'FieldValueInvalid',
        'Invalid value: map[string]string{"app":"a"}: `selector` does not match template `labels`',
      ],
    ],
  },
  {
    kind: 'StatefulSet',
    group: 'apps',
    path: `${ns}/statefulsets`,
    name: 'statefulset ordinals.start negative (AM-10)',
    body: workload('StatefulSet', 'ss-ordinals', { ordinals: { start: -1 } }),
    causes: [
      ['spec.ordinals.start', 'FieldValueInvalid', 'Invalid value: -1: must be greater than or equal to 0'],
    ],
  },
  {
    kind: 'StatefulSet',
    group: 'apps',
    path: `${ns}/statefulsets`,
    name: 'statefulset podManagementPolicy unsupported',
    body: workload('StatefulSet', 'ss-policy', { podManagementPolicy: 'Random' }),
    causes: [
      [
        'spec.podManagementPolicy',
        'FieldValueInvalid',
        "Invalid value: \"Random\": must be 'OrderedReady' or 'Parallel'",
      ],
    ],
  },
  {
    kind: 'DaemonSet',
    group: 'apps',
    path: `${ns}/daemonsets`,
    name: 'daemonset template restartPolicy must be Always',
    body: workload('DaemonSet', 'ds', {
      template: { ...template, spec: { ...template.spec, restartPolicy: 'Never' } },
    }),
    causes: [
      [
        'spec.template.spec.restartPolicy',
        'FieldValueNotSupported',
        'Unsupported value: "Never": supported values: "Always"',
      ],
    ],
  },
  {
    kind: 'ControllerRevision',
    group: 'apps',
    path: `${ns}/controllerrevisions`,
    name: 'controller revision negative revision',
    body: {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: { name: 'cr' },
      revision: -1,
      data: {},
    },
    causes: [['revision', 'FieldValueInvalid', 'Invalid value: -1: must be greater than or equal to 0']],
  },
];

runTable('invalid apps/v1 objects', rows);
