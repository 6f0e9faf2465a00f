/**
 * Every resource this server knows; start.ts serves those whose group-version --runtime-config
 * enables and whose feature gate (alpha kinds) is on.
 */
import {
  admissionregistrationV1Resources,
  admissionregistrationV1alpha1Resources,
} from '../../registry/resources/admissionregistration/index.js';
import { apiextensionsV1Resources } from '../../registry/resources/apiextensions/index.js';
import { apiregistrationV1Resources } from '../../registry/resources/apiregistration/index.js';
import { appsV1Resources } from '../../registry/resources/apps/index.js';
import { autoscalingResources } from '../../registry/resources/autoscaling/index.js';
import { batchV1Resources } from '../../registry/resources/batch/index.js';
import { coordinationV1Resources } from '../../registry/resources/coordination/index.js';
import {
  certificatesV1Resources,
  certificatesV1alpha1Resources,
} from '../../registry/resources/certificates/index.js';
import { coreV1Resources } from '../../registry/resources/core/index.js';
import { flowcontrolResources } from '../../registry/resources/flowcontrol/index.js';
import { discoveryV1Resources } from '../../registry/resources/discovery/index.js';
import { resourceV1alpha2Resources } from '../../registry/resources/dra/index.js';
import {
  networkingV1Resources,
  networkingV1alpha1Resources,
} from '../../registry/resources/networking/index.js';
import { nodeV1Resources } from '../../registry/resources/node/index.js';
import { policyV1Resources } from '../../registry/resources/policy/index.js';
import { rbacV1Resources } from '../../registry/resources/rbac/index.js';
import { schedulingV1Resources } from '../../registry/resources/scheduling/index.js';
import { storageV1Resources } from '../../registry/resources/storage/index.js';
import type { RegistryResource } from '../../registry/resource.js';

export function servedResources(): readonly RegistryResource[] {
  return [
    ...coreV1Resources,
    ...admissionregistrationV1Resources,
    ...admissionregistrationV1alpha1Resources,
    ...apiextensionsV1Resources,
    ...apiregistrationV1Resources,
    ...appsV1Resources,
    ...autoscalingResources,
    ...batchV1Resources,
    ...certificatesV1Resources,
    ...certificatesV1alpha1Resources,
    ...coordinationV1Resources,
    ...flowcontrolResources,
    ...discoveryV1Resources,
    ...networkingV1Resources,
    ...networkingV1alpha1Resources,
    ...nodeV1Resources,
    ...policyV1Resources,
    ...rbacV1Resources,
    ...schedulingV1Resources,
    ...storageV1Resources,
    ...resourceV1alpha2Resources,
  ];
}
