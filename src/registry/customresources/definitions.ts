/**
 * The OpenAPI definitions of one served version of a custom resource: the kind and its list kind,
 * named and shaped as apiextensions-apiserver v0.27 publishes them
 * (pkg/controller/openapi/builder/builder.go: buildKubeNative, buildListSchema,
 * addTypeMetaProperties, addEmbeddedProperties; the v2 document through
 * pkg/controller/openapi/v2/conversion.go ToStructuralOpenAPIV2 and kube-openapi's PruneDefaults;
 * both documents from the Unfold-ed structural schema, pkg/apiserver/schema unfold.go and
 * kubeopenapi.go ToKubeOpenAPI). Neither published document strips value validations or nullable
 * (the openapi and openapiv3 controllers build with `Options{V2: true}` / `Options{V2: false}`).
 *
 * Each definition carries both the prerendered JSON (`rendered`, what `kubectl explain` reads) and
 * our schema model (`schema`), from which the server-side apply type model is built as upstream's
 * schemaconv builds it from the v3 document: x-kubernetes-preserve-unknown-fields lets a node and
 * every object below it keep unknown fields, embedded resources and the root get apiVersion, kind
 * and a typed metadata. Descriptions of apiVersion, kind, metadata and the list are our own; the
 * CRD author's descriptions are kept verbatim.
 */
import { listFieldTexts, listText, standardFieldTexts } from '../../apis/schema/descriptions/meta.js';
import type { Definition, ObjectSchema, Schema } from '../../apis/schema/types.js';
import { newStructural, StructuralConversionError } from '../../apis/apiextensions/schema/structural.js';
import type {
  NestedValueValidation,
  Structural,
  ValueValidation,
} from '../../apis/apiextensions/schema/structural.js';
import {
  isIntOrStringAllOfPattern,
  isIntOrStringAnyOfPattern,
  validateStructural,
} from '../../apis/apiextensions/schema/validate-structural.js';
import { cloneJson, isJsonObject } from '../../util/json.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import type { CrdVersion, CrdView } from './crd-view.js';

const objectMetaName = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const listMetaName = 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta';

type Doc = 2 | 3;
const prefix = (doc: Doc): string => (doc === 2 ? '#/definitions/' : '#/components/schemas/');

/**
 * kube-openapi util.ToRESTFriendlyName of "group/version/kind": the group's DNS labels reversed,
 * e.g. stable.example.com, v1, CronTab → `com.example.stable.v1.CronTab`.
 */
export function customResourceDefinitionName(group: string, version: string, kind: string): string {
  const g = group.includes('.') ? group.split('.').reverse().join('.') : group;
  return `${g}.${version}.${kind}`;
}

// ---- the structural schema a version publishes (builder.go generateBuilder) ----

/** Upstream openapiV3Types: the only `type` values SchemaHasInvalidTypes accepts. */
const openApiV3Types = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);

/** Upstream validation.SchemaHasInvalidTypes over the v1 JSON (every nested schema). */
function hasInvalidTypes(s: JsonValue | undefined): boolean {
  if (!isJsonObject(s)) return false;
  const t = s['type'];
  if (typeof t === 'string' && t !== '' && !openApiV3Types.has(t)) return true;
  const nested: JsonValue[] = [];
  for (const k of ['items', 'not', 'additionalProperties', 'additionalItems'] as const) {
    const v = s[k];
    if (Array.isArray(v)) nested.push(...v);
    else if (v !== undefined) nested.push(v);
  }
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
    const v = s[k];
    if (Array.isArray(v)) nested.push(...v);
  }
  for (const k of ['properties', 'patternProperties', 'definitions', 'dependencies'] as const) {
    const v = s[k];
    if (isJsonObject(v)) nested.push(...Object.values(v));
  }
  return nested.some(hasInvalidTypes);
}

/**
 * The version's structural schema, Unfold-ed, or undefined when there is none or it is not
 * structural (upstream then publishes a bare `type: object`).
 */
function publishedStructural(schema: JsonObject | undefined): Structural | undefined {
  if (schema === undefined || hasInvalidTypes(schema)) return undefined;
  let s: Structural;
  try {
    s = newStructural(schema);
  } catch (err) {
    if (err instanceof StructuralConversionError) return undefined;
    throw err;
  }
  if (validateStructural(undefined, s).length > 0) return undefined;
  visitStructural(s, unfoldNode);
  return s;
}

