/** Every apiregistration.k8s.io/v1 resource this server serves, and its local APIServices. */
import type { RegistryResource } from '../../resource.js';
import { apiServices } from './apiservices.js';

export const apiregistrationV1Resources: readonly RegistryResource[] = [apiServices];
export { localAPIServices, apiVersionPriority, autoRegisterManagedLabel } from './local.js';
