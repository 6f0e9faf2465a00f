/**
 * resource.k8s.io/v1alpha2 resources (dynamic resource allocation, KEP-3063) as kube-apiserver
 * v1.27 discovers them when the group-version is enabled (--runtime-config) with the
 * DynamicResourceAllocation gate. v1alpha2 is v1.27's only version, hence the storage version.
 */
import type { ResourceInfo } from '../../resource.js';
import { allVerbs } from '../../resource.js';
import { defaultResourceClaim, defaultResourceClaimTemplate } from './defaults.js';

const base = { group: 'resource.k8s.io', version: 'v1alpha2', verbs: allVerbs } as const;

export const podSchedulingContextInfo: ResourceInfo = {
  ...base,
  kind: 'PodSchedulingContext',
  resource: 'podschedulingcontexts',
  singular: 'podschedulingcontext',
  namespaced: true,
  definition: 'io.k8s.api.resource.v1alpha2.PodSchedulingContext',
  statusSubresource: true,
};

export const resourceClaimInfo: ResourceInfo = {
  ...base,
  kind: 'ResourceClaim',
  resource: 'resourceclaims',
  singular: 'resourceclaim',
  namespaced: true,
  definition: 'io.k8s.api.resource.v1alpha2.ResourceClaim',
  statusSubresource: true,
  defaulter: defaultResourceClaim,
};

export const resourceClaimTemplateInfo: ResourceInfo = {
  ...base,
  kind: 'ResourceClaimTemplate',
  resource: 'resourceclaimtemplates',
  singular: 'resourceclaimtemplate',
  namespaced: true,
  definition: 'io.k8s.api.resource.v1alpha2.ResourceClaimTemplate',
  defaulter: defaultResourceClaimTemplate,
};

export const resourceClassInfo: ResourceInfo = {
  ...base,
  kind: 'ResourceClass',
  resource: 'resourceclasses',
  singular: 'resourceclass',
  namespaced: false,
  definition: 'io.k8s.api.resource.v1alpha2.ResourceClass',
};

export const resourceV1alpha2ResourceInfos: readonly ResourceInfo[] = [
  podSchedulingContextInfo,
  resourceClaimInfo,
  resourceClaimTemplateInfo,
  resourceClassInfo,
];
