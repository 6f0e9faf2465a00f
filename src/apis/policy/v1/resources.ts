/** policy/v1 resources as kube-apiserver v1.27 serves and discovers them. */
import type { ResourceInfo } from '../../resource.js';
import { allVerbs } from '../../resource.js';
import { convertPodDisruptionBudget } from './defaults.js';

export const podDisruptionBudgetInfo: ResourceInfo = {
  group: 'policy',
  version: 'v1',
  kind: 'PodDisruptionBudget',
  resource: 'poddisruptionbudgets',
  singular: 'poddisruptionbudget',
  namespaced: true,
  shortNames: ['pdb'],
  definition: 'io.k8s.api.policy.v1.PodDisruptionBudget',
  verbs: allVerbs,
  statusSubresource: true,
  defaulter: convertPodDisruptionBudget,
};

export const policyV1ResourceInfos: readonly ResourceInfo[] = [podDisruptionBudgetInfo];
