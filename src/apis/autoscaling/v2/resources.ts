/** autoscaling/v2 resources as kube-apiserver v1.27 serves and discovers them; v2 is the storage version. */
import type { ResourceInfo } from '../../resource.js';
import { allVerbs } from '../../resource.js';
import { defaultHorizontalPodAutoscalerV2 } from './defaults.js';

export const horizontalPodAutoscalerV2Info: ResourceInfo = {
  group: 'autoscaling',
  version: 'v2',
  kind: 'HorizontalPodAutoscaler',
  resource: 'horizontalpodautoscalers',
  singular: 'horizontalpodautoscaler',
  namespaced: true,
  shortNames: ['hpa'],
  categories: ['all'],
  definition: 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler',
  verbs: allVerbs,
  statusSubresource: true,
  defaulter: defaultHorizontalPodAutoscalerV2,
};
