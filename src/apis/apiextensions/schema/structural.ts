/**
 * The structural form of a CRD's OpenAPI v3 schema, as apiextensions-apiserver v0.27
 * pkg/apiserver/schema/structural.go and convert.go (NewStructural): the schema split into the
 * part that describes the shape of the object (type, properties, items, additionalProperties and
 * the x-kubernetes extensions) and value validations (anyOf, allOf, oneOf, not and the plain
 * keywords), which may not change the shape. Built from the v1 JSON as stored in the CRD.
 *
 * Presence matters as it does for Go's nil checks: an array or map that appears in the JSON (even
 * empty) is kept, an absent one stays undefined.
 */
import { cloneJson, isJsonObject } from '../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../util/json.js';

/** Upstream Generic: the keywords that describe a value in general. */
export interface Generic {
  description: string;
  /** Empty only with x-kubernetes-preserve-unknown-fields or x-kubernetes-int-or-string. */
  type: string;
  title: string;
  /** The default value; undefined when unset (a JSON null default counts as unset). */
  default?: JsonValue;
  additionalProperties?: StructuralOrBool;
  nullable: boolean;
}

/** Upstream StructuralOrBool: `additionalProperties: <schema>` is `{structural, bool: true}`. */
export interface StructuralOrBool {
  structural?: Structural;
  bool: boolean;
}

/** One entry of x-kubernetes-validations (v1 JSON, kept as given for the CEL seam). */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
}

/** Upstream Extensions: the x-kubernetes-* vendor extensions. */
export interface Extensions {
  preserveUnknownFields: boolean;
  embeddedResource: boolean;
  intOrString: boolean;
  listMapKeys?: string[];
  listType?: string;
  mapType?: string;
  validations?: ValidationRule[];
}

/** Upstream ValueValidation: keywords that only validate, never change the shape. */
export interface ValueValidation {
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
  allOf?: NestedValueValidation[];
  oneOf?: NestedValueValidation[];
  anyOf?: NestedValueValidation[];
  not?: NestedValueValidation;
}

/**
 * Upstream NestedValueValidation: a schema inside anyOf/allOf/oneOf/not. Anything set in the
 * forbidden parts makes the schema non-structural (except the int-or-string patterns).
 */
export interface NestedValueValidation {
  valueValidation: ValueValidation;
  items?: NestedValueValidation;
  properties?: Map<string, NestedValueValidation>;
  forbiddenGenerics: Generic;
  forbiddenExtensions: Extensions;
}

/** Upstream Structural. */
export interface Structural {
  items?: Structural;
  properties?: Map<string, Structural>;
  generic: Generic;
  extensions: Extensions;
  valueValidation?: ValueValidation;
}

/** Why a schema cannot be turned into a Structural (upstream returns these as plain errors). */
export class StructuralConversionError extends Error {
  override readonly name = 'StructuralConversionError';
}

// ---- small readers over untrusted JSON ----

function str(o: JsonObject, key: string): string {
  const v = o[key];
  return typeof v === 'string' ? v : '';
}

function optStr(o: JsonObject, key: string): string | undefined {
  const v = o[key];
  return typeof v === 'string' ? v : undefined;
}

function bool(o: JsonObject, key: string): boolean {
  return o[key] === true;
}

function optNum(o: JsonObject, key: string): number | undefined {
  const v = o[key];
  return typeof v === 'number' ? v : undefined;
}

function optStrings(o: JsonObject, key: string): string[] | undefined {
  const v = o[key];
  if (!Array.isArray(v)) return undefined;
  return v.filter((x): x is string => typeof x === 'string');
}

function schemaList(o: JsonObject, key: string): JsonObject[] | undefined {
  const v = o[key];
  if (!Array.isArray(v)) return undefined;
  return v.map((x) => (isJsonObject(x) ? x : {}));
}

function schemaMap(o: JsonObject, key: string): [string, JsonObject][] | undefined {
  const v = o[key];
  if (!isJsonObject(v)) return undefined;
  return Object.entries(v).map(([k, x]) => [k, isJsonObject(x) ? x : {}]);
}

function hasEntries(o: JsonObject, key: string): boolean {
  const v = o[key];
  return isJsonObject(v) && Object.keys(v).length > 0;
}

/** Upstream validateUnsupportedFields. */
function checkUnsupported(s: JsonObject): void {
  if (str(s, 'id') !== '') throw new StructuralConversionError("OpenAPIV3Schema 'id' is not supported");
  if (str(s, '$schema') !== '')
    throw new StructuralConversionError("OpenAPIV3Schema 'schema' is not supported");
  if (str(s, '$ref') !== '') throw new StructuralConversionError("OpenAPIV3Schema '$ref' is not supported");
  if (hasEntries(s, 'patternProperties'))
    throw new StructuralConversionError("OpenAPIV3Schema 'patternProperties' is not supported");
  if (hasEntries(s, 'dependencies'))
    throw new StructuralConversionError("OpenAPIV3Schema 'dependencies' is not supported");
  if (s['additionalItems'] !== undefined && s['additionalItems'] !== null)
    throw new StructuralConversionError("OpenAPIV3Schema 'additionalItems' is not supported");
  if (hasEntries(s, 'definitions'))
    throw new StructuralConversionError("OpenAPIV3Schema 'definitions' is not supported");
}

