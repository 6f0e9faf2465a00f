/** apiextensions.k8s.io/v1 resources as kube-apiserver v1.27 serves and discovers them. */
import type { ResourceInfo } from '../../resource.js';
import { allVerbs } from '../../resource.js';
import { defaultCustomResourceDefinition } from './defaults.js';

/**
 * CustomResourceDefinition: cluster-scoped, with /status. v1.27 still encodes it in etcd as
 * v1beta1 (only v1 is served), which is what discovery's storageVersionHash names.
 */
export const customResourceDefinitionInfo: ResourceInfo = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  verbs: allVerbs,
  kind: 'CustomResourceDefinition',
  resource: 'customresourcedefinitions',
  singular: 'customresourcedefinition',
  namespaced: false,
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  definition: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition',
  statusSubresource: true,
  defaulter: defaultCustomResourceDefinition,
  storageVersion: { group: 'apiextensions.k8s.io', version: 'v1beta1', kind: 'CustomResourceDefinition' },
};

export const apiextensionsV1ResourceInfos: readonly ResourceInfo[] = [customResourceDefinitionInfo];
