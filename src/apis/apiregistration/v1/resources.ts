/** apiregistration.k8s.io/v1 resources as kube-apiserver v1.27 serves and discovers them. */
import type { ResourceInfo } from '../../resource.js';
import { allVerbs } from '../../resource.js';
import { defaultAPIService } from './defaults.js';

export const apiServiceInfo: ResourceInfo = {
  group: 'apiregistration.k8s.io',
  version: 'v1',
  verbs: allVerbs,
  kind: 'APIService',
  resource: 'apiservices',
  singular: 'apiservice',
  namespaced: false,
  categories: ['api-extensions'],
  definition: 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService',
  statusSubresource: true,
  defaulter: defaultAPIService,
};

export const apiregistrationV1ResourceInfos: readonly ResourceInfo[] = [apiServiceInfo];
