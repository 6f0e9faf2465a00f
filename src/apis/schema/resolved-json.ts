/**
 * A definition as one self-contained OpenAPI v3 JSON schema, references inlined (upstream's
 * schema resolver for type checking: DefinitionsSchemaResolver for built-in kinds, the published
 * schema for custom resources). A reference back to a definition already being inlined on the
 * same path (JSONSchemaProps' recursion) becomes a free-form value.
 */
import type { JsonObject, JsonValue } from '../../util/json.js';
import { isRefSchema } from './registry.js';
import type { Schema, SchemaRegistry } from './types.js';

function extensions(schema: Schema, out: JsonObject): void {
  if ('listType' in schema && schema.listType !== undefined) out['x-kubernetes-list-type'] = schema.listType;
  if ('listMapKeys' in schema && schema.listMapKeys !== undefined) {
    out['x-kubernetes-list-map-keys'] = [...schema.listMapKeys];
  }
  if (schema.mapType !== undefined) out['x-kubernetes-map-type'] = schema.mapType;
}

function inline(registry: SchemaRegistry, schema: Schema, path: ReadonlySet<string>): JsonObject {
  if (isRefSchema(schema)) {
    if (path.has(schema.ref)) return { 'x-kubernetes-preserve-unknown-fields': true };
    const def = registry.get(schema.ref);
    if (def === undefined) return { 'x-kubernetes-preserve-unknown-fields': true };
    const out =
      def.rendered !== undefined
        ? rendered(registry, def.rendered.v3, new Set([...path, schema.ref]))
        : inline(registry, def.schema, new Set([...path, schema.ref]));
    extensions(schema, out);
    return out;
  }
  const out: JsonObject = {};
  switch (schema.type) {
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
      out['type'] = schema.type;
      if (schema.type !== 'boolean' && schema.format !== undefined) out['format'] = schema.format;
      if (schema.type === 'string' && schema.enum !== undefined) out['enum'] = [...schema.enum];
      break;
    case 'array':
      out['type'] = 'array';
      out['items'] = inline(registry, schema.items, path);
      break;
    case 'object': {
      out['type'] = 'object';
      if (schema.required !== undefined) out['required'] = [...schema.required];
      if (schema.properties !== undefined) {
        const props: JsonObject = {};
        for (const [k, v] of Object.entries(schema.properties)) props[k] = inline(registry, v, path);
        out['properties'] = props;
      }
      if (schema.additionalProperties === true) out['x-kubernetes-preserve-unknown-fields'] = true;
      else if (schema.additionalProperties !== undefined) {
        out['additionalProperties'] = inline(registry, schema.additionalProperties, path);
      }
      break;
    }
    case 'any':
      out['x-kubernetes-preserve-unknown-fields'] = true;
      break;
    case 'int-or-string':
      out['x-kubernetes-int-or-string'] = true;
      break;
  }
  extensions(schema, out);
  return out;
}

/** A published (custom resource) schema with its `#/components/schemas/` references inlined. */
function rendered(registry: SchemaRegistry, json: JsonObject, path: ReadonlySet<string>): JsonObject {
  const walk = (v: JsonValue): JsonValue => {
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v !== 'object' || v === null) return v;
    const ref = v['$ref'];
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
      return inline(registry, { ref: ref.slice('#/components/schemas/'.length) }, path);
    }
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) {
      if (k === 'allOf' && Array.isArray(x) && x.length === 1) Object.assign(out, walk(x[0]!) as JsonObject);
      else out[k] = walk(x);
    }
    return out;
  };
  return walk(json) as JsonObject;
}

/** The definition's schema with every reference inlined, or undefined when there is none by that name. */
export function resolvedJsonSchema(registry: SchemaRegistry, definition: string): JsonObject | undefined {
  if (registry.get(definition) === undefined) return undefined;
  return inline(registry, { ref: definition }, new Set());
}
