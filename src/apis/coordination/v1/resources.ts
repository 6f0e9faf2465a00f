/** coordination.k8s.io/v1 resources as kube-apiserver v1.27 serves them (Lease has no defaults). */
import type { ResourceInfo } from '../../resource.js';
import { allVerbs } from '../../resource.js';

export const leaseInfo: ResourceInfo = {
  group: 'coordination.k8s.io',
  version: 'v1',
  kind: 'Lease',
  resource: 'leases',
  singular: 'lease',
  namespaced: true,
  definition: 'io.k8s.api.coordination.v1.Lease',
  verbs: allVerbs,
};

export const coordinationV1ResourceInfos: readonly ResourceInfo[] = [leaseInfo];