/** Calls `fn` on every Structural node, before its subtrees (upstream schema.Visitor). */
function visitStructural(s: Structural, fn: (s: Structural) => void): void {
  fn(s);
  if (s.items !== undefined) visitStructural(s.items, fn);
  for (const p of s.properties?.values() ?? []) visitStructural(p, fn);
  const ap = s.generic.additionalProperties?.structural;
  if (ap !== undefined) visitStructural(ap, fn);
  if (s.valueValidation !== undefined) visitJunctors(s.valueValidation, fn);
}

function visitNested(v: NestedValueValidation, fn: (s: Structural) => void): void {
  if (v.items !== undefined) visitNested(v.items, fn);
  for (const p of v.properties?.values() ?? []) visitNested(p, fn);
  const ap = v.forbiddenGenerics.additionalProperties?.structural;
  if (ap !== undefined) visitStructural(ap, fn);
  visitJunctors(v.valueValidation, fn);
}

function visitJunctors(v: ValueValidation, fn: (s: Structural) => void): void {
  for (const n of [...(v.allOf ?? []), ...(v.anyOf ?? []), ...(v.oneOf ?? [])]) visitNested(n, fn);
  if (v.not !== undefined) visitNested(v.not, fn);
}

function typeOnly(type: string): NestedValueValidation {
  return {
    valueValidation: {
      format: '',
      exclusiveMaximum: false,
      exclusiveMinimum: false,
      pattern: '',
      uniqueItems: false,
    },
    forbiddenGenerics: { description: '', type, title: '', nullable: false },
    forbiddenExtensions: { preserveUnknownFields: false, embeddedResource: false, intOrString: false },
  };
}

/** Upstream Unfold: x-kubernetes-int-or-string spelled out as anyOf integer / string. */
function unfoldNode(s: Structural): void {
  if (!s.extensions.intOrString) return;
  if (isIntOrStringAnyOfPattern(s) || isIntOrStringAllOfPattern(s)) return;
  const vv = (s.valueValidation ??= typeOnly('').valueValidation);
  const pair = [typeOnly('integer'), typeOnly('string')];
  if (vv.anyOf === undefined) vv.anyOf = pair;
  else
    vv.allOf = [
      { ...typeOnly(''), valueValidation: { ...typeOnly('').valueValidation, anyOf: pair } },
      ...(vv.allOf ?? []),
    ];
}

/** Upstream ToStructuralOpenAPIV2, in place on a copy: what kubectl's v2 validation can cope with. */
function toOpenApiV2Node(s: Structural): void {
  const vv = s.valueValidation;
  if (vv !== undefined) {
    delete vv.allOf;
    delete vv.oneOf;
    delete vv.anyOf;
    delete vv.not;
  }
  if (s.generic.nullable) {
    s.generic.type = '';
    s.generic.nullable = false;
    delete s.items;
    delete s.properties;
  }
  if (s.extensions.preserveUnknownFields) {
    delete s.items;
    delete s.properties;
  }
  if (s.items === undefined && s.generic.type === 'array') s.generic.type = '';
  if (s.extensions.preserveUnknownFields && s.generic.type === 'object') s.generic.type = '';
  if (vv !== undefined) {
    for (const [name, p] of s.properties ?? []) {
      if (p.generic.nullable && vv.required !== undefined) {
        const kept = vv.required.filter((r) => r !== name);
        if (kept.length === 0) delete vv.required;
        else vv.required = kept;
      }
    }
    if (s.generic.additionalProperties?.structural?.generic.nullable === true) delete vv.required;
  }
}

// ---- Structural → OpenAPI JSON (upstream ToKubeOpenAPI) ----

