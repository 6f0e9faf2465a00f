/** The REST paths kube-apiserver publishes for one served resource. */
import type { ResourceInfo } from '../../apis/resource.js';
import type { GroupVersionKind } from '../../apis/schema/types.js';
import {
  anyType,
  byName,
  deleteOptionsDef,
  deleteParams,
  deleteReturnsObject,
  dryRun,
  fieldManager,
  fieldValidation,
  groupIdentifier,
  groupVersionPath,
  json,
  listParams,
  patchDef,
  patchTypes,
  pathParam,
  pretty,
  q,
  scaleDef,
  statusDef,
  streams,
  tagOf,
  upperFirst,
  watchEventDef,
} from './operations.js';
import type { Operation, Param, PathItem } from './operations.js';

/** Every path upstream publishes for one resource, given its verbs and subresources. */
export function resourcePaths(info: ResourceInfo): PathItem[] {
  const gv = upperFirst(groupIdentifier(info.group)) + upperFirst(info.version);
  const tag = tagOf(info.group, info.version);
  const base = groupVersionPath(info.group, info.version);
  const gvk: GroupVersionKind = { group: info.group, version: info.version, kind: info.kind };
  const verbs = new Set(info.verbs);
  const ns = info.namespaced ? 'Namespaced' : '';
  const nsPath = info.namespaced ? '/namespaces/{namespace}' : '';
  const nsParams = info.namespaced ? [pathParam('namespace')] : [];
  const kind = info.kind;
  const obj = info.definition;
  const list = `${info.definition}List`;
  const out: PathItem[] = [];
  const op = (o: Omit<Operation, 'gvk'> & { gvk?: GroupVersionKind }): Operation => ({ gvk, ...o });

  const collection: Operation[] = [];
  if (verbs.has('list'))
    collection.push(
      op({
        method: 'get',
        operationId: `list${gv}${ns}${kind}`,
        action: 'list',
        consumes: anyType,
        produces: streams,
        params: listParams,
        responses: { '200': list },
      }),
    );
  if (verbs.has('create'))
    collection.push(
      op({
        method: 'post',
        operationId: `create${gv}${ns}${kind}`,
        action: 'post',
        body: obj,
        bodyRequired: true,
        consumes: anyType,
        produces: json,
        params: [dryRun, fieldManager, fieldValidation],
        responses: { '200': obj, '201': obj, '202': obj },
      }),
    );
  if (verbs.has('deletecollection'))
    collection.push(
      op({
        method: 'delete',
        operationId: `delete${gv}Collection${ns}${kind}`,
        action: 'deletecollection',
        body: deleteOptionsDef,
        consumes: anyType,
        produces: json,
        params: [
          ...listParams.filter((p) => p.name !== 'allowWatchBookmarks' && p.name !== 'watch'),
          ...deleteParams,
        ].sort(byName),
        responses: { '200': statusDef },
      }),
    );
  if (collection.length > 0)
    out.push({
      path: `${base}${nsPath}/${info.resource}`,
      tag,
      params: [...nsParams, pretty],
      operations: collection,
    });

  const nameParam = pathParam('name');
  const itemParams = [nameParam, ...nsParams, pretty];
  const itemOps = (suffix: string, target: string, g: GroupVersionKind): Operation[] => {
    const ops: Operation[] = [];
    const id = `${gv}${ns}${kind}${suffix}`;
    if (verbs.has('get'))
      ops.push(
        op({
          method: 'get',
          operationId: `read${id}`,
          action: 'get',
          gvk: g,
          consumes: anyType,
          produces: json,
          params: [],
          responses: { '200': target },
        }),
      );
    if (verbs.has('update'))
      ops.push(
        op({
          method: 'put',
          operationId: `replace${id}`,
          action: 'put',
          gvk: g,
          body: target,
          bodyRequired: true,
          consumes: anyType,
          produces: json,
          params: [dryRun, fieldManager, fieldValidation],
          responses: { '200': target, '201': target },
        }),
      );
    if (suffix === '' && verbs.has('delete')) {
      const key = `${info.group}/${info.resource}`;
      const result = deleteReturnsObject.has(key) ? obj : statusDef;
      ops.push(
        op({
          method: 'delete',
          operationId: `delete${id}`,
          action: 'delete',
          body: deleteOptionsDef,
          consumes: anyType,
          produces: json,
          params: deleteParams,
          responses: { '200': result, '202': result },
        }),
      );
    }
    if (verbs.has('patch'))
      ops.push(
        op({
          method: 'patch',
          operationId: `patch${id}`,
          action: 'patch',
          gvk: g,
          body: patchDef,
          bodyRequired: true,
          consumes: patchTypes,
          produces: json,
          params: [dryRun, q('fieldManager', 'string'), fieldValidation, q('force', 'boolean')],
          responses: { '200': target, '201': target },
        }),
      );
    return ops;
  };
  const item = itemOps('', obj, gvk);
  if (item.length > 0)
    out.push({ path: `${base}${nsPath}/${info.resource}/{name}`, tag, params: itemParams, operations: item });
  if (info.statusSubresource === true) {
    const ops = itemOps('Status', obj, gvk);
    if (ops.length > 0)
      out.push({
        path: `${base}${nsPath}/${info.resource}/{name}/status`,
        tag,
        params: itemParams,
        operations: ops,
      });
  }
  if (info.scale !== undefined) {
    const ops = itemOps('Scale', scaleDef, { group: 'autoscaling', version: 'v1', kind: 'Scale' });
    if (ops.length > 0)
      out.push({
        path: `${base}${nsPath}/${info.resource}/{name}/scale`,
        tag,
        params: itemParams,
        operations: ops,
      });
  }

  if (info.namespaced && verbs.has('list'))
    out.push({
      path: `${base}/${info.resource}`,
      tag,
      params: [...listParams, pretty].sort(byName),
      operations: [
        op({
          method: 'get',
          operationId: `list${gv}${kind}ForAllNamespaces`,
          action: 'list',
          consumes: anyType,
          produces: streams,
          params: [],
          responses: { '200': list },
        }),
      ],
    });
  if (verbs.has('watch')) {
    const watch = (path: string, operationId: string, action: string, params: Param[]): void => {
      out.push({
        path,
        tag,
        params: [...listParams, pretty, ...params].sort(byName),
        operations: [
          op({
            method: 'get',
            operationId,
            action,
            consumes: anyType,
            produces: streams,
            params: [],
            responses: { '200': watchEventDef },
          }),
        ],
      });
    };
    watch(`${base}/watch${nsPath}/${info.resource}`, `watch${gv}${ns}${kind}List`, 'watchlist', nsParams);
    watch(`${base}/watch${nsPath}/${info.resource}/{name}`, `watch${gv}${ns}${kind}`, 'watch', [
      nameParam,
      ...nsParams,
    ]);
    if (info.namespaced)
      watch(`${base}/watch/${info.resource}`, `watch${gv}${kind}ListForAllNamespaces`, 'watchlist', []);
  }
  return out;
}
