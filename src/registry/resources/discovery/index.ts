/** Every discovery.k8s.io/v1 resource this server serves. */
import type { RegistryResource } from '../../resource.js';
import { endpointSlices } from './endpointslices.js';

export const discoveryV1Resources: readonly RegistryResource[] = [endpointSlices];
