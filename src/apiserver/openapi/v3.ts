/** The OpenAPI 3.0 documents served under /openapi/v3/<path>, and their index at /openapi/v3. */
import {
  groupDiscoveryPath,
  groupVersionDiscoveryPath,
  issuerDiscoveryPaths,
  rootPaths,
} from './discovery-paths.js';
import { resourcePaths } from './resource-paths.js';
import { createHash } from 'node:crypto';
import type { JsonObject } from '../../util/json.js';
import { placeParams } from './operations.js';
import type { Operation, Param, PathItem, ResponseBody } from './operations.js';
import { refPrefix, renderDefinitions } from './schema-json.js';
import { operationDefs } from './v2.js';
import type { OpenApiOptions } from './v2.js';

/** One v3 document and the index key it is served under (`api/v1`, `apis/apps/v1`, `version`). */
export interface OpenApiV3Document {
  readonly path: string;
  readonly document: JsonObject;
}

const responseText: Readonly<Record<string, string>> = { '200': 'OK', '201': 'Created', '202': 'Accepted' };

function ref(name: string): JsonObject {
  return { $ref: refPrefix(3) + name };
}

function param(p: Param): JsonObject {
  const out: JsonObject = { name: p.name, in: p.in };
  if (p.required === true) out.required = true;
  out.schema = { type: p.type, uniqueItems: true };
  return out;
}

function content(types: readonly string[], body: ResponseBody): JsonObject {
  const out: JsonObject = {};
  for (const t of [...types].sort())
    out[t] = { schema: typeof body === 'string' ? ref(body) : { type: body.type } };
  return out;
}

function operation(op: Operation, opParams: readonly Param[], tag: string): JsonObject {
  const out: JsonObject = { tags: [tag], operationId: op.operationId };
  if (opParams.length > 0) out.parameters = opParams.map(param);
  if (op.body !== undefined) {
    out.requestBody = { content: content(op.consumes, op.body) };
  }
  const responses: JsonObject = {};
  for (const [code, def] of Object.entries(op.responses)) {
    responses[code] = { description: responseText[code] ?? 'OK', content: content(op.produces, def) };
  }
  responses['401'] = { description: 'Unauthorized' };
  out.responses = responses;
  if (op.action !== '') out['x-kubernetes-action'] = op.action;
  if (op.gvk !== undefined)
    out['x-kubernetes-group-version-kind'] = {
      group: op.gvk.group,
      version: op.gvk.version,
      kind: op.gvk.kind,
    };
  return out;
}

function renderPaths(items: readonly PathItem[]): JsonObject {
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

const securitySchemes: JsonObject = {
  BearerToken: {
    type: 'apiKey',
    description: 'Bearer Token authentication',
    name: 'authorization',
    in: 'header',
  },
};

/** A document's schemas are those its operations take or answer with, and what they reach. */
function document(options: OpenApiOptions, items: readonly PathItem[]): JsonObject {
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: options.version.gitVersion },
    paths: renderPaths(items),
    components: {
      schemas: renderDefinitions(options.registry, operationDefs(items), 3),
      securitySchemes,
    },
  };
}

/** Per-path documents: `api`, `apis`, `version`, `api/v1`, `apis/<group>`, `apis/<group>/<version>`. */
export function buildOpenApiV3(options: OpenApiOptions): OpenApiV3Document[] {
  const docs: OpenApiV3Document[] = [];
  const [api, apis, version] = rootPaths();
  docs.push({ path: 'api', document: document(options, [api!]) });
  docs.push({ path: 'apis', document: document(options, [apis!]) });
  docs.push({ path: 'version', document: document(options, [version!]) });
  if (options.issuerDiscovery === true) {
    const [configuration, jwks] = issuerDiscoveryPaths();
    docs.push({ path: '.well-known/openid-configuration', document: document(options, [configuration!]) });
    docs.push({ path: 'openid/v1/jwks', document: document(options, [jwks!]) });
  }
  const byGv = new Map<string, OpenApiOptions['resources'][number][]>();
  for (const r of options.resources) {
    const key = r.group === '' ? `api/${r.version}` : `apis/${r.group}/${r.version}`;
    const list = byGv.get(key) ?? [];
    list.push(r);
    byGv.set(key, list);
  }
  const groups = new Set<string>();
  for (const [path, resources] of byGv) {
    const first = resources[0]!;
    if (first.group !== '' && !groups.has(first.group)) {
      groups.add(first.group);
      docs.push({
        path: `apis/${first.group}`,
        document: document(options, [groupDiscoveryPath(first.group)]),
      });
    }
    const items = [
      groupVersionDiscoveryPath(first.group, first.version),
      ...resources.flatMap((r) => resourcePaths(r, options.deleteReturnsObject)),
    ];
    docs.push({ path, document: document(options, items) });
  }
  return docs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The index's hash of a document: uppercase hex SHA-512 of its serialized bytes. */
export function openApiV3Hash(bytes: string | Uint8Array): string {
  return createHash('sha512').update(bytes).digest('hex').toUpperCase();
}

/**
 * The /openapi/v3 index. `serialize` must produce the exact bytes served for a document (the
 * default is compact JSON) so the hash in each URL matches what the client receives.
 */
export function buildOpenApiV3Index(
  docs: readonly OpenApiV3Document[],
  serialize: (doc: JsonObject) => string | Uint8Array = (d) => JSON.stringify(d),
): JsonObject {
  const paths: JsonObject = {};
  for (const d of docs) {
    paths[d.path] = {
      serverRelativeURL: `/openapi/v3/${d.path}?hash=${openApiV3Hash(serialize(d.document))}`,
    };
  }
  return { paths };
}
