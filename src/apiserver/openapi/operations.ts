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

/** A response body: a definition name, or a plain string (logs and connect subresources). */
export type ResponseBody = string | { readonly type: 'string' };
export const stringBody: ResponseBody = { type: 'string' };

export interface Operation {
  readonly method: 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch';
  readonly operationId: string;
  readonly action: string;
  readonly gvk?: GroupVersionKind;
  /** Request body definition name; `bodyRequired` marks it required. */
  readonly body?: string;
  readonly bodyRequired?: boolean;
  readonly consumes: readonly string[];
  readonly produces: readonly string[];
  readonly params: readonly Param[];
  /** Response code -> definition name (or a plain string body). */
  readonly responses: Readonly<Record<string, ResponseBody>>;
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
/** What `pods/log` produces. */
export const logTypes = ['text/plain', ...json];
export const patchTypes = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];

/** The `group/resource` key of OpenApiOptions.deleteReturnsObject (`/pods` for the core group). */
export function groupResourceKey(info: { readonly group: string; readonly resource: string }): string {
  return `${info.group}/${info.resource}`;
}

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

/** Parameters by name, then `path` before `query` (a proxy path's `path` is both). */
export function byName(a: Param, b: Param): number {
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.in < b.in ? -1 : a.in > b.in ? 1 : 0;
}

const paramKey = (p: Param): string => `${p.in}:${p.name}`;

/**
 * Where each parameter is published, as kube-openapi does it: a parameter every operation of a
 * path takes moves up to the path, which lists its parameters sorted by name; what remains stays
 * on the operation, also sorted.
 */
export function placeParams(item: PathItem): {
  readonly pathParams: readonly Param[];
  readonly opParams: ReadonlyMap<Operation, readonly Param[]>;
} {
  const [first, ...rest] = item.operations;
  const common = new Set((first?.params ?? []).map(paramKey));
  for (const op of rest) {
    const keys = new Set(op.params.map(paramKey));
    for (const k of common) if (!keys.has(k)) common.delete(k);
  }
  const hoisted = (first?.params ?? []).filter((p) => common.has(paramKey(p)));
  const pathParams = [...item.params, ...hoisted].sort(byName);
  const opParams = new Map<Operation, readonly Param[]>();
  for (const op of item.operations)
    opParams.set(op, op.params.filter((p) => !common.has(paramKey(p))).sort(byName));
  return { pathParams, opParams };
}

/** URL prefix of a group-version: `/api/v1` or `/apis/apps/v1`. */
export function groupVersionPath(group: string, version: string): string {
  return group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
}
