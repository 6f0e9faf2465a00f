/**
 * The schema a caller hands us, as the plain OpenAPI v3 JSON the CEL schema layer reads
 * (../schema/structural.ts). apiextensions' CRD-time seams pass the structural form
 * (apis/apiextensions/schema/structural.ts); it is turned back into the keywords CEL looks at
 * (type, format, properties, items, additionalProperties, limits, required, enum, default,
 * nullable and the x-kubernetes extensions), as upstream's model package reads a Structural.
 */
import type { Structural, ValueValidation } from '../../apis/apiextensions/schema/structural.js';
import type { JsonSchema } from '../schema/structural.js';

export type SchemaInput = JsonSchema | Structural;

/** A Structural has `generic` and `extensions` objects; JSON schema keywords never use those names. */
export function isStructural(s: SchemaInput): s is Structural {
  const r = s as Readonly<Record<string, unknown>>;
  return typeof r['generic'] === 'object' && r['generic'] !== null && typeof r['extensions'] === 'object';
}

function valueValidationJson(v: ValueValidation | undefined, out: Record<string, unknown>): void {
  if (v === undefined) return;
  if (v.format !== '') out['format'] = v.format;
  for (const k of [
    'maxLength',
    'maxItems',
    'maxProperties',
    'minLength',
    'minItems',
    'minProperties',
  ] as const) {
    const n = v[k];
    if (n !== undefined) out[k] = n;
  }
  if (v.required !== undefined) out['required'] = v.required;
  if (v.enum !== undefined) out['enum'] = v.enum;
}

/** The JSON form of a structural schema node (recursively). */
export function structuralToJson(s: Structural): JsonSchema {
  const out: Record<string, unknown> = {};
  const g = s.generic;
  if (g.type !== '') out['type'] = g.type;
  if (g.nullable) out['nullable'] = true;
  if (g.default !== undefined) out['default'] = g.default;
  if (g.additionalProperties !== undefined) {
    const ap = g.additionalProperties;
    out['additionalProperties'] = ap.structural !== undefined ? structuralToJson(ap.structural) : ap.bool;
  }
  valueValidationJson(s.valueValidation, out);
  if (s.items !== undefined) out['items'] = structuralToJson(s.items);
  if (s.properties !== undefined) {
    const props: Record<string, JsonSchema> = {};
    for (const [k, p] of s.properties) props[k] = structuralToJson(p);
    out['properties'] = props;
  }
  const x = s.extensions;
  if (x.preserveUnknownFields) out['x-kubernetes-preserve-unknown-fields'] = true;
  if (x.embeddedResource) out['x-kubernetes-embedded-resource'] = true;
  if (x.intOrString) out['x-kubernetes-int-or-string'] = true;
  if (x.listType !== undefined) out['x-kubernetes-list-type'] = x.listType;
  if (x.listMapKeys !== undefined) out['x-kubernetes-list-map-keys'] = x.listMapKeys;
  if (x.mapType !== undefined) out['x-kubernetes-map-type'] = x.mapType;
  if (x.validations !== undefined) out['x-kubernetes-validations'] = x.validations;
  return out;
}

export function toJsonSchema(s: SchemaInput): JsonSchema {
  return isStructural(s) ? structuralToJson(s) : s;
}
