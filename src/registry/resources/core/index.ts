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
];
