/** Every apps/v1 resource this server serves. */
import type { RegistryResource } from '../../resource.js';
import { controllerRevisions } from './controllerrevisions.js';
import { daemonSets } from './daemonsets.js';
import { deployments } from './deployments.js';
import { replicaSets } from './replicasets.js';
import { statefulSets } from './statefulsets.js';

export const appsV1Resources: readonly RegistryResource[] = [
  controllerRevisions,
  daemonSets,
  deployments,
  replicaSets,
  statefulSets,
];
