/**
 * CRD-time checks of a version's `openAPIV3Schema`, as apiextensions-apiserver v0.27
 * pkg/apis/apiextensions/validation/validation.go: the structural-schema part of
 * validateCustomResourceDefinitionValidation (NewStructural, ValidateStructural, ValidateDefaults)
 * and the recursive ValidateCustomResourceDefinitionOpenAPISchema with its
 * specStandardValidatorV3, over the v1 JSON as stored in the CRD. The status-subresource and
 * root-nullable checks stay with the caller (crd.ts).
 *
 * CEL (x-kubernetes-validations compilation and cost) is not done here: apis/ may not import
 * cel/, so the caller passes `validateRules`, called with the whole structural schema once the
 * schema is otherwise valid (upstream checks rules per node, skipping nodes with schema errors).
 */
import { FieldPath, fieldErrors } from '../../../machinery/field/errors.js';
import type { FieldError } from '../../../machinery/field/errors.js';
import { isJsonObject, jsonEqual } from '../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../util/json.js';
import { pruneDefaults } from './defaulting.js';
import { validateDefaults } from './default-validation.js';
import type { ValidateDefaultRules } from './default-validation.js';
import { goBadValue } from './go-value.js';
import { StructuralConversionError, newStructural } from './structural.js';
import type { Structural } from './structural.js';
import { validateStructural } from './validate-structural.js';

/** CEL seam: the errors of a structural schema's x-kubernetes-validations rules. */
export type ValidateRules = (schema: Structural, path: FieldPath) => FieldError[];

/** Upstream validationOptions (the schema-related ones). */
export interface CRDSchemaOptions {
  readonly allowDefaults: boolean;
  readonly disallowDefaultsReason?: string;
  readonly requireValidPropertyType: boolean;
  readonly requireStructuralSchema: boolean;
  readonly requirePrunedDefaults: boolean;
  readonly requireAtomicSetType: boolean;
  readonly requireMapListKeysMapSetValidation: boolean;
  readonly validateRules?: ValidateRules;
  /** CEL seam for rules evaluated against defaults (upstream's cel.NewValidator on defaults). */
  readonly validateDefaultRules?: ValidateDefaultRules;
}

/** The options upstream uses for a create. */
export const createSchemaOptions: CRDSchemaOptions = {
  allowDefaults: true,
  requireValidPropertyType: true,
  requireStructuralSchema: true,
  requirePrunedDefaults: true,
  requireAtomicSetType: true,
  requireMapListKeysMapSetValidation: true,
};

const openapiV3Types = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const metaFields = new Set(['metadata', 'kind', 'apiVersion']);

// ---- JSON accessors ----

function str(s: JsonObject, key: string): string {
  const v = s[key];
  return typeof v === 'string' ? v : '';
}

function optStr(s: JsonObject, key: string): string | undefined {
  const v = s[key];
  return typeof v === 'string' ? v : undefined;
}

function present(s: JsonObject, key: string): boolean {
  return s[key] !== undefined && s[key] !== null;
}

function nonEmptyMap(s: JsonObject, key: string): boolean {
  const v = s[key];
  return isJsonObject(v) && Object.keys(v).length > 0;
}

function asSchema(v: JsonValue | undefined): JsonObject | undefined {
  return isJsonObject(v) ? v : undefined;
}

