/** Every core/v1 resource served by the registry. */
import type { RegistryResource } from '../../resource.js';
import { configMapsResource } from './configmaps.js';
import { endpointsResource } from './endpoints.js';
import { eventsResource } from './events.js';
import { namespacesResource } from './namespaces.js';
import { nodesResource } from './nodes.js';
import { podsResource } from './pods.js';
import { secretsResource } from './secrets.js';
import { serviceAccountsResource } from './serviceaccounts.js';
import { servicesResource } from './services.js';
import { limitRangesResource } from './limitranges.js';
import { persistentVolumeClaimsResource } from './persistentvolumeclaims.js';
import { persistentVolumesResource } from './persistentvolumes.js';
import { podTemplatesResource } from './podtemplates.js';
import { replicationControllersResource } from './replicationcontrollers.js';
import { resourceQuotasResource } from './resourcequotas.js';

export { namespaceFinalizeStrategy } from './namespaces.js';

export const coreV1Resources: readonly RegistryResource[] = [
  configMapsResource,
  endpointsResource,
  eventsResource,
  namespacesResource,
  nodesResource,
  podsResource,
  secretsResource,
  serviceAccountsResource,
  servicesResource,
  limitRangesResource,
  persistentVolumeClaimsResource,
  persistentVolumesResource,
  podTemplatesResource,
  replicationControllersResource,
  resourceQuotasResource,
];
