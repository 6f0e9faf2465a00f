/** The REST paths kube-apiserver publishes for one served resource. */
import type { ResourceInfo } from '../../apis/resource.js';
import type { GroupVersionKind } from '../../apis/schema/types.js';
import {
  anyType,
  byName,
  deleteOptionsDef,
  deleteParams,
  dryRun,
  fieldManager,
  fieldValidation,
  groupIdentifier,
  groupResourceKey,
  groupVersionPath,
  json,
  listParams,
  logTypes,
  patchDef,
  patchTypes,
  pathParam,
  pretty,
  q,
  scaleDef,
  statusDef,
  streams,
  stringBody,
  tagOf,
  upperFirst,
  watchEventDef,
} from './operations.js';
import type { Operation, Param, PathItem } from './operations.js';

/** Query parameters of the connect subresources, by their options kind (upstream's *Options). */
const connectParams: Readonly<Record<string, readonly Param[]>> = {
  PodAttachOptions: [
    q('container', 'string'),
    q('stderr', 'boolean'),
    q('stdin', 'boolean'),
    q('stdout', 'boolean'),
    q('tty', 'boolean'),
  ],
  PodExecOptions: [
    q('command', 'string'),
    q('container', 'string'),
    q('stderr', 'boolean'),
    q('stdin', 'boolean'),
    q('stdout', 'boolean'),
    q('tty', 'boolean'),
  ],
  PodPortForwardOptions: [q('ports', 'integer')],
  PodProxyOptions: [q('path', 'string')],
  ServiceProxyOptions: [q('path', 'string')],
  NodeProxyOptions: [q('path', 'string')],
};

/** The query parameters of `pods/{name}/log` (PodLogOptions) besides `pretty`. */
const logParams: readonly Param[] = [
  q('container', 'string'),
  q('follow', 'boolean'),
  q('insecureSkipTLSVerifyBackend', 'boolean'),
  q('limitBytes', 'integer'),
  q('previous', 'boolean'),
  q('sinceSeconds', 'integer'),
  q('tailLines', 'integer'),
  q('timestamps', 'boolean'),
];

/** HTTP methods of a connect subresource: proxies take every method, the others GET and POST. */
const proxyMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;
const streamMethods = ['get', 'post'] as const;

/** `io.k8s.api.<package>.<version>.<kind>` of a kind in another group (policy/v1 Eviction). */
function definitionOf(group: string, version: string, kind: string): string {
  const pkg = group === '' ? 'core' : group.split('.')[0]!;
  return `io.k8s.api.${pkg}.${version}.${kind}`;
}

function subresourceCreate(gvk: GroupVersionKind, target: string, operationId: string): Operation[] {
  return [
    {
      method: 'post',
      operationId,
      action: 'post',
      gvk,
      body: target,
      bodyRequired: true,
      consumes: anyType,
      produces: json,
      params: [dryRun, fieldManager, fieldValidation],
      responses: { '200': target, '201': target, '202': target },
    },
  ];
}

/**
 * Every path upstream publishes for one resource, given its verbs and subresources;
 * `deleteReturnsObject` holds the `group/resource` keys whose DELETE answers with the object.
 */
export function resourcePaths(info: ResourceInfo, deleteReturnsObject: ReadonlySet<string>): PathItem[] {
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
  const list = info.listDefinition ?? `${info.definition}List`;
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
      const result = deleteReturnsObject.has(groupResourceKey(info)) ? obj : statusDef;
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

  for (const sub of info.extraSubresources ?? []) {
    const subPath = `${base}${nsPath}/${info.resource}/{name}/${sub.name}`;
    const suffix = upperFirst(sub.name);
    const subVerbs = new Set(sub.verbs);
    const options = sub.kind !== undefined ? connectParams[sub.kind] : undefined;
    if (options !== undefined) {
      // Connect subresources (attach, exec, portforward, proxy): any body, a string back.
      const subGvk: GroupVersionKind = { group: info.group, version: info.version, kind: sub.kind! };
      const isProxy = sub.name === 'proxy';
      const connect = (withPath: string): Operation[] =>
        (isProxy ? proxyMethods : streamMethods).map((method) =>
          op({
            method,
            operationId: `connect${gv}${upperFirst(method)}${ns}${kind}${suffix}${withPath}`,
            action: 'connect',
            gvk: subGvk,
            consumes: anyType,
            produces: anyType,
            params: [],
            responses: { '200': stringBody },
          }),
        );
      out.push({ path: subPath, tag, params: [nameParam, ...nsParams, ...options], operations: connect('') });
      if (isProxy)
        out.push({
          path: `${subPath}/{path}`,
          tag,
          params: [nameParam, ...nsParams, pathParam('path'), ...options],
          operations: connect('WithPath'),
        });
    } else if (sub.name === 'log') {
      out.push({
        path: subPath,
        tag,
        params: [...itemParams, ...logParams],
        operations: [
          op({
            method: 'get',
            operationId: `read${gv}${ns}${kind}${suffix}`,
            action: 'get',
            consumes: anyType,
            produces: logTypes,
            params: [],
            responses: { '200': stringBody },
          }),
        ],
      });
    } else if (sub.computed === true && sub.kind !== undefined) {
      // A computed create taking a kind of its own (pods/binding, pods/eviction, serviceaccounts/token).
      const subGvk: GroupVersionKind = {
        group: sub.group ?? info.group,
        version: sub.version ?? info.version,
        kind: sub.kind,
      };
      const target = definitionOf(subGvk.group, subGvk.version, subGvk.kind);
      out.push({
        path: subPath,
        tag,
        params: itemParams,
        operations: subresourceCreate(subGvk, target, `create${gv}${ns}${kind}${suffix}`),
      });
    } else {
      // The kind itself under another name (namespaces/finalize, pods/ephemeralcontainers, approval).
      const ops = itemOps(suffix, obj, gvk).filter((o) =>
        subVerbs.has(o.method === 'put' ? 'update' : o.method),
      );
      if (ops.length > 0) out.push({ path: subPath, tag, params: itemParams, operations: ops });
    }
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
