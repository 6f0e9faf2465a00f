/** scheduling.k8s.io/v1 resources as kube-apiserver v1.27 serves and discovers them. */
import type { ResourceInfo } from '../../resource.js';
import { allVerbs } from '../../resource.js';
import { defaultPriorityClass } from './defaults.js';

export const priorityClassInfo: ResourceInfo = {
  group: 'scheduling.k8s.io',
  version: 'v1',
  kind: 'PriorityClass',
  resource: 'priorityclasses',
  singular: 'priorityclass',
  namespaced: false,
  shortNames: ['pc'],
  definition: 'io.k8s.api.scheduling.v1.PriorityClass',
  verbs: allVerbs,
  defaulter: defaultPriorityClass,
};

export const schedulingV1ResourceInfos: readonly ResourceInfo[] = [priorityClassInfo];
