/** discovery.k8s.io/v1 resources as kube-apiserver v1.27 serves and discovers them. */
import type { ResourceInfo } from '../../resource.js';
import { allVerbs } from '../../resource.js';
import { defaultEndpointSlice } from './defaults.js';

/**
 * EndpointSlice: namespaced, no short names, no categories, no subresources. v1.27 still stores
 * it as v1beta1 (only v1 is served), which is what discovery's storageVersionHash names.
 */
export const endpointSliceInfo: ResourceInfo = {
  group: 'discovery.k8s.io',
  version: 'v1',
  kind: 'EndpointSlice',
  resource: 'endpointslices',
  singular: 'endpointslice',
  namespaced: true,
  definition: 'io.k8s.api.discovery.v1.EndpointSlice',
  verbs: allVerbs,
  defaulter: defaultEndpointSlice,
  storageVersion: { group: 'discovery.k8s.io', version: 'v1beta1', kind: 'EndpointSlice' },
};

export const discoveryV1ResourceInfos: readonly ResourceInfo[] = [endpointSliceInfo];
