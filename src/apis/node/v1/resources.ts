/** node.k8s.io/v1 resources as kube-apiserver v1.27 serves and discovers them (RuntimeClass has no defaults). */
import type { ResourceInfo } from '../../resource.js';
import { allVerbs } from '../../resource.js';

export const runtimeClassInfo: ResourceInfo = {
  group: 'node.k8s.io',
  version: 'v1',
  kind: 'RuntimeClass',
  resource: 'runtimeclasses',
  singular: 'runtimeclass',
  namespaced: false,
  definition: 'io.k8s.api.node.v1.RuntimeClass',
  verbs: allVerbs,
};

export const nodeV1ResourceInfos: readonly ResourceInfo[] = [runtimeClassInfo];
