/**
 * Declared CEL types of schema-described data, as apiserver v0.27.16 pkg/cel/types.go (DeclType):
 * scalars, lists, maps and objects with fields, each with the most elements it may hold
 * (MaxElements: characters, bytes, items or properties) and the least bytes it takes serialized
 * as JSON (MinSerializedSize), both of which feed the cost estimator.
 */
import {
  BOOL,
  BYTES,
  DOUBLE,
  DURATION,
  DYN,
  INT,
  NULL,
  STRING,
  TIMESTAMP,
  UINT,
  type CheckedType,
  listOf,
  mapOf,
  objectOf,
} from '../checker/types.js';
import type { TypeProvider } from '../checker/env.js';

export interface DeclField {
  /** The escaped (CEL) name. */
  readonly name: string;
  readonly type: DeclType;
  readonly required: boolean;
  readonly enumValues?: readonly unknown[];
  readonly defaultValue?: unknown;
}

export interface DeclType {
  /** `object` until named, then the object's type name; otherwise `list`, `map`, `string`, … */
  readonly name: string;
  readonly celType: CheckedType;
  readonly fields?: ReadonlyMap<string, DeclField>;
  readonly keyType?: DeclType;
  readonly elemType?: DeclType;
  /** Upper bound on size() (int64). */
  readonly maxElements: bigint;
  readonly minSerializedSize: bigint;
}

/** Go's math.MaxInt on 64-bit platforms: "no maximum". */
export const NO_MAX_LENGTH = 2n ** 63n - 1n;

export function isListType(t: DeclType): boolean {
  return t.keyType === undefined && t.elemType !== undefined && t.fields === undefined;
}
export function isMapType(t: DeclType): boolean {
  return t.keyType !== undefined && t.elemType !== undefined && t.fields === undefined;
}
export function isObjectType(t: DeclType): boolean {
  return t.keyType === undefined && t.elemType === undefined && t.fields !== undefined;
}

export function simpleType(name: string, celType: CheckedType, minSize: bigint, maxElements = 0n): DeclType {
  return { name, celType, maxElements, minSerializedSize: minSize };
}

export function newListType(elem: DeclType, maxItems: bigint): DeclType {
  return {
    name: 'list',
    celType: listOf(elem.celType),
    elemType: elem,
    maxElements: maxItems,
    minSerializedSize: 2n,
  };
}

export function newMapType(key: DeclType, elem: DeclType, maxProperties: bigint): DeclType {
  return {
    name: 'map',
    celType: mapOf(key.celType, elem.celType),
    keyType: key,
    elemType: elem,
    maxElements: maxProperties,
    minSerializedSize: 2n,
  };
}

export function newObjectType(name: string, fields: ReadonlyMap<string, DeclField>, minSize = 2n): DeclType {
  return { name, celType: objectOf(name), fields, maxElements: 0n, minSerializedSize: minSize };
}

// Serialized-size floors of pkg/cel/limits.go.
export const MAX_DURATION_SIZE_JSON = 32n;
export const MAX_DATETIME_SIZE_JSON = 32n;
export const MIN_DURATION_SIZE_JSON = 3n;
export const JSON_DATE_SIZE = 12n;
export const MIN_DATETIME_SIZE_JSON = 21n;
export const MIN_STRING_SIZE = 2n;
export const MIN_BOOL_SIZE = 4n;
export const MIN_NUMBER_SIZE = 1n;

export const AnyDeclType = simpleType('any', { kind: 'wellKnown', name: 'any' }, 1n);
export const BoolDeclType = simpleType('bool', BOOL, MIN_BOOL_SIZE);
export const BytesDeclType = simpleType('bytes', BYTES, MIN_STRING_SIZE);
export const DoubleDeclType = simpleType('double', DOUBLE, MIN_NUMBER_SIZE);
export const DurationDeclType = simpleType('duration', DURATION, MIN_DURATION_SIZE_JSON);
export const DynDeclType = simpleType('dyn', DYN, 1n);
export const IntDeclType = simpleType('int', INT, MIN_NUMBER_SIZE);
export const NullDeclType = simpleType('null_type', NULL, 4n);
export const StringDeclType = simpleType('string', STRING, MIN_STRING_SIZE);
export const TimestampDeclType = simpleType('timestamp', TIMESTAMP, JSON_DATE_SIZE);
export const UintDeclType = simpleType('uint', UINT, 1n);

/**
 * Names an object type and, through it, every object type beneath it (`name.field`,
 * `name.field.@idx` for list items, `name.field.@elem` for map values), as DeclType's
 * MaybeAssignTypeName. Objects that already have a name keep it.
 */
export function assignTypeNames(t: DeclType, name: string): DeclType {
  if (isObjectType(t) && t.fields !== undefined) {
    let updated = false;
    let typeName = name;
    if (t.name !== 'object') typeName = t.name;
    else updated = true;
    const fields = new Map<string, DeclField>();
    for (const [fieldName, field] of t.fields) {
      const fieldType = assignTypeNames(field.type, `${typeName}.${fieldName}`);
      if (fieldType === field.type) {
        fields.set(fieldName, field);
        continue;
      }
      updated = true;
      fields.set(fieldName, { ...field, type: fieldType });
    }
    if (!updated) return t;
    return { ...t, name: typeName, celType: objectOf(typeName), fields };
  }
  if (isMapType(t) && t.keyType !== undefined && t.elemType !== undefined) {
    const elem = assignTypeNames(t.elemType, `${name}.@elem`);
    return elem === t.elemType ? t : newMapType(t.keyType, elem, t.maxElements);
  }
  if (isListType(t) && t.elemType !== undefined) {
    const elem = assignTypeNames(t.elemType, `${name}.@idx`);
    return elem === t.elemType ? t : newListType(elem, t.maxElements);
  }
  return t;
}

/** Every named object type reachable from the given types (FieldTypeMap). */
export function collectObjectTypes(roots: Iterable<DeclType>): Map<string, DeclType> {
  const out = new Map<string, DeclType>();
  const visit = (t: DeclType): void => {
    if (isObjectType(t) && t.fields !== undefined) {
      if (out.has(t.name)) return;
      out.set(t.name, t);
      for (const field of t.fields.values()) visit(field.type);
    } else if (t.elemType !== undefined) {
      visit(t.elemType);
    }
  };
  for (const root of roots) visit(root);
  return out;
}

/** The checker's view of declared object types (RuleTypes.FindType / FindFieldType). */
export function declTypeProvider(roots: Iterable<DeclType>): TypeProvider {
  const objects = collectObjectTypes(roots);
  return {
    findType: (name) => objects.get(name)?.celType,
    findFieldType: (typeName, fieldName) => objects.get(typeName)?.fields?.get(fieldName)?.type.celType,
  };
}
