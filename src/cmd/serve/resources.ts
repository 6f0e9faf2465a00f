/** The resources this server serves (issue #2's kinds; the full v1.27 catalogue grows here). */
import { appsV1Resources } from '../../registry/resources/apps/index.js';
import { autoscalingResources } from '../../registry/resources/autoscaling/index.js';
import { batchV1Resources } from '../../registry/resources/batch/index.js';
import { coordinationV1Resources } from '../../registry/resources/coordination/index.js';
import { coreV1Resources } from '../../registry/resources/core/index.js';
import { rbacV1Resources } from '../../registry/resources/rbac/index.js';
import type { RegistryResource } from '../../registry/resource.js';

export function servedResources(): readonly RegistryResource[] {
  return [
    ...coreV1Resources,
    ...appsV1Resources,
    ...autoscalingResources,
    ...batchV1Resources,
    ...coordinationV1Resources,
    ...rbacV1Resources,
  ];
}
