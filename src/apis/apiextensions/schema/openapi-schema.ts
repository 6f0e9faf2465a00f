/**
 * The schema kube-openapi's validator works on (kube-openapi pkg/validation/spec.Schema, the
 * parts a CRD can use), built either from a CRD's v1 JSON as apiextensions-apiserver v0.27
 * pkg/apiserver/validation/validation.go ConvertJSONSchemaPropsWithPostProcess does (with
 * StripUnsupportedFormatsPostProcess; x-kubernetes-int-or-string becomes type [integer, string])
 * or from a Structural as pkg/apiserver/schema/kubeopenapi.go ToKubeOpenAPI does.
 */
import { isJsonObject } from '../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../util/json.js';
import { isKnownFormat } from './formats.js';
import type { NestedValueValidation, Structural, ValueValidation } from './structural.js';

export interface OpenAPISchema {
  type: string[];
  nullable: boolean;
  format: string;
  maximum?: number;
  exclusiveMaximum: boolean;
  minimum?: number;
  exclusiveMinimum: boolean;
  maxLength?: number;
  minLength?: number;
  pattern: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems: boolean;
  multipleOf?: number;
  enum?: JsonValue[];
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  allOf?: OpenAPISchema[];
  oneOf?: OpenAPISchema[];
  anyOf?: OpenAPISchema[];
  not?: OpenAPISchema;
  properties?: Map<string, OpenAPISchema>;
  additionalProperties?: { allows: boolean; schema?: OpenAPISchema };
  /** A single items schema (an items array is not supported by CRDs and is ignored). */
  items?: OpenAPISchema;
}

function emptySchema(): OpenAPISchema {
  return {
    type: [],
    nullable: false,
    format: '',
    exclusiveMaximum: false,
    exclusiveMinimum: false,
    pattern: '',
    uniqueItems: false,
  };
}

const numericKeys = [
  'maximum',
  'minimum',
  'maxLength',
  'minLength',
  'maxItems',
  'minItems',
  'multipleOf',
  'maxProperties',
  'minProperties',
] as const;

/**
 * Upstream ConvertJSONSchemaPropsWithPostProcess + StripUnsupportedFormatsPostProcess over the
 * v1 JSON schema: formats apiextensions does not support are dropped.
 */
export function openAPISchemaFromJSON(s: JsonObject): OpenAPISchema {
  const out = emptySchema();
  const type = s['type'];
  if (typeof type === 'string' && type !== '') out.type = [type];
  if (s['x-kubernetes-int-or-string'] === true) out.type = ['integer', 'string'];
  out.nullable = s['nullable'] === true;
  const format = s['format'];
  if (typeof format === 'string' && isKnownFormat(format)) out.format = format;
  out.exclusiveMaximum = s['exclusiveMaximum'] === true;
  out.exclusiveMinimum = s['exclusiveMinimum'] === true;
  out.uniqueItems = s['uniqueItems'] === true;
  const pattern = s['pattern'];
  if (typeof pattern === 'string') out.pattern = pattern;
  for (const k of numericKeys) {
    const v = s[k];
    if (typeof v === 'number') out[k] = v;
  }
  const required = s['required'];
  if (Array.isArray(required)) out.required = required.filter((x): x is string => typeof x === 'string');
  const enumValues = s['enum'];
  if (Array.isArray(enumValues)) out.enum = [...enumValues];
  for (const k of ['allOf', 'oneOf', 'anyOf'] as const) {
    const list = s[k];
    if (Array.isArray(list) && list.length > 0) {
      out[k] = list.map((x) => openAPISchemaFromJSON(isJsonObject(x) ? x : {}));
    }
  }
  const not = s['not'];
  if (isJsonObject(not)) out.not = openAPISchemaFromJSON(not);
  const props = s['properties'];
  if (isJsonObject(props)) {
    out.properties = new Map(
      Object.entries(props).map(([k, v]) => [k, openAPISchemaFromJSON(isJsonObject(v) ? v : {})]),
    );
  }
  const ap = s['additionalProperties'];
  if (isJsonObject(ap)) out.additionalProperties = { allows: true, schema: openAPISchemaFromJSON(ap) };
  else if (typeof ap === 'boolean') out.additionalProperties = { allows: ap };
  const items = s['items'];
  if (isJsonObject(items)) out.items = openAPISchemaFromJSON(items);
  return out;
}

function applyValueValidation(out: OpenAPISchema, v: ValueValidation | undefined): void {
  if (v === undefined) return;
  out.format = v.format;
  out.exclusiveMaximum = v.exclusiveMaximum;
  out.exclusiveMinimum = v.exclusiveMinimum;
  out.pattern = v.pattern;
  out.uniqueItems = v.uniqueItems;
  for (const k of numericKeys) {
    const n = v[k];
    if (n !== undefined) out[k] = n;
  }
  if (v.enum !== undefined) out.enum = [...v.enum];
  if (v.required !== undefined) out.required = [...v.required];
  if (v.allOf !== undefined) out.allOf = v.allOf.map(nestedToOpenAPI);
  if (v.anyOf !== undefined) out.anyOf = v.anyOf.map(nestedToOpenAPI);
  if (v.oneOf !== undefined) out.oneOf = v.oneOf.map(nestedToOpenAPI);
  if (v.not !== undefined) out.not = nestedToOpenAPI(v.not);
}

function nestedToOpenAPI(v: NestedValueValidation): OpenAPISchema {
  const out = emptySchema();
  applyValueValidation(out, v.valueValidation);
  if (v.items !== undefined) out.items = nestedToOpenAPI(v.items);
  if (v.properties !== undefined) {
    out.properties = new Map([...v.properties].map(([k, p]) => [k, nestedToOpenAPI(p)]));
  }
  // Normally empty; the int-or-string patterns put a type here.
  const g = v.forbiddenGenerics;
  if (g.type !== '') out.type = [g.type];
  out.nullable = g.nullable;
  if (g.additionalProperties !== undefined) {
    out.additionalProperties = { allows: g.additionalProperties.bool };
    const st = g.additionalProperties.structural;
    if (st !== undefined) out.additionalProperties.schema = openAPISchemaFromStructural(st);
  }
  return out;
}

/** Upstream Structural.ToKubeOpenAPI (formats kept as they are). */
export function openAPISchemaFromStructural(s: Structural): OpenAPISchema {
  const out = emptySchema();
  if (s.items !== undefined) out.items = openAPISchemaFromStructural(s.items);
  if (s.properties !== undefined) {
    out.properties = new Map([...s.properties].map(([k, p]) => [k, openAPISchemaFromStructural(p)]));
  }
  const g = s.generic;
  if (g.type !== '') out.type = [g.type];
  out.nullable = g.nullable;
  if (g.additionalProperties !== undefined) {
    out.additionalProperties = { allows: g.additionalProperties.bool };
    const st = g.additionalProperties.structural;
    if (st !== undefined) out.additionalProperties.schema = openAPISchemaFromStructural(st);
  }
  applyValueValidation(out, s.valueValidation);
  return out;
}
