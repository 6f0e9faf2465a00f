/** The Swagger 2.0 document served at /openapi/v2, shaped like kube-apiserver's. */
import type { ResourceInfo } from '../../apis/resource.js';
import type { SchemaRegistry } from '../../apis/schema/types.js';
import type { JsonObject } from '../../util/json.js';
import {
  groupDiscoveryPath,
  groupVersionDiscoveryPath,
  issuerDiscoveryPaths,
  rootPaths,
} from './discovery-paths.js';
import { resourcePaths } from './resource-paths.js';
import { placeParams } from './operations.js';
import type { Operation, Param, PathItem, ResponseBody } from './operations.js';
import { refPrefix, renderDefinitions } from './schema-json.js';

export interface OpenApiOptions {
  readonly registry: SchemaRegistry;
  readonly resources: readonly ResourceInfo[];
  /** `group/resource` keys (groupResourceKey) whose DELETE answers with the deleted object. */
  readonly deleteReturnsObject: ReadonlySet<string>;
  readonly version: { readonly gitVersion: string };
  /** The service-account issuer discovery documents are served (their paths are published). */
  readonly issuerDiscovery?: boolean;
}

const responseText: Readonly<Record<string, string>> = { '200': 'OK', '201': 'Created', '202': 'Accepted' };

function ref(name: string): JsonObject {
  return { $ref: refPrefix(2) + name };
}

function bodySchema(body: ResponseBody): JsonObject {
  return typeof body === 'string' ? ref(body) : { type: body.type };
}

function param(p: Param): JsonObject {
  const out: JsonObject = { uniqueItems: true, type: p.type, name: p.name, in: p.in };
  if (p.required === true) out.required = true;
  return out;
}

function operation(op: Operation, opParams: readonly Param[], tag: string): JsonObject {
  const params: JsonObject[] = [];
  if (op.body !== undefined) {
    const body: JsonObject = { name: 'body', in: 'body', schema: ref(op.body) };
    if (op.bodyRequired === true) body.required = true;
    params.push(body);
  }
  params.push(...opParams.map(param));
  const responses: JsonObject = {};
  for (const [code, def] of Object.entries(op.responses)) {
    responses[code] = { description: responseText[code] ?? 'OK', schema: bodySchema(def) };
  }
  responses['401'] = { description: 'Unauthorized' };
  const out: JsonObject = {
    ...(op.consumes.length > 0 ? { consumes: [...op.consumes] } : {}),
    produces: [...op.produces],
    schemes: ['https'],
    tags: [tag],
    operationId: op.operationId,
  };
  if (params.length > 0) out.parameters = params;
  out.responses = responses;
  if (op.action !== '') out['x-kubernetes-action'] = op.action;
  if (op.gvk !== undefined)
    out['x-kubernetes-group-version-kind'] = {
      group: op.gvk.group,
      kind: op.gvk.kind,
      version: op.gvk.version,
    };
  return out;
}

export function renderPathsV2(items: readonly PathItem[]): JsonObject {
  const paths: JsonObject = {};
  for (const item of [...items].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const { pathParams, opParams } = placeParams(item);
    const entry: JsonObject = {};
    for (const op of item.operations) entry[op.method] = operation(op, opParams.get(op) ?? [], item.tag);
    if (pathParams.length > 0) entry.parameters = pathParams.map(param);
    paths[item.path] = entry;
  }
  return paths;
}

/** Definitions the operations of `items` take or answer with (a document's roots). */
export function operationDefs(items: readonly PathItem[]): string[] {
  const out: string[] = [];
  for (const item of items)
    for (const op of item.operations) {
      if (op.body !== undefined) out.push(op.body);
      for (const r of Object.values(op.responses)) if (typeof r === 'string') out.push(r);
    }
  return out;
}

/** Every path of the served resources plus discovery, grouped by group-version order. */
export function allPathItems(
  resources: readonly ResourceInfo[],
  deleteReturnsObject: ReadonlySet<string>,
  issuerDiscovery = false,
): PathItem[] {
  const items: PathItem[] = [...rootPaths(), ...(issuerDiscovery ? issuerDiscoveryPaths() : [])];
  const groups = new Set<string>();
  const gvs = new Set<string>();
  for (const r of resources) {
    const gvKey = `${r.group}/${r.version}`;
    if (!gvs.has(gvKey)) {
      gvs.add(gvKey);
      items.push(groupVersionDiscoveryPath(r.group, r.version));
    }
    if (r.group !== '' && !groups.has(r.group)) {
      groups.add(r.group);
      items.push(groupDiscoveryPath(r.group));
    }
    items.push(...resourcePaths(r, deleteReturnsObject));
  }
  return items;
}

export function buildOpenApiV2(options: OpenApiOptions): JsonObject {
  // As upstream, the definitions are those the published operations reach.
  const items = allPathItems(
    options.resources,
    options.deleteReturnsObject,
    options.issuerDiscovery === true,
  );
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: options.version.gitVersion },
    paths: renderPathsV2(items),
    definitions: renderDefinitions(options.registry, operationDefs(items), 2),
    securityDefinitions: {
      BearerToken: {
        description: 'Bearer Token authentication',
        type: 'apiKey',
        name: 'authorization',
        in: 'header',
      },
    },
    security: [{ BearerToken: [] }],
  };
}
