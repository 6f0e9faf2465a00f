/**
 * rbac/v1 defaults (upstream pkg/apis/rbac/v1/defaults.go, release-1.27), in place: a binding's
 * roleRef.apiGroup and a User or Group subject's apiGroup default to rbac.authorization.k8s.io;
 * a ServiceAccount subject's stays empty (the core group).
 */
import type { JsonObject } from '../../../util/json.js';
import { isJsonObject } from '../../../util/json.js';
import { ensureObj, setDefaultStr, str } from '../../core/v1/access.js';
import { rbacGroup } from './group.js';

/** Upstream SetDefaults_Subject. */
export function defaultSubject(subject: JsonObject): void {
  const apiGroup = str(subject, 'apiGroup');
  if (apiGroup !== undefined && apiGroup !== '') return;
  const kind = str(subject, 'kind');
  if (kind === 'User' || kind === 'Group') subject['apiGroup'] = rbacGroup;
}

function defaultBinding(o: JsonObject): void {
  setDefaultStr(ensureObj(o, 'roleRef'), 'apiGroup', rbacGroup);
  const subjects = o['subjects'];
  if (Array.isArray(subjects)) for (const s of subjects) if (isJsonObject(s)) defaultSubject(s);
}

/** Upstream SetObjectDefaults_RoleBinding. */
export function defaultRoleBinding(o: JsonObject): void {
  defaultBinding(o);
}

/** Upstream SetObjectDefaults_ClusterRoleBinding. */
export function defaultClusterRoleBinding(o: JsonObject): void {
  defaultBinding(o);
}