function putValueValidation(v: ValueValidation | undefined, out: JsonObject): void {
  if (v === undefined) return;
  if (v.format !== '') out.format = v.format;
  if (v.maximum !== undefined) out.maximum = v.maximum;
  if (v.exclusiveMaximum) out.exclusiveMaximum = true;
  if (v.minimum !== undefined) out.minimum = v.minimum;
  if (v.exclusiveMinimum) out.exclusiveMinimum = true;
  if (v.maxLength !== undefined) out.maxLength = v.maxLength;
  if (v.minLength !== undefined) out.minLength = v.minLength;
  if (v.pattern !== '') out.pattern = v.pattern;
  if (v.maxItems !== undefined) out.maxItems = v.maxItems;
  if (v.minItems !== undefined) out.minItems = v.minItems;
  if (v.uniqueItems) out.uniqueItems = true;
  if (v.multipleOf !== undefined) out.multipleOf = v.multipleOf;
  if (v.enum !== undefined && v.enum.length > 0) out.enum = v.enum;
  if (v.maxProperties !== undefined) out.maxProperties = v.maxProperties;
  if (v.minProperties !== undefined) out.minProperties = v.minProperties;
  if (v.required !== undefined && v.required.length > 0) out.required = v.required;
  if (v.allOf !== undefined && v.allOf.length > 0) out.allOf = v.allOf.map(nestedJson);
  if (v.oneOf !== undefined && v.oneOf.length > 0) out.oneOf = v.oneOf.map(nestedJson);
  if (v.anyOf !== undefined && v.anyOf.length > 0) out.anyOf = v.anyOf.map(nestedJson);
  if (v.not !== undefined) out.not = nestedJson(v.not);
}

function putGeneric(s: Pick<Structural, 'generic' | 'extensions'>, out: JsonObject): void {
  const g = s.generic;
  if (g.type !== '') out.type = g.type;
  if (g.nullable) out.nullable = true;
  const ap = g.additionalProperties;
  if (ap !== undefined)
    out.additionalProperties = ap.structural !== undefined ? structuralJson(ap.structural) : ap.bool;
  if (g.description !== '') out.description = g.description;
  if (g.title !== '') out.title = g.title;
  if (g.default !== undefined) out.default = g.default;
  const x = s.extensions;
  if (x.preserveUnknownFields) out['x-kubernetes-preserve-unknown-fields'] = true;
  if (x.embeddedResource) out['x-kubernetes-embedded-resource'] = true;
  if (x.intOrString) out['x-kubernetes-int-or-string'] = true;
  if (x.listMapKeys !== undefined && x.listMapKeys.length > 0)
    out['x-kubernetes-list-map-keys'] = x.listMapKeys;
  if (x.listType !== undefined) out['x-kubernetes-list-type'] = x.listType;
  if (x.mapType !== undefined) out['x-kubernetes-map-type'] = x.mapType;
  if (x.validations !== undefined && x.validations.length > 0) {
    // v1.27's ValidationRule has rule, message and messageExpression (reason, fieldPath: 1.28).
    out['x-kubernetes-validations'] = x.validations.map((r) => {
      const rule: JsonObject = { rule: r.rule };
      if (r.message !== undefined && r.message !== '') rule.message = r.message;
      if (r.messageExpression !== undefined && r.messageExpression !== '')
        rule.messageExpression = r.messageExpression;
      return rule;
    });
  }
}

function structuralJson(s: Structural): JsonObject {
  const out: JsonObject = {};
  if (s.items !== undefined) out.items = structuralJson(s.items);
  if (s.properties !== undefined) {
    const props: JsonObject = {};
    for (const [k, v] of s.properties) props[k] = structuralJson(v);
    out.properties = props;
  }
  putGeneric(s, out);
  putValueValidation(s.valueValidation, out);
  return out;
}

function nestedJson(v: NestedValueValidation): JsonObject {
  const out: JsonObject = {};
  putValueValidation(v.valueValidation, out);
  if (v.items !== undefined) out.items = nestedJson(v.items);
  if (v.properties !== undefined) {
    const props: JsonObject = {};
    for (const [k, p] of v.properties) props[k] = nestedJson(p);
    out.properties = props;
  }
  putGeneric({ generic: v.forbiddenGenerics, extensions: v.forbiddenExtensions }, out);
  return out;
}

// ---- builder.go: the kind and list definitions as JSON ----

function typeMetaProperty(text: string): JsonObject {
  return { description: text, type: 'string' };
}

/**
 * A property that refers to a definition, with its own description: a sibling of `$ref` in v2; in
 * v3, where siblings of `$ref` are ignored, the reference is wrapped in `allOf` (as upstream's
 * documents have it, and as `kubectl explain` reads the field's description from).
 */
