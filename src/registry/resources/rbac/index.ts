/** Every rbac.authorization.k8s.io/v1 resource this server serves (storage and API; no enforcement yet). */
import type { RegistryResource } from '../../resource.js';
import { clusterRoleBindings } from './clusterrolebindings.js';
import { clusterRoles } from './clusterroles.js';
import { roleBindings } from './rolebindings.js';
import { roles } from './roles.js';

export const rbacV1Resources: readonly RegistryResource[] = [
  clusterRoleBindings,
  clusterRoles,
  roleBindings,
  roles,
];
