/**
 * The `Warning` headers of v1.27 (pkg/api/pod/warnings.go on pods and on every workload's
 * pod template with its field path, on create and on template-changing updates; the AM-12
 * DNS-label name warning, FQDN EndpointSlices). v1.27's texts: duplicate env names are
 * `env[i].name: duplicate name "X"` (the "hides previous definition" text is v1.28+), no container
 * port or null-labelSelector warnings yet (v1.28), and a Pod's negative grace period is turned into
 * 1 before warnings run, so only templates warn about it.
 */
import { runTable } from './support.js';
import type { Manifest, Row } from './support.js';

const seccomp = 'seccomp.security.alpha.kubernetes.io/pod';
const seccompMsg = 'non-functional in v1.27+; use the "seccompProfile" field instead';
const template = (): Manifest => ({
  metadata: { labels: { app: 'w' }, annotations: { [seccomp]: 'runtime/default' } },
  spec: { containers: [{ name: 'c', image: 'busybox' }] },
});
const selector = { matchLabels: { app: 'w' } };

const rows: Row[] = [
  {
    name: 'Pod: deprecated annotations, node labels, volume plugin, duplicates, seccomp; no grace period warning',
    path: '/api/v1/namespaces/invalid/pods',
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'p',
        annotations: {
          'scheduler.alpha.kubernetes.io/critical-pod': '',
          [seccomp]: 'runtime/default',
          'container.seccomp.security.alpha.kubernetes.io/c': 'runtime/default',
          'security.alpha.kubernetes.io/sysctls': 'a=b',
        },
      },
      spec: {
        nodeSelector: { 'beta.kubernetes.io/os': 'linux' },
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchExpressions: [{ key: 'beta.kubernetes.io/arch', operator: 'In', values: ['amd64'] }] },
              ],
            },
            preferredDuringSchedulingIgnoredDuringExecution: [
              {
                weight: 1,
                preference: {
                  matchExpressions: [
                    { key: 'failure-domain.beta.kubernetes.io/zone', operator: 'In', values: ['a'] },
                  ],
                },
              },
            ],
          },
        },
        topologySpreadConstraints: [
          {
            maxSkew: 1,
            topologyKey: 'failure-domain.beta.kubernetes.io/region',
            whenUnsatisfiable: 'DoNotSchedule',
          },
        ],
        volumes: [{ name: 'g', gitRepo: { repository: 'https://example.com/r.git' } }],
        hostAliases: [{ ip: '10.0.0.1' }, { ip: '10.0.0.1' }],
        imagePullSecrets: [{ name: 's' }, { name: 's' }],
        terminationGracePeriodSeconds: -1,
        containers: [
          {
            name: 'c',
            image: 'busybox',
            env: [
              { name: 'A', value: '1' },
              { name: 'A', value: '2' },
            ],
          },
        ],
      },
    },
    warnings: [
      'spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead',
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key: beta.kubernetes.io/arch is deprecated since v1.14; use "kubernetes.io/arch" instead',
      'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].key: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
      'spec.topologySpreadConstraints[0].topologyKey: failure-domain.beta.kubernetes.io/region is deprecated since v1.17; use "topology.kubernetes.io/region" instead',
      'metadata.annotations[scheduler.alpha.kubernetes.io/critical-pod]: non-functional in v1.16+; use the "priorityClassName" field instead',
      'metadata.annotations[security.alpha.kubernetes.io/sysctls]: non-functional in v1.11+; use the "sysctls" field instead',
      'spec.volumes[0].gitRepo: deprecated in v1.11',
      'spec.hostAliases[1].ip: duplicate ip "10.0.0.1"',
      'spec.imagePullSecrets[1].name: duplicate name "s"',
      `metadata.annotations[${seccomp}]: ${seccompMsg}`,
      `metadata.annotations[container.seccomp.security.alpha.kubernetes.io/c]: ${seccompMsg}`,
      'spec.containers[0].env[1].name: duplicate name "A"',
    ],
  },
  {
    name: 'Pod: removed volume plugins, fractional byte values, empty imagePullSecret names',
    path: '/api/v1/namespaces/invalid/pods',
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p3' },
      spec: {
        imagePullSecrets: [{ name: '' }, { name: '' }],
        volumes: [
          { name: 'f', flocker: { datasetName: 'd' } },
          { name: 'g', glusterfs: { endpoints: 'e', path: 'p' } },
          {
            name: 'e',
            ephemeral: {
              volumeClaimTemplate: {
                spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1.5' } } },
              },
            },
          },
        ],
        initContainers: [
          { name: 'i', image: 'busybox', resources: { requests: { 'ephemeral-storage': '2.5' } } },
        ],
        containers: [
          {
            name: 'c',
            image: 'busybox',
            resources: { limits: { memory: '100.5' }, requests: { memory: '100.5' } },
          },
        ],
      },
    },
    warnings: [
      'spec.volumes[0].flocker: deprecated in v1.22, non-functional in v1.25+',
      'spec.volumes[1].glusterfs: deprecated in v1.25, non-functional in v1.26+',
      'spec.volumes[2].ephemeral.volumeClaimTemplate.spec.resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer',
      'spec.imagePullSecrets[1].name: duplicate name ""',
      'spec.imagePullSecrets[0].name: invalid empty name ""',
      'spec.imagePullSecrets[1].name: invalid empty name ""',
      'spec.initContainers[0].resources.requests[ephemeral-storage]: fractional byte value "2500m" is invalid, must be an integer',
      'spec.containers[0].resources.limits[memory]: fractional byte value "100500m" is invalid, must be an integer',
      'spec.containers[0].resources.requests[memory]: fractional byte value "100500m" is invalid, must be an integer',
    ],
  },
  {
    name: 'Pod: the seccomp annotation with the field set is quiet',
    path: '/api/v1/namespaces/invalid/pods',
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p2', annotations: { [seccomp]: 'runtime/default' } },
      spec: {
        securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
        containers: [{ name: 'c', image: 'busybox' }],
      },
    },
    warnings: [],
  },
  {
    name: 'Deployment (AM-12 name, template warnings under spec.template)',
    path: '/apis/apps/v1/namespaces/invalid/deployments',
    body: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web.v1' },
      spec: { selector, template: template() },
    },
    warnings: [
      'metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]',
      `spec.template.metadata.annotations[${seccomp}]: ${seccompMsg}`,
    ],
  },
  {
    name: 'Deployment: a negative grace period in the template warns (kept as is)',
    path: '/apis/apps/v1/namespaces/invalid/deployments',
    body: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'grace' },
      spec: {
        selector,
        template: {
          metadata: { labels: { app: 'w' } },
          spec: { terminationGracePeriodSeconds: -1, containers: [{ name: 'c', image: 'busybox' }] },
        },
      },
    },
    warnings: [
      'spec.template.spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1',
    ],
  },
  {
    name: 'Deployment update changing the template: its warnings again',
    path: '/apis/apps/v1/namespaces/invalid/deployments',
    body: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'upd' },
      spec: { selector, template: template() },
    },
    update: (d) => {
      const spec = d['spec'] as { template: { spec: { containers: { image: string }[] } } };
      spec.template.spec.containers[0]!.image = 'busybox:1.36';
      return d;
    },
    warnings: [`spec.template.metadata.annotations[${seccomp}]: ${seccompMsg}`],
  },
  {
    name: 'Deployment update not changing the generation: no template warnings',
    path: '/apis/apps/v1/namespaces/invalid/deployments',
    body: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'upd2' },
      spec: { selector, template: template() },
    },
    update: { mergePatch: { metadata: { labels: { x: 'y' } } } },
    warnings: [],
  },
  {
    name: 'DaemonSet update changing the template (templateGeneration): warnings',
    path: '/apis/apps/v1/namespaces/invalid/daemonsets',
    body: {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'ds-upd' },
      spec: { selector, template: template() },
    },
    update: { mergePatch: { spec: { template: { metadata: { labels: { app: 'w', v: '2' } } } } } },
    warnings: [`spec.template.metadata.annotations[${seccomp}]: ${seccompMsg}`],
  },
  {
    name: 'PodTemplate update changing the template: warnings',
    path: '/api/v1/namespaces/invalid/podtemplates',
    body: { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 'pt-upd' }, template: template() },
    update: { mergePatch: { template: { metadata: { labels: { app: 'w', v: '2' } } } } },
    warnings: [`template.metadata.annotations[${seccomp}]: ${seccompMsg}`],
  },
  {
    name: 'ReplicaSet template warnings',
    path: '/apis/apps/v1/namespaces/invalid/replicasets',
    body: {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'rs' },
      spec: { selector, template: template() },
    },
    warnings: [`spec.template.metadata.annotations[${seccomp}]: ${seccompMsg}`],
  },
  {
    name: 'StatefulSet template warnings',
    path: '/apis/apps/v1/namespaces/invalid/statefulsets',
    body: {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'ss' },
      spec: { selector, serviceName: 'ss', template: template() },
    },
    warnings: [`spec.template.metadata.annotations[${seccomp}]: ${seccompMsg}`],
  },
  {
    name: 'DaemonSet template warnings',
    path: '/apis/apps/v1/namespaces/invalid/daemonsets',
    body: {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'ds' },
      spec: { selector, template: template() },
    },
    warnings: [`spec.template.metadata.annotations[${seccomp}]: ${seccompMsg}`],
  },
  {
    name: 'ReplicationController template warnings',
    path: '/api/v1/namespaces/invalid/replicationcontrollers',
    body: {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'rc' },
      spec: { selector: { app: 'w' }, template: template() },
    },
    warnings: [`spec.template.metadata.annotations[${seccomp}]: ${seccompMsg}`],
  },
  {
    name: 'PodTemplate warnings under template',
    path: '/api/v1/namespaces/invalid/podtemplates',
    body: { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 'pt' }, template: template() },
    warnings: [`template.metadata.annotations[${seccomp}]: ${seccompMsg}`],
  },
  {
    name: 'Job template warnings',
    path: '/apis/batch/v1/namespaces/invalid/jobs',
    body: {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'job' },
      spec: {
        template: {
          ...template(),
          spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] },
        },
      },
    },
    warnings: [`spec.template.metadata.annotations[${seccomp}]: ${seccompMsg}`],
  },
  {
    name: 'CronJob template warnings under spec.jobTemplate.spec.template',
    path: '/apis/batch/v1/namespaces/invalid/cronjobs',
    body: {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'cj' },
      spec: {
        schedule: '*/5 * * * *',
        jobTemplate: {
          spec: {
            template: {
              ...template(),
              spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] },
            },
          },
        },
      },
    },
    warnings: [`spec.jobTemplate.spec.template.metadata.annotations[${seccomp}]: ${seccompMsg}`],
  },
  {
    name: 'EndpointSlice: FQDN address type is deprecated',
    path: '/apis/discovery.k8s.io/v1/namespaces/invalid/endpointslices',
    body: {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'fqdn' },
      addressType: 'FQDN',
      endpoints: [{ addresses: ['example.com'] }],
    },
    warnings: ['spec.addressType: FQDN endpoints are deprecated'],
  },
];

runTable('warnings', rows);