function strings(s: JsonObject, key: string): string[] {
  const v = s[key];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** The single items schema (undefined when absent or an array). */
function itemsSchema(s: JsonObject): JsonObject | undefined {
  return asSchema(s['items']);
}

function itemsArray(s: JsonObject): JsonObject[] {
  const v = s['items'];
  return Array.isArray(v) ? v.map((x) => asSchema(x) ?? {}) : [];
}

// ---- specStandardValidatorV3 ----

interface Standard {
  readonly allowDefaults: boolean;
  readonly disallowDefaultsReason: string;
  readonly insideResourceMeta: boolean;
  readonly requireValidPropertyType: boolean;
}

function standardValidate(v: Standard, s: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(s, 'type');
  if (v.requireValidPropertyType && type !== '' && !openapiV3Types.includes(type)) {
    errs.push(fieldErrors.notSupported(path.child('type'), type, openapiV3Types));
  }
  if (s['default'] !== undefined && !v.allowDefaults) {
    const detail =
      v.disallowDefaultsReason === '' ? 'must not be set' : `must not be set ${v.disallowDefaultsReason}`;
    errs.push(fieldErrors.forbidden(path.child('default'), detail));
  }
  if (str(s, 'id') !== '') errs.push(fieldErrors.forbidden(path.child('id'), 'id is not supported'));
  if (present(s, 'additionalItems')) {
    errs.push(fieldErrors.forbidden(path.child('additionalItems'), 'additionalItems is not supported'));
  }
  if (nonEmptyMap(s, 'patternProperties')) {
    errs.push(fieldErrors.forbidden(path.child('patternProperties'), 'patternProperties is not supported'));
  }
  if (nonEmptyMap(s, 'definitions')) {
    errs.push(fieldErrors.forbidden(path.child('definitions'), 'definitions is not supported'));
  }
  if (present(s, 'dependencies')) {
    errs.push(fieldErrors.forbidden(path.child('dependencies'), 'dependencies is not supported'));
  }
  if (present(s, '$ref')) errs.push(fieldErrors.forbidden(path.child('$ref'), '$ref is not supported'));
  if (type === 'null') {
    errs.push(
      fieldErrors.forbidden(path.child('type'), 'type cannot be set to null, use nullable as an alternative'),
    );
  }
  if (itemsArray(s).length > 0) {
    errs.push(fieldErrors.forbidden(path.child('items'), 'items must be a schema object and not an array'));
  }
  if (v.insideResourceMeta && s['x-kubernetes-embedded-resource'] === true) {
    errs.push(
      fieldErrors.forbidden(
        path.child('x-kubernetes-embedded-resource'),
        'must not be used inside of resource meta',
      ),
    );
  }
  return errs;
}

// ---- ValidateCustomResourceDefinitionOpenAPISchema ----

/** Upstream validateMapListKeysMapSet. */
export function validateMapListKeysMapSet(s: JsonObject, path: FieldPath): FieldError[] {
  const items = itemsSchema(s);
  const listType = optStr(s, 'x-kubernetes-list-type');
  if (items === undefined || (listType !== 'set' && listType !== 'map')) return [];
  const errs: FieldError[] = [];
  if (items['nullable'] === true) {
    errs.push(
      fieldErrors.forbidden(
        path.child('items', 'nullable'),
        `cannot be nullable when x-kubernetes-list-type is ${listType}`,
      ),
    );
  }
  if (listType === 'map') {
    const required = new Set(strings(items, 'required'));
    const props = asSchema(items['properties']) ?? {};
    for (const k of strings(s, 'x-kubernetes-list-map-keys')) {
      const prop = asSchema(props[k]);
      if (prop === undefined) continue;
      const keyPath = path.child('items', 'properties').key(k);
      if (!required.has(k) && prop['default'] === undefined) {
        errs.push(
          fieldErrors.required(
            keyPath.child('default'),
            'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
          ),
        );
      }
      if (prop['nullable'] === true) {
        errs.push(
          fieldErrors.forbidden(
            keyPath.child('nullable'),
            'this property is in x-kubernetes-list-map-keys, so it cannot be nullable',
          ),
        );
      }
    }
  }
  return errs;
}

function validateOpenAPISchema(
  s: JsonObject | undefined,
  path: FieldPath,
  v: Standard,
  isRoot: boolean,
  opts: CRDSchemaOptions,
): FieldError[] {
  if (s === undefined) return [];
  const errs = standardValidate(v, s, path);
  if (s['uniqueItems'] === true) {
    errs.push(
      fieldErrors.forbidden(
        path.child('uniqueItems'),
        'uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
      ),
    );
  }
  const props = asSchema(s['properties']);
  const hasProps = props !== undefined && Object.keys(props).length > 0;
  const ap = s['additionalProperties'];
  if (ap !== undefined && ap !== null) {
    if (hasProps && (ap === false || isJsonObject(ap))) {
      errs.push(
        fieldErrors.forbidden(
          path.child('additionalProperties'),
          'additionalProperties and properties are mutual exclusive',
        ),
      );
    }
    const sub = v.insideResourceMeta
      ? {
          ...v,
          allowDefaults: false,
          disallowDefaultsReason: 'inside additionalProperties applying to object metadata',
        }
      : v;
    errs.push(...validateOpenAPISchema(asSchema(ap), path.child('additionalProperties'), sub, false, opts));
  }
  if (hasProps) {
    for (const [name, p] of Object.entries(props)) {
      let sub = v;
      if ((isRoot || s['x-kubernetes-embedded-resource'] === true) && metaFields.has(name)) {
        sub = { ...sub, insideResourceMeta: true };
        if (isRoot) sub = { ...sub, allowDefaults: false, disallowDefaultsReason: `in top-level ${name}` };
      }
      errs.push(
        ...validateOpenAPISchema(asSchema(p) ?? {}, path.child('properties').key(name), sub, false, opts),
      );
    }
  }
  errs.push(...validateOpenAPISchema(asSchema(s['not']), path.child('not'), v, false, opts));
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    const list = s[key];
    if (Array.isArray(list)) {
      list.forEach((x, i) => {
        errs.push(...validateOpenAPISchema(asSchema(x) ?? {}, path.child(key).index(i), v, false, opts));
      });
    }
  }
  const defs = asSchema(s['definitions']);
  for (const [name, d] of Object.entries(defs ?? {})) {
    errs.push(
      ...validateOpenAPISchema(asSchema(d) ?? {}, path.child('definitions').key(name), v, false, opts),
    );
  }
  const items = itemsSchema(s);
  errs.push(...validateOpenAPISchema(items, path.child('items'), v, false, opts));
  itemsArray(s).forEach((x, i) => {
    errs.push(...validateOpenAPISchema(x, path.child('items').index(i), v, false, opts));
  });
  const deps = asSchema(s['dependencies']);
  for (const [name, d] of Object.entries(deps ?? {})) {
    errs.push(...validateOpenAPISchema(asSchema(d), path.child('dependencies').key(name), v, false, opts));
  }

  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    errs.push(
      fieldErrors.invalid(
        path.child('x-kubernetes-preserve-unknown-fields'),
        false,
        'must be true or undefined',
      ),
    );
  }
  const type = str(s, 'type');
  const mapType = optStr(s, 'x-kubernetes-map-type');
  const listType = optStr(s, 'x-kubernetes-list-type');
  const typed = (msg: string): void => {
    if (type === '') errs.push(fieldErrors.required(path.child('type'), msg));
    else errs.push(fieldErrors.invalid(path.child('type'), type, msg));
  };
  if (mapType !== undefined && type !== 'object')
    typed('must be object if x-kubernetes-map-type is specified');
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular') {
    errs.push(fieldErrors.notSupported(path.child('x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  }
  if (listType !== undefined && type !== 'array') {
    typed('must be array if x-kubernetes-list-type is specified');
  } else if (opts.requireAtomicSetType && listType === 'set' && items !== undefined) {
    const itemType = str(items, 'type');
    const itemListType = optStr(items, 'x-kubernetes-list-type');
    const itemMapType = optStr(items, 'x-kubernetes-map-type');
    const msg = 'must be atomic as item of a list with x-kubernetes-list-type=set';
    if (itemType === 'array' && itemListType !== undefined && itemListType !== 'atomic') {
      errs.push(fieldErrors.invalid(path.child('items', 'x-kubernetes-list-type'), itemListType, msg));
    } else if (itemType === 'object' && itemMapType !== 'atomic') {
      // Upstream reports the items' list type here (usually unset, so "null").
      errs.push(fieldErrors.invalid(path.child('items', 'x-kubernetes-map-type'), itemListType ?? null, msg));
    }
  }
  if (listType !== undefined && listType !== 'atomic' && listType !== 'set' && listType !== 'map') {
    errs.push(
      fieldErrors.notSupported(path.child('x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']),
    );
  }
  const mapKeys = strings(s, 'x-kubernetes-list-map-keys');
  if (mapKeys.length > 0) {
    const msg = 'must be map if x-kubernetes-list-map-keys is non-empty';
    if (listType === undefined) errs.push(fieldErrors.required(path.child('x-kubernetes-list-type'), msg));
    else if (listType !== 'map')
      errs.push(fieldErrors.invalid(path.child('x-kubernetes-list-type'), listType, msg));
  }
  if (listType === 'map') {
    if (mapKeys.length === 0) {
      errs.push(
        fieldErrors.required(
          path.child('x-kubernetes-list-map-keys'),
          'must not be empty if x-kubernetes-list-type is map',
        ),
      );
    }
    const rawItems = s['items'];
    if (rawItems === undefined || rawItems === null) {
      errs.push(
        fieldErrors.required(path.child('items'), 'must have a schema if x-kubernetes-list-type is map'),
      );
    } else if (items === undefined) {
      errs.push(
        fieldErrors.invalid(
          path.child('items'),
          goBadValue(rawItems),
          'must only have a single schema if x-kubernetes-list-type is map',
        ),
      );
    }
    if (items !== undefined && str(items, 'type') !== 'object') {
      errs.push(
        fieldErrors.invalid(
          path.child('items', 'type'),
          str(items, 'type'),
          "must be object if parent array's x-kubernetes-list-type is map",
        ),
      );
    }
    if (items !== undefined && str(items, 'type') === 'object') {
      const itemProps = asSchema(items['properties']) ?? {};
      const seen = new Set<string>();
      for (const k of mapKeys) {
        const p = asSchema(itemProps[k]);
        if (p !== undefined) {
          const t = str(p, 'type');
          if (t === 'array' || t === 'object') {
            errs.push(
              fieldErrors.invalid(
                path.child('items', 'properties').key(k).child('type'),
                str(items, 'type'),
                "must be a scalar type if parent array's x-kubernetes-list-type is map",
              ),
            );
          }
        } else {
          errs.push(
            fieldErrors.invalid(
              path.child('x-kubernetes-list-map-keys'),
              mapKeys,
              'entries must all be names of item properties',
            ),
          );
        }
        if (seen.has(k)) {
          errs.push(
            fieldErrors.invalid(
              path.child('x-kubernetes-list-map-keys'),
              mapKeys,
              'must not contain duplicate entries',
            ),
          );
        }
        seen.add(k);
      }
    }
  }
  if (opts.requireMapListKeysMapSetValidation) errs.push(...validateMapListKeysMapSet(s, path));

  const rules = s['x-kubernetes-validations'];
  if (Array.isArray(rules)) {
    rules.forEach((r, i) => {
      const rule = asSchema(r) ?? {};
      const rPath = path.child('x-kubernetes-validations').index(i);
      const ruleText = str(rule, 'rule');
      const message = str(rule, 'message');
      const messageExpression = str(rule, 'messageExpression');
      const trimmedRule = ruleText.trim();
      const trimmedMsg = message.trim();
      if (trimmedRule === '') errs.push(fieldErrors.required(rPath.child('rule'), 'rule is not specified'));
      else if (message !== '' && trimmedMsg === '') {
        errs.push(
          fieldErrors.invalid(rPath.child('message'), message, 'message must be non-empty if specified'),
        );
      } else if (/[\n\r]/.test(trimmedMsg)) {
        errs.push(
          fieldErrors.invalid(rPath.child('message'), message, 'message must not contain line breaks'),
        );
      } else if (/[\n\r]/.test(trimmedRule) && trimmedMsg === '') {
        errs.push(
          fieldErrors.required(
            rPath.child('message'),
            'message must be specified if rule contains line breaks',
          ),
        );
      }
      if (messageExpression !== '' && messageExpression.trim() === '') {
        errs.push(
          fieldErrors.required(
            rPath.child('messageExpression'),
            'messageExpression must be non-empty if specified',
          ),
        );
      }
    });
  }
  return errs;
}

/**
 * The schema checks of upstream validateCustomResourceDefinitionValidation for one
 * `openAPIV3Schema` (v1 JSON) at `path` (…`.openAPIV3Schema`): structural (when required),
 * defaults, the recursive OpenAPI rules, then CEL through `validateRules`.
 */
export function validateCRDOpenAPISchema(
  schema: JsonObject,
  path: FieldPath,
  opts: CRDSchemaOptions,
): FieldError[] {
  const errs: FieldError[] = [];
  const initErrs: FieldError[] = [];
  let structural: Structural | undefined;
  if (opts.requireStructuralSchema) {
    let ss: Structural | undefined;
    try {
      ss = newStructural(schema);
    } catch (e) {
      if (!(e instanceof StructuralConversionError)) throw e;
      initErrs.push(fieldErrors.invalid(path, '', e.message));
    }
    if (ss !== undefined) {
      const structuralErrs = validateStructural(path, ss);
      if (structuralErrs.length > 0) errs.push(...structuralErrs);
      else {
        const defaultErrs = validateDefaults(path, ss, true, {
          requirePrunedDefaults: opts.requirePrunedDefaults,
          ...(opts.validateDefaultRules !== undefined ? { validateRules: opts.validateDefaultRules } : {}),
        });
        if (defaultErrs.length > 0) errs.push(...defaultErrs);
        else structural = ss;
      }
    }
  }
  const standard: Standard = {
    allowDefaults: opts.allowDefaults,
    disallowDefaultsReason: opts.disallowDefaultsReason ?? '',
    insideResourceMeta: false,
    requireValidPropertyType: opts.requireValidPropertyType,
  };
  const schemaErrs = validateOpenAPISchema(schema, path, standard, true, opts);
  errs.push(...schemaErrs);
  if (errs.length === 0 && initErrs.length > 0) errs.push(...initErrs);
  if (structural !== undefined && schemaErrs.length === 0 && opts.validateRules !== undefined) {
    errs.push(...opts.validateRules(structural, path));
  }
  return errs;
}

// ---- update options: do not tighten validation of schemas already stored ----

/** Upstream SchemaHas over the v1 JSON: the predicate on the schema or any nested schema. */
export function schemaHas(s: JsonValue | undefined, pred: (s: JsonObject) => boolean): boolean {
  if (!isJsonObject(s)) return false;
  if (pred(s)) return true;
  const items = s['items'];
  if (Array.isArray(items) ? items.some((i) => schemaHas(i, pred)) : schemaHas(items, pred)) return true;
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    const list = s[key];
    if (Array.isArray(list) && list.some((i) => schemaHas(i, pred))) return true;
  }
  if (schemaHas(s['not'], pred)) return true;
  for (const key of ['properties', 'patternProperties', 'definitions', 'dependencies']) {
    const map = s[key];
    if (isJsonObject(map) && Object.values(map).some((i) => schemaHas(i, pred))) return true;
  }
  return schemaHas(s['additionalProperties'], pred) || schemaHas(s['additionalItems'], pred);
}

/** Upstream schemaIsNonStructural. */
export function schemaIsNonStructural(schema: JsonObject): boolean {
  try {
    return validateStructural(undefined, newStructural(schema)).length > 0;
  } catch (e) {
    if (e instanceof StructuralConversionError) return true;
    throw e;
  }
}

/** Upstream schemaHasUnprunedDefaults. */
export function schemaHasUnprunedDefaults(schema: JsonObject): boolean {
  if (!schemaHas(schema, (s) => s['default'] !== undefined)) return false;
  try {
    const ss = newStructural(schema);
    if (validateStructural(undefined, ss).length > 0) return false;
    const pruned = newStructural(schema);
    pruneDefaults(pruned);
    return !structuralDefaultsEqual(ss, pruned);
  } catch {
    return false;
  }
}

function structuralDefaultsEqual(a: Structural | undefined, b: Structural | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (!jsonEqual(a.generic.default, b.generic.default)) return false;
  if (!structuralDefaultsEqual(a.items, b.items)) return false;
  if (
    !structuralDefaultsEqual(
      a.generic.additionalProperties?.structural,
      b.generic.additionalProperties?.structural,
    )
  ) {
    return false;
  }
  for (const [k, p] of a.properties ?? [])
    if (!structuralDefaultsEqual(p, b.properties?.get(k))) return false;
  return true;
}

function hasNonAtomicSetType(schema: JsonObject): boolean {
  return schemaHas(schema, (s) => {
    const items = itemsSchema(s);
    if (optStr(s, 'x-kubernetes-list-type') !== 'set' || items === undefined) return false;
    const t = str(items, 'type');
    if (t === 'array') {
      const lt = optStr(items, 'x-kubernetes-list-type');
      return lt !== undefined && lt !== 'atomic';
    }
    if (t === 'object') return optStr(items, 'x-kubernetes-map-type') !== 'atomic';
    return false;
  });
}

/**
 * The options of upstream ValidateCustomResourceDefinitionUpdate, from the old CRD's schemas
 * (every `openAPIV3Schema` of the old spec): checks the old schemas already fail are relaxed.
 */
export function updateSchemaOptions(oldSchemas: readonly JsonObject[]): CRDSchemaOptions {
  const any = (pred: (s: JsonObject) => boolean): boolean => oldSchemas.some(pred);
  return {
    allowDefaults: true,
    requireValidPropertyType: !any((s) =>
      schemaHas(s, (x) => str(x, 'type') !== '' && !openapiV3Types.includes(str(x, 'type'))),
    ),
    requireStructuralSchema: !any(schemaIsNonStructural),
    requirePrunedDefaults: !any(schemaHasUnprunedDefaults),
    requireAtomicSetType: !any(hasNonAtomicSetType),
    requireMapListKeysMapSetValidation: !any((s) =>
      schemaHas(s, (x) => validateMapListKeysMapSet(x, FieldPath.root('')).length > 0),
    ),
  };
}

/** Upstream schemaHasKubernetesExtensions. */
export function schemaHasKubernetesExtensions(schema: JsonObject): boolean {
  return schemaHas(
    schema,
    (s) =>
      s['x-kubernetes-embedded-resource'] === true ||
      s['x-kubernetes-preserve-unknown-fields'] !== undefined ||
      s['x-kubernetes-int-or-string'] === true ||
      strings(s, 'x-kubernetes-list-map-keys').length > 0 ||
      s['x-kubernetes-list-type'] !== undefined ||
      (Array.isArray(s['x-kubernetes-validations']) && s['x-kubernetes-validations'].length > 0),
  );
}
