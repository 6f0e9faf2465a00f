/** Every apiextensions.k8s.io/v1 resource this server serves. */
import type { RegistryResource } from '../../resource.js';
import { customResourceDefinitions } from './customresourcedefinitions.js';

export const apiextensionsV1Resources: readonly RegistryResource[] = [customResourceDefinitions];
