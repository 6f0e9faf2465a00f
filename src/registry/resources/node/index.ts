/** Every node.k8s.io/v1 resource this server serves. */
import type { RegistryResource } from '../../resource.js';
import { runtimeClasses } from './runtimeclasses.js';

export const nodeV1Resources: readonly RegistryResource[] = [runtimeClasses];