function refProperty(name: string, doc: Doc, text: string): JsonObject {
  const ref = { $ref: prefix(doc) + name };
  return doc === 2 ? { description: text, ...ref } : { description: text, allOf: [ref] };
}

function setProperty(s: JsonObject, name: string, value: JsonObject): void {
  const props = isJsonObject(s['properties']) ? s['properties'] : {};
  props[name] = value;
  s['properties'] = props;
}

/** Upstream addEmbeddedProperties: apiVersion, kind and metadata for x-kubernetes-embedded-resource. */
function addEmbeddedProperties(s: JsonObject, doc: Doc): void {
  const props = s['properties'];
  if (isJsonObject(props))
    for (const p of Object.values(props)) if (isJsonObject(p)) addEmbeddedProperties(p, doc);
  if (isJsonObject(s['items'])) addEmbeddedProperties(s['items'], doc);
  if (isJsonObject(s['additionalProperties'])) addEmbeddedProperties(s['additionalProperties'], doc);
  // In v2 kubectl would refuse unknown fields next to these properties.
  if (doc === 2 && s['x-kubernetes-preserve-unknown-fields'] === true) return;
  if (s['x-kubernetes-embedded-resource'] !== true) return;
  setProperty(s, 'apiVersion', typeMetaProperty(standardFieldTexts.apiVersion!));
  setProperty(s, 'kind', typeMetaProperty(standardFieldTexts.kind!));
  setProperty(s, 'metadata', refProperty(objectMetaName, doc, standardFieldTexts.metadata!));
  const required = Array.isArray(s['required']) ? [...s['required']] : [];
  const missing = ['kind', 'apiVersion'].filter((r) => !required.includes(r));
  s['required'] = [...required, ...missing];
}

function gvkExtension(group: string, version: string, kind: string): JsonValue {
  return [{ group, kind, version }];
}

/** Upstream buildKubeNative for one document. */
function kindJson(
  structural: Structural | undefined,
  doc: Doc,
  crdPreserveUnknownFields: boolean,
  gvk: JsonValue,
): JsonObject {
  let out: JsonObject;
  if (
    structural === undefined ||
    (doc === 2 && (structural.extensions.preserveUnknownFields || crdPreserveUnknownFields))
  ) {
    out = { type: 'object' };
  } else {
    let s = structural;
    if (doc === 2) {
      s = structuredClone(structural);
      visitStructural(s, toOpenApiV2Node);
    }
    out = structuralJson(s);
    setProperty(out, 'metadata', refProperty(objectMetaName, doc, standardFieldTexts.metadata!));
    setProperty(out, 'apiVersion', typeMetaProperty(standardFieldTexts.apiVersion!));
    setProperty(out, 'kind', typeMetaProperty(standardFieldTexts.kind!));
    addEmbeddedProperties(out, doc);
  }
  out['x-kubernetes-group-version-kind'] = gvk;
  if (doc === 2) pruneDefaults(out);
  return ordered(out);
}

/** Upstream buildListSchema. */
function listJson(kindName: string, kind: string, doc: Doc, gvk: JsonValue): JsonObject {
  return ordered({
    type: 'object',
    description: listText(kind),
    required: ['items'],
    properties: {
      items: { type: 'array', description: listFieldTexts.items!, items: { $ref: prefix(doc) + kindName } },
      metadata: refProperty(listMetaName, doc, listFieldTexts.metadata!),
      apiVersion: typeMetaProperty(listFieldTexts.apiVersion!),
      kind: typeMetaProperty(listFieldTexts.kind!),
    },
    'x-kubernetes-group-version-kind': gvk,
  });
}

/** The nested schemas of a schema JSON object (where PruneDefaults and key ordering recurse). */
function* subschemas(s: JsonObject): Generator<JsonObject> {
  for (const k of ['items', 'additionalProperties', 'not'] as const) {
    const v = s[k];
    if (isJsonObject(v)) yield v;
  }
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
    const v = s[k];
    if (Array.isArray(v)) for (const x of v) if (isJsonObject(x)) yield x;
  }
  const props = s['properties'];
  if (isJsonObject(props)) for (const p of Object.values(props)) if (isJsonObject(p)) yield p;
}

