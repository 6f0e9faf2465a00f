/**
 * Every flowcontrol.apiserver.k8s.io resource this server serves (at v1beta2 and v1beta3, stored
 * as v1beta3). The mandatory and suggested objects and the API Priority and Fairness filter that
 * reads them are not part of this.
 */
import type { RegistryResource } from '../../resource.js';
import { flowSchemas } from './flowschemas.js';
import { priorityLevelConfigurations } from './prioritylevelconfigurations.js';

export const flowcontrolResources: readonly RegistryResource[] = [flowSchemas, priorityLevelConfigurations];
