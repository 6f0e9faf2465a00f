/** What discovery and the registry know about each core/v1 kind served here. */
import type { ResourceInfo } from '../../resource.js';
import { allVerbs } from '../../resource.js';
import { defaultEndpoints } from './defaults/endpoints.js';
import { defaultNamespace } from './defaults/namespace.js';
import { defaultNode } from './defaults/node.js';
import { defaultPod } from './defaults/pod.js';
import { defaultSecret } from './defaults/secret.js';
import { defaultService } from './defaults/service.js';

const core = { group: '', version: 'v1' } as const;
const def = (kind: string): string => `io.k8s.api.core.v1.${kind}`;
/** The verbs of the proxy subresources (upstream's proxy methods as discovery lists them). */
export const proxyVerbs = ['create', 'delete', 'get', 'patch', 'update'] as const;

export const namespacesInfo: ResourceInfo = {
  ...core,
  kind: 'Namespace',
  resource: 'namespaces',
  singular: 'namespace',
  namespaced: false,
  shortNames: ['ns'],
  definition: def('Namespace'),
  verbs: allVerbs.filter((v) => v !== 'deletecollection'),
  statusSubresource: true,
  extraSubresources: [{ name: 'finalize', verbs: ['update'] }],
  defaulter: defaultNamespace,
};

export const podsInfo: ResourceInfo = {
  ...core,
  kind: 'Pod',
  resource: 'pods',
  singular: 'pod',
  namespaced: true,
  shortNames: ['po'],
  categories: ['all'],
  definition: def('Pod'),
  verbs: allVerbs,
  statusSubresource: true,
  extraSubresources: [
    { name: 'binding', verbs: ['create'], kind: 'Binding', computed: true },
    { name: 'eviction', verbs: ['create'], kind: 'Eviction', group: 'policy', version: 'v1', computed: true },
    { name: 'ephemeralcontainers', verbs: ['get', 'patch', 'update'] },
    { name: 'attach', verbs: ['create', 'get'], kind: 'PodAttachOptions', computed: true },
    { name: 'exec', verbs: ['create', 'get'], kind: 'PodExecOptions', computed: true },
    { name: 'log', verbs: ['get'], computed: true },
    { name: 'portforward', verbs: ['create', 'get'], kind: 'PodPortForwardOptions', computed: true },
    { name: 'proxy', verbs: proxyVerbs, kind: 'PodProxyOptions', computed: true },
  ],
  defaulter: defaultPod,
};

/** The body of `pods/{name}/binding` and of the `bindings` collection (created, never stored). */
export const bindingsInfo: ResourceInfo = {
  ...core,
  kind: 'Binding',
  resource: 'bindings',
  singular: 'binding',
  namespaced: true,
  definition: def('Binding'),
  verbs: ['create'],
  stored: false,
};

export const servicesInfo: ResourceInfo = {
  ...core,
  kind: 'Service',
  resource: 'services',
  singular: 'service',
  namespaced: true,
  shortNames: ['svc'],
  categories: ['all'],
  definition: def('Service'),
  verbs: allVerbs,
  statusSubresource: true,
  extraSubresources: [{ name: 'proxy', verbs: proxyVerbs, kind: 'ServiceProxyOptions', computed: true }],
  defaulter: defaultService,
};

export const configMapsInfo: ResourceInfo = {
  ...core,
  kind: 'ConfigMap',
  resource: 'configmaps',
  singular: 'configmap',
  namespaced: true,
  shortNames: ['cm'],
  definition: def('ConfigMap'),
  verbs: allVerbs,
};

export const secretsInfo: ResourceInfo = {
  ...core,
  kind: 'Secret',
  resource: 'secrets',
  singular: 'secret',
  namespaced: true,
  definition: def('Secret'),
  verbs: allVerbs,
  defaulter: defaultSecret,
};

export const serviceAccountsInfo: ResourceInfo = {
  ...core,
  kind: 'ServiceAccount',
  resource: 'serviceaccounts',
  singular: 'serviceaccount',
  namespaced: true,
  shortNames: ['sa'],
  definition: def('ServiceAccount'),
  verbs: allVerbs,
  extraSubresources: [
    {
      name: 'token',
      verbs: ['create'],
      kind: 'TokenRequest',
      group: 'authentication.k8s.io',
      version: 'v1',
      computed: true,
    },
  ],
};

export const endpointsInfo: ResourceInfo = {
  ...core,
  kind: 'Endpoints',
  resource: 'endpoints',
  singular: 'endpoints',
  namespaced: true,
  shortNames: ['ep'],
  definition: def('Endpoints'),
  verbs: allVerbs,
  defaulter: defaultEndpoints,
};

export const eventsInfo: ResourceInfo = {
  ...core,
  kind: 'Event',
  resource: 'events',
  singular: 'event',
  namespaced: true,
  shortNames: ['ev'],
  definition: def('Event'),
  verbs: allVerbs,
};

export const nodesInfo: ResourceInfo = {
  ...core,
  kind: 'Node',
  resource: 'nodes',
  singular: 'node',
  namespaced: false,
  shortNames: ['no'],
  definition: def('Node'),
  verbs: allVerbs,
  statusSubresource: true,
  extraSubresources: [{ name: 'proxy', verbs: proxyVerbs, kind: 'NodeProxyOptions', computed: true }],
  defaulter: defaultNode,
};

export const coreV1Infos: readonly ResourceInfo[] = [
  configMapsInfo,
  endpointsInfo,
  eventsInfo,
  namespacesInfo,
  nodesInfo,
  podsInfo,
  secretsInfo,
  serviceAccountsInfo,
  servicesInfo,
];