/** kube-openapi handler.PruneDefaults: the v2 document carries no defaults. */
function pruneDefaults(s: JsonObject): void {
  delete s['default'];
  for (const sub of subschemas(s)) pruneDefaults(sub);
}

/** kube-openapi's JSON field order for a schema; extensions follow, sorted, as Go marshals them. */
const keyOrder = [
  'description',
  'type',
  'nullable',
  'format',
  'title',
  'default',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'multipleOf',
  'enum',
  'maxProperties',
  'minProperties',
  'required',
  'items',
  'allOf',
  'oneOf',
  'anyOf',
  'not',
  'properties',
  'additionalProperties',
  '$ref',
];
const rank = new Map(keyOrder.map((k, i) => [k, i]));

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The schema with its keys (and, recursively, its subschemas' keys and property names) ordered. */
function ordered(s: JsonObject): JsonObject {
  const keys = Object.keys(s).sort((a, b) => {
    const ra = rank.get(a) ?? keyOrder.length;
    const rb = rank.get(b) ?? keyOrder.length;
    return ra !== rb ? ra - rb : byCodeUnit(a, b);
  });
  const out: JsonObject = {};
  for (const k of keys) {
    const v = s[k]!;
    if (k === 'properties' && isJsonObject(v)) {
      const props: JsonObject = {};
      for (const name of Object.keys(v).sort(byCodeUnit)) {
        const p = v[name]!;
        props[name] = isJsonObject(p) ? ordered(p) : p;
      }
      out[k] = props;
    } else if ((k === 'items' || k === 'additionalProperties' || k === 'not') && isJsonObject(v)) {
      out[k] = ordered(v);
    } else if ((k === 'allOf' || k === 'anyOf' || k === 'oneOf') && Array.isArray(v)) {
      out[k] = v.map((x) => (isJsonObject(x) ? ordered(x) : x));
    } else {
      // Values (enum, default, required, extensions) copied: the CRD object is not shared.
      out[k] = cloneJson(v);
    }
  }
  return out;
}

// ---- our schema model (types.ts) for the type model ----

const stringType = (description: string): Schema => ({ type: 'string', description });
const refTo = (ref: string, description: string): Schema => ({ ref, description });

function described(s: Structural): { description?: string } {
  return s.generic.description === '' ? {} : { description: s.generic.description };
}

function mapTypeOf(s: Structural): { mapType?: 'atomic' | 'granular' } {
  const t = s.extensions.mapType;
  return t === 'atomic' || t === 'granular' ? { mapType: t } : {};
}

/**
 * One node of the model. `preserve` is schemaconv's inherited preserveUnknownFields: once set, every
 * object below also keeps fields its schema does not name.
 */
function modelOf(s: Structural, inherited: boolean): Schema {
  const preserve = inherited || s.extensions.preserveUnknownFields;
  const base = described(s);
  const d = s.generic.default;
  const vv = s.valueValidation;
  if (s.extensions.intOrString) return { type: 'int-or-string', ...base };
  switch (s.generic.type) {
    case 'object':
      return objectModel(s, preserve, base);
    case 'array': {
      const lt = s.extensions.listType;
      const keys = s.extensions.listMapKeys;
      return {
        type: 'array',
        ...base,
        items: s.items === undefined ? { type: 'any' } : modelOf(s.items, preserve),
        ...(lt === 'atomic' || lt === 'set' || lt === 'map' ? { listType: lt } : {}),
        ...(keys !== undefined && keys.length > 0 ? { listMapKeys: keys } : {}),
      };
    }
    case 'string': {
      const format = vv?.format ?? '';
      const values = vv?.enum;
      return {
        type: 'string',
        ...base,
        ...(format !== '' ? { format } : {}),
        ...(values !== undefined && values.every((v) => typeof v === 'string') ? { enum: values } : {}),
        ...(typeof d === 'string' ? { default: d } : {}),
      };
    }
    case 'integer': {
      const format = vv?.format;
      return {
        type: 'integer',
        ...base,
        ...(format === 'int32' || format === 'int64' ? { format } : {}),
        ...(typeof d === 'number' ? { default: d } : {}),
      };
    }
    case 'number':
      return {
        type: 'number',
        ...base,
        ...(vv?.format === 'double' ? { format: 'double' as const } : {}),
        ...(typeof d === 'number' ? { default: d } : {}),
      };
    case 'boolean':
      return { type: 'boolean', ...base, ...(typeof d === 'boolean' ? { default: d } : {}) };
    default:
      // No type (x-kubernetes-preserve-unknown-fields): any value, its kind deduced.
      return {
        type: 'any',
        ...base,
        ...(s.extensions.preserveUnknownFields ? { preserveUnknownFields: true } : {}),
      };
  }
}

function objectModel(s: Structural, preserve: boolean, base: { description?: string }): ObjectSchema {
  const properties: Record<string, Schema> = {};
  for (const [k, v] of s.properties ?? []) properties[k] = modelOf(v, preserve);
  if (s.extensions.embeddedResource) {
    properties['apiVersion'] = stringType(standardFieldTexts.apiVersion!);
    properties['kind'] = stringType(standardFieldTexts.kind!);
    properties['metadata'] = refTo(objectMetaName, standardFieldTexts.metadata!);
  }
  const ap = s.generic.additionalProperties;
  let additional: Schema | true | undefined;
  if (ap?.structural !== undefined) additional = modelOf(ap.structural, preserve);
  else if (ap !== undefined) additional = ap.bool ? true : undefined;
  else if (preserve) additional = true;
  return {
    type: 'object',
    ...base,
    ...mapTypeOf(s),
    ...(Object.keys(properties).length > 0 ? { properties } : {}),
    ...(additional !== undefined ? { additionalProperties: additional } : {}),
  };
}

/** The kind's model: the CRD schema's root with apiVersion, kind and a typed metadata. */
function kindModel(structural: Structural | undefined, crdPreserveUnknownFields: boolean): ObjectSchema {
  // No (structural) schema: upstream publishes `type: object`, a free-form map.
  if (structural === undefined) return { type: 'object', additionalProperties: true };
  const root = objectModel(
    structural,
    crdPreserveUnknownFields || structural.extensions.preserveUnknownFields,
    described(structural),
  );
  return {
    ...root,
    properties: {
      ...root.properties,
      apiVersion: stringType(standardFieldTexts.apiVersion!),
      kind: stringType(standardFieldTexts.kind!),
      metadata: refTo(objectMetaName, standardFieldTexts.metadata!),
    },
  };
}

function listModel(kindName: string, kind: string): ObjectSchema {
  return {
    type: 'object',
    description: listText(kind),
    required: ['items'],
    properties: {
      apiVersion: stringType(listFieldTexts.apiVersion!),
      items: { type: 'array', description: listFieldTexts.items!, items: { ref: kindName } },
      kind: stringType(listFieldTexts.kind!),
      metadata: refTo(listMetaName, listFieldTexts.metadata!),
    },
  };
}

/**
 * The definitions of one version of a custom resource: its kind and its list kind, named as
 * upstream names them (`com.example.stable.v1.CronTab`, `...CronTabList`). Kinds come from
 * status.acceptedNames, as the endpoints are served (upstream's builder reads spec.names, which
 * differ only while a new name waits to be accepted). The kind's model has no `required` (a custom
 * resource is unstructured: its zero value, from which a create's managed fields are computed, is
 * empty whatever the schema requires).
 */
export function customResourceDefinitions(view: CrdView, version: CrdVersion): Definition[] {
  const { kind, listKind } = view.acceptedNames;
  const group = view.group;
  const kindName = customResourceDefinitionName(group, version.name, kind);
  const listName = customResourceDefinitionName(group, version.name, listKind);
  const structural = publishedStructural(version.schema);
  const kindGvk = { group, version: version.name, kind };
  const listGvk = { group, version: version.name, kind: listKind };
  const kindExt = gvkExtension(group, version.name, kind);
  const listExt = gvkExtension(group, version.name, listKind);
  return [
    {
      name: kindName,
      schema: kindModel(structural, view.preserveUnknownFields),
      gvk: [kindGvk],
      rendered: {
        v2: kindJson(structural, 2, view.preserveUnknownFields, kindExt),
        v3: kindJson(structural, 3, view.preserveUnknownFields, kindExt),
      },
    },
    {
      name: listName,
      schema: listModel(kindName, kind),
      gvk: [listGvk],
      rendered: { v2: listJson(kindName, kind, 2, listExt), v3: listJson(kindName, kind, 3, listExt) },
    },
  ];
}