function itemsSchema(s: JsonObject): JsonObject | undefined {
  const items = s['items'];
  if (items === undefined || items === null) return undefined;
  if (Array.isArray(items)) {
    if (items.length > 0) {
      throw new StructuralConversionError("OpenAPIV3Schema 'items' must be a schema, but is an array");
    }
    return undefined;
  }
  return isJsonObject(items) ? items : {};
}

function newGeneric(s: JsonObject): Generic {
  const g: Generic = {
    type: str(s, 'type'),
    description: str(s, 'description'),
    title: str(s, 'title'),
    nullable: bool(s, 'nullable'),
  };
  const d = s['default'];
  if (d !== undefined && d !== null) g.default = cloneJson(d);
  const ap = s['additionalProperties'];
  if (isJsonObject(ap)) g.additionalProperties = { structural: newStructural(ap), bool: true };
  else if (typeof ap === 'boolean') g.additionalProperties = { bool: ap };
  return g;
}

function newExtensions(s: JsonObject): Extensions {
  const x: Extensions = {
    preserveUnknownFields: false,
    embeddedResource: bool(s, 'x-kubernetes-embedded-resource'),
    intOrString: bool(s, 'x-kubernetes-int-or-string'),
  };
  const keys = optStrings(s, 'x-kubernetes-list-map-keys');
  if (keys !== undefined) x.listMapKeys = keys;
  const listType = optStr(s, 'x-kubernetes-list-type');
  if (listType !== undefined) x.listType = listType;
  const mapType = optStr(s, 'x-kubernetes-map-type');
  if (mapType !== undefined) x.mapType = mapType;
  const rules = s['x-kubernetes-validations'];
  if (Array.isArray(rules)) {
    x.validations = rules.filter(isJsonObject).map((r) => {
      const rule: ValidationRule = { rule: str(r, 'rule') };
      for (const k of ['message', 'messageExpression', 'reason', 'fieldPath'] as const) {
        const v = optStr(r, k);
        if (v !== undefined) rule[k] = v;
      }
      return rule;
    });
  }
  const preserve = s['x-kubernetes-preserve-unknown-fields'];
  if (typeof preserve === 'boolean') {
    if (!preserve) {
      throw new StructuralConversionError(
        "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined",
      );
    }
    x.preserveUnknownFields = true;
  }
  return x;
}

function newValueValidation(s: JsonObject): ValueValidation {
  const notSchema = s['not'];
  const v: ValueValidation = {
    format: str(s, 'format'),
    exclusiveMaximum: bool(s, 'exclusiveMaximum'),
    exclusiveMinimum: bool(s, 'exclusiveMinimum'),
    pattern: str(s, 'pattern'),
    uniqueItems: bool(s, 'uniqueItems'),
  };
  if (isJsonObject(notSchema)) v.not = newNestedValueValidation(notSchema);
  for (const k of [
    'maximum',
    'minimum',
    'maxLength',
    'minLength',
    'maxItems',
    'minItems',
    'multipleOf',
    'maxProperties',
    'minProperties',
  ] as const) {
    const n = optNum(s, k);
    if (n !== undefined) v[k] = n;
  }
  const required = optStrings(s, 'required');
  if (required !== undefined) v.required = required;
  const enumValues = s['enum'];
  if (Array.isArray(enumValues) && enumValues.length > 0) v.enum = enumValues.map((e) => cloneJson(e));
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = schemaList(s, k);
    if (list !== undefined && list.length > 0) v[k] = list.map(newNestedValueValidation);
  }
  return v;
}

/** Upstream newNestedValueValidation. */
function newNestedValueValidation(s: JsonObject): NestedValueValidation {
  checkUnsupported(s);
  const v: NestedValueValidation = {
    valueValidation: newValueValidation(s),
    forbiddenGenerics: newGeneric(s),
    forbiddenExtensions: newExtensions(s),
  };
  const items = itemsSchema(s);
  if (items !== undefined) v.items = newNestedValueValidation(items);
  const props = schemaMap(s, 'properties');
  if (props !== undefined) {
    v.properties = new Map(props.map(([k, x]) => [k, newNestedValueValidation(x)]));
  }
  return v;
}

/**
 * Upstream NewStructural: the structural form of a v1 JSONSchemaProps (JSON). Throws
 * StructuralConversionError for what cannot be represented ($ref, patternProperties, an items
 * array, x-kubernetes-preserve-unknown-fields: false, ...).
 */
export function newStructural(schema: JsonObject): Structural {
  checkUnsupported(schema);
  const vv = newValueValidation(schema);
  const s: Structural = {
    generic: newGeneric(schema),
    extensions: newExtensions(schema),
    valueValidation: vv,
  };
  const items = itemsSchema(schema);
  if (items !== undefined) s.items = newStructural(items);
  const props = schemaMap(schema, 'properties');
  if (props !== undefined && props.length > 0) {
    s.properties = new Map(props.map(([k, x]) => [k, newStructural(x)]));
  }
  return s;
}

// ---- helpers shared by the algorithms ----

/** An empty Structural (upstream `&Structural{}`). */
export function emptyStructural(): Structural {
  return {
    generic: { description: '', type: '', title: '', nullable: false },
    extensions: { preserveUnknownFields: false, embeddedResource: false, intOrString: false },
  };
}

/** A shallow clone with x-kubernetes-embedded-resource set, as the resource root is treated. */
export function asResourceRoot(s: Structural | undefined): Structural {
  const base = s ?? emptyStructural();
  if (base.extensions.embeddedResource) return base;
  return { ...base, extensions: { ...base.extensions, embeddedResource: true } };
}
