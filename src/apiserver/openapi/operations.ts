/**
 * The REST operations kube-apiserver publishes for a served resource, independent of the OpenAPI
 * version they are rendered in (v2.ts, v3.ts).
 */
import type { GroupVersionKind } from '../../apis/schema/types.js';

export type ParamType = 'string' | 'integer' | 'boolean';

export interface Param {
  readonly name: string;
  readonly in: 'path' | 'query';
  readonly type: ParamType;
  readonly required?: boolean;
}

export interface Operation {
  readonly method: 'get' | 'put' | 'post' | 'patch' | 'delete';
  readonly operationId: string;
  readonly action: string;
  readonly gvk?: GroupVersionKind;
  /** Request body definition name; `bodyRequired` marks it required. */
  readonly body?: string;
  readonly bodyRequired?: boolean;
  readonly consumes: readonly string[];
  readonly produces: readonly string[];
  readonly params: readonly Param[];
  /** Response code -> definition name. */
  readonly responses: Readonly<Record<string, string>>;
}

export interface PathItem {
  readonly path: string;
  readonly tag: string;
  readonly params: readonly Param[];
  readonly operations: readonly Operation[];
}

const meta = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
export const deleteOptionsDef = `${meta}DeleteOptions`;
export const statusDef = `${meta}Status`;
export const watchEventDef = `${meta}WatchEvent`;
export const patchDef = `${meta}Patch`;
export const apiResourceListDef = `${meta}APIResourceList`;
export const apiGroupDef = `${meta}APIGroup`;
export const apiGroupListDef = `${meta}APIGroupList`;
export const apiVersionsDef = `${meta}APIVersions`;
export const versionInfoDef = 'io.k8s.apimachinery.pkg.version.Info';
export const scaleDef = 'io.k8s.api.autoscaling.v1.Scale';

export const json = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];
export const streams = [
  ...json,
  'application/json;stream=watch',
  'application/vnd.kubernetes.protobuf;stream=watch',
];
export const anyType = ['*/*'];
export const patchTypes = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];

/** Resources whose DELETE returns the deleted object rather than a Status (group/resource). */
export const deleteReturnsObject = new Set([
  '/persistentvolumeclaims',
  '/pods',
  '/podtemplates',
  '/resourcequotas',
  '/serviceaccounts',
  '/services',
  '/persistentvolumes',
  'storage.k8s.io/csidrivers',
  'storage.k8s.io/csinodes',
  'storage.k8s.io/storageclasses',
  'storage.k8s.io/volumeattachments',
]);

export const q = (name: string, type: ParamType): Param => ({ name, in: 'query', type });
export const pathParam = (name: string): Param => ({ name, in: 'path', type: 'string', required: true });
export const pretty = q('pretty', 'string');
export const dryRun = q('dryRun', 'string');
export const fieldValidation = q('fieldValidation', 'string');
export const fieldManager = q('fieldManager', 'string');
export const listParams: readonly Param[] = [
  q('allowWatchBookmarks', 'boolean'),
  q('continue', 'string'),
  q('fieldSelector', 'string'),
  q('labelSelector', 'string'),
  q('limit', 'integer'),
  q('resourceVersion', 'string'),
  q('resourceVersionMatch', 'string'),
  q('sendInitialEvents', 'boolean'),
  q('timeoutSeconds', 'integer'),
  q('watch', 'boolean'),
];
export const deleteParams: readonly Param[] = [
  dryRun,
  q('gracePeriodSeconds', 'integer'),
  q('orphanDependents', 'boolean'),
  q('propagationPolicy', 'string'),
];

export function upperFirst(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** `rbac.authorization.k8s.io` -> `rbacAuthorization`; core -> `core`. */
export function groupIdentifier(group: string): string {
  if (group === '') return 'core';
  const parts = group.replace(/\.k8s\.io$/, '').split(/[.-]/);
  return parts.map((p, i) => (i === 0 ? p : upperFirst(p))).join('');
}

/** `core_v1`, `apps_v1`, `rbacAuthorization_v1`. */
export function tagOf(group: string, version: string): string {
  return `${groupIdentifier(group)}_${version}`;
}

export function byName(a: Param, b: Param): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** URL prefix of a group-version: `/api/v1` or `/apis/apps/v1`. */
export function groupVersionPath(group: string, version: string): string {
  return group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
}
