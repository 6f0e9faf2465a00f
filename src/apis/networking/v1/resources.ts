/** networking.k8s.io/v1 resources as kube-apiserver v1.27 serves and discovers them. */
import type { ResourceInfo } from '../../resource.js';
import { allVerbs } from '../../resource.js';
import { defaultIngressClass, defaultNetworkPolicy } from './defaults.js';

const base = { group: 'networking.k8s.io', version: 'v1', verbs: allVerbs } as const;

export const ingressInfo: ResourceInfo = {
  ...base,
  kind: 'Ingress',
  resource: 'ingresses',
  singular: 'ingress',
  namespaced: true,
  shortNames: ['ing'],
  definition: 'io.k8s.api.networking.v1.Ingress',
  statusSubresource: true,
};

export const ingressClassInfo: ResourceInfo = {
  ...base,
  kind: 'IngressClass',
  resource: 'ingressclasses',
  singular: 'ingressclass',
  namespaced: false,
  definition: 'io.k8s.api.networking.v1.IngressClass',
  defaulter: defaultIngressClass,
};

/**
 * networkpolicies/status is served only with the alpha NetworkPolicyStatus gate, which v1.27 keeps
 * off by default (and nanokube does not offer): discovery lists no status subresource.
 */
export const networkPolicyInfo: ResourceInfo = {
  ...base,
  kind: 'NetworkPolicy',
  resource: 'networkpolicies',
  singular: 'networkpolicy',
  namespaced: true,
  shortNames: ['netpol'],
  definition: 'io.k8s.api.networking.v1.NetworkPolicy',
  defaulter: defaultNetworkPolicy,
};

export const networkingV1ResourceInfos: readonly ResourceInfo[] = [
  ingressClassInfo,
  ingressInfo,
  networkPolicyInfo,
];
