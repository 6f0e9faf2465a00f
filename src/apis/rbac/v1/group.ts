/** The API group of Roles, ClusterRoles and their bindings (upstream rbac.GroupName). */
export const rbacGroup = 'rbac.authorization.k8s.io';
