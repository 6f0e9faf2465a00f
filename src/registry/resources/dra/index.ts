/**
 * resource.k8s.io/v1alpha2 (dynamic resource allocation), served only with --runtime-config and
 * the DynamicResourceAllocation gate.
 */
import type { RegistryResource } from '../../resource.js';
import { podSchedulingContexts } from './podschedulingcontexts.js';
import { resourceClaims } from './resourceclaims.js';
import { resourceClaimTemplates } from './resourceclaimtemplates.js';
import { resourceClasses } from './resourceclasses.js';

export const resourceV1alpha2Resources: readonly RegistryResource[] = [
  podSchedulingContexts,
  resourceClaims,
  resourceClaimTemplates,
  resourceClasses,
];
