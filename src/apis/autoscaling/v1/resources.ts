/**
 * autoscaling/v1 resources as kube-apiserver v1.27 serves and discovers them: HorizontalPodAutoscaler
 * is stored as autoscaling/v2 and converted (./conversion.ts).
 */
import type { ResourceInfo } from '../../resource.js';
import { allVerbs } from '../../resource.js';
import { defaultHorizontalPodAutoscalerV1 } from './defaults.js';

export const horizontalPodAutoscalerV1Info: ResourceInfo = {
  group: 'autoscaling',
  version: 'v1',
  kind: 'HorizontalPodAutoscaler',
  resource: 'horizontalpodautoscalers',
  singular: 'horizontalpodautoscaler',
  namespaced: true,
  shortNames: ['hpa'],
  categories: ['all'],
  definition: 'io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler',
  verbs: allVerbs,
  statusSubresource: true,
  defaulter: defaultHorizontalPodAutoscalerV1,
};
