/** Every policy/v1 resource this server serves. */
import type { RegistryResource } from '../../resource.js';
import { podDisruptionBudgets } from './poddisruptionbudgets.js';

export const policyV1Resources: readonly RegistryResource[] = [podDisruptionBudgets];
