/** Renders schema-model definitions as OpenAPI v2 / v3 JSON schemas, and computes ref closures. */
import { describeDefinition } from '../../apis/schema/descriptions/index.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { isRefSchema } from '../../apis/schema/registry.js';
import type { Definition, Schema, SchemaRegistry } from '../../apis/schema/types.js';

export type OpenApiVersion = 2 | 3;

const quantityName = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const intOrStringName = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';

export function refPrefix(version: OpenApiVersion): string {
  return version === 2 ? '#/definitions/' : '#/components/schemas/';
}

function put(out: JsonObject, key: string, value: unknown): void {
  if (value !== undefined) out[key] = value as JsonValue;
}

function extensionsOf(schema: Schema, out: JsonObject): void {
  if ('listMapKeys' in schema) put(out, 'x-kubernetes-list-map-keys', schema.listMapKeys);
  if ('listType' in schema) put(out, 'x-kubernetes-list-type', schema.listType);
  put(out, 'x-kubernetes-map-type', schema.mapType);
  if ('patchMergeKey' in schema) put(out, 'x-kubernetes-patch-merge-key', schema.patchMergeKey);
  if ('patchStrategy' in schema) put(out, 'x-kubernetes-patch-strategy', schema.patchStrategy);
}

/** One schema as OpenAPI JSON. v2 carries no defaults (as upstream's v2 document). */
export function renderSchema(schema: Schema, version: OpenApiVersion): JsonObject {
  const out: JsonObject = {};
  put(out, 'description', schema.description);
  if (isRefSchema(schema)) {
    const target = { $ref: refPrefix(version) + schema.ref };
    extensionsOf(schema, out);
    if (version === 2) return { ...target, ...out };
    if (schema.default !== undefined) out.default = schema.default as JsonValue;
    if (Object.keys(out).length === 0) return target;
    return { ...withDefaultFirst(out), allOf: [target], ...out };
  }
  switch (schema.type) {
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
      out.type = schema.type;
      if (schema.type !== 'boolean') put(out, 'format', schema.format);
      if (version === 3) put(out, 'default', schema.default);
      if (schema.type === 'string') put(out, 'enum', schema.enum);
      break;
    case 'array':
      out.type = 'array';
      out.items = renderSchema(schema.items, version);
      break;
    case 'object':
      out.type = 'object';
      put(out, 'required', schema.required);
      if (schema.properties !== undefined && Object.keys(schema.properties).length > 0) {
        const props: JsonObject = {};
        for (const [k, v] of Object.entries(schema.properties)) props[k] = renderSchema(v, version);
        out.properties = props;
      }
      if (schema.additionalProperties === true) out.additionalProperties = true;
      else if (schema.additionalProperties !== undefined)
        out.additionalProperties = renderSchema(schema.additionalProperties, version);
      break;
    case 'any':
      if (schema.asObject === true) out.type = 'object';
      if (version === 3 && schema.preserveUnknownFields === true)
        out['x-kubernetes-preserve-unknown-fields'] = true;
      break;
    case 'int-or-string':
      if (version === 2) {
        out.type = 'string';
        out.format = 'int-or-string';
      } else {
        out['x-kubernetes-int-or-string'] = true;
        out.anyOf = [{ type: 'integer' }, { type: 'string' }];
      }
      break;
  }
  extensionsOf(schema, out);
  if (schema.type === 'object' && schema.extensions !== undefined) {
    for (const [k, v] of Object.entries(schema.extensions)) put(out, k, v);
  }
  return out;
}

function withDefaultFirst(o: JsonObject): JsonObject {
  return o.default === undefined ? {} : { default: o.default };
}

/** Adds our descriptions (apis/schema/descriptions) to a definition and its properties. */
function describe(def: Definition): Schema {
  const texts = describeDefinition(def);
  const schema = def.schema;
  if (texts === undefined || isRefSchema(schema)) return schema;
  const fields = texts.fields ?? {};
  let described: Schema = schema;
  if (schema.type === 'object' && schema.properties !== undefined) {
    const properties: Record<string, Schema> = {};
    for (const [k, v] of Object.entries(schema.properties)) {
      const d = fields[k];
      properties[k] = d === undefined ? v : { ...v, description: d };
    }
    described = { ...schema, properties };
  }
  return texts.text === undefined ? described : { ...described, description: texts.text };
}

/** A whole definition, with the definition-level special cases upstream publishes. */
export function renderDefinition(def: Definition, version: OpenApiVersion): JsonObject {
  if (def.rendered !== undefined) return version === 2 ? def.rendered.v2 : def.rendered.v3;
  let out: JsonObject;
  if (version === 3 && def.name === quantityName) {
    out = { oneOf: [{ type: 'string' }, { type: 'number' }] };
  } else if (version === 3 && def.name === intOrStringName) {
    out = { format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] };
  } else {
    out = renderSchema(describe(def), version);
  }
  if (def.gvk !== undefined) {
    out['x-kubernetes-group-version-kind'] = def.gvk.map((g) => ({
      group: g.group,
      kind: g.kind,
      version: g.version,
    }));
  }
  return out;
}

function collectRefs(schema: Schema, out: string[]): void {
  if (isRefSchema(schema)) {
    out.push(schema.ref);
    return;
  }
  if (schema.type === 'array') collectRefs(schema.items, out);
  else if (schema.type === 'object') {
    for (const p of Object.values(schema.properties ?? {})) collectRefs(p, out);
    if (schema.additionalProperties !== undefined && schema.additionalProperties !== true)
      collectRefs(schema.additionalProperties, out);
  }
}

/** Names of `roots` and every definition they reach, sorted. Unknown names are skipped. */
export function definitionClosure(registry: SchemaRegistry, roots: Iterable<string>): string[] {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    const def = registry.get(name);
    if (def === undefined) continue;
    seen.add(name);
    const refs: string[] = [];
    collectRefs(def.schema, refs);
    queue.push(...refs);
  }
  return [...seen].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The rendered definitions of a closure, keyed by name in sorted order. */
export function renderDefinitions(
  registry: SchemaRegistry,
  roots: Iterable<string>,
  version: OpenApiVersion,
): JsonObject {
  const out: JsonObject = {};
  for (const name of definitionClosure(registry, roots))
    out[name] = renderDefinition(registry.get(name)!, version);
  return out;
}
