/**
 * The declared CEL type of data a CRD schema describes, as apiserver v0.27.16
 * pkg/cel/common/schemas.go SchemaDeclType (used by apiextensions-apiserver
 * pkg/apiserver/schema/cel/model): objects with properties become object types with escaped
 * field names, additionalProperties become maps, arrays lists, int-or-string dyn; string formats
 * byte/duration/date/date-time become bytes/duration/timestamp. MaxElements comes from
 * maxLength/maxItems/maxProperties or, failing those, from what fits in the largest request.
 */
import { BYTES, DURATION, DYN, STRING, TIMESTAMP } from '../checker/types.js';
import {
  BoolDeclType,
  DoubleDeclType,
  IntDeclType,
  JSON_DATE_SIZE,
  MAX_DATETIME_SIZE_JSON,
  MAX_DURATION_SIZE_JSON,
  MIN_DATETIME_SIZE_JSON,
  MIN_DURATION_SIZE_JSON,
  MIN_STRING_SIZE,
  StringDeclType,
  type DeclField,
  type DeclType,
  newListType,
  newMapType,
  newObjectType,
  simpleType,
} from './decl-type.js';
import { escapeName } from './escaping.js';
import {
  type JsonSchema,
  isEmbeddedResource,
  isIntOrString,
  schemaAdditionalProperties,
  schemaDefault,
  schemaEnum,
  schemaFormat,
  schemaItems,
  schemaMaxItems,
  schemaMaxLength,
  schemaMaxProperties,
  schemaProperties,
  schemaRequired,
  schemaType,
  withTypeAndObjectMeta,
} from './structural.js';

/** apiserver's celconfig.MaxRequestSizeBytes (3 MiB). */
export const MAX_REQUEST_SIZE_BYTES = 3n * 1024n * 1024n;

function zeroIfNegative(v: bigint): bigint {
  return v < 0n ? 0n : v;
}

/** Go int64 arithmetic wraps; schemas with absurd limits behave as upstream does. */
function int64(v: bigint): bigint {
  return BigInt.asIntN(64, v);
}

function estimateMaxStringLengthPerRequest(s: JsonSchema): bigint {
  if (isIntOrString(s)) return MAX_REQUEST_SIZE_BYTES - 2n;
  switch (schemaFormat(s)) {
    case 'duration':
      return MAX_DURATION_SIZE_JSON;
    case 'date':
      return JSON_DATE_SIZE;
    case 'date-time':
      return MAX_DATETIME_SIZE_JSON;
    default:
      return MAX_REQUEST_SIZE_BYTES - 2n;
  }
}

function estimateMaxArrayItemsFromMinSize(minSize: bigint): bigint {
  return (MAX_REQUEST_SIZE_BYTES - 2n) / (minSize + 1n);
}

function estimateMaxAdditionalPropertiesFromMinSize(minSize: bigint): bigint {
  return (MAX_REQUEST_SIZE_BYTES - 2n) / (minSize + 6n);
}

/**
 * The DeclType for a schema node, or undefined when CEL cannot see the data (no type, or an
 * array without items). `isResourceRoot` is true at a CRD's root and for embedded resources.
 */
export function schemaDeclType(
  schema: JsonSchema | undefined,
  isResourceRoot: boolean,
): DeclType | undefined {
  if (schema === undefined) return undefined;
  if (isIntOrString(schema)) {
    // The smallest serialized int-or-string is `0`.
    return simpleType('dyn', DYN, 1n, MAX_REQUEST_SIZE_BYTES - 2n);
  }
  const s = isResourceRoot ? withTypeAndObjectMeta(schema) : schema;
  switch (schemaType(s)) {
    case 'array': {
      const items = schemaItems(s);
      if (items === undefined) return undefined;
      const itemsType = schemaDeclType(items, isEmbeddedResource(items));
      if (itemsType === undefined) return undefined;
      const maxItems = schemaMaxItems(s);
      return newListType(
        itemsType,
        maxItems !== undefined
          ? zeroIfNegative(maxItems)
          : estimateMaxArrayItemsFromMinSize(itemsType.minSerializedSize),
      );
    }
    case 'object': {
      const additional = schemaAdditionalProperties(s);
      if (additional !== undefined) {
        const propsType = schemaDeclType(additional, isEmbeddedResource(additional));
        if (propsType === undefined) return undefined;
        const maxProperties = schemaMaxProperties(s);
        return newMapType(
          StringDeclType,
          propsType,
          maxProperties !== undefined
            ? zeroIfNegative(maxProperties)
            : estimateMaxAdditionalPropertiesFromMinSize(propsType.minSerializedSize),
        );
      }
      const required = new Set(schemaRequired(s));
      const fields = new Map<string, DeclField>();
      let minSerializedSize = 2n;
      for (const [name, prop] of schemaProperties(s) ?? []) {
        const fieldType = schemaDeclType(prop, isEmbeddedResource(prop));
        if (fieldType === undefined) continue;
        const escaped = escapeName(name);
        if (escaped !== undefined) {
          const enumValues = schemaEnum(prop);
          const defaultValue = schemaDefault(prop);
          fields.set(escaped, {
            name: escaped,
            type: fieldType,
            required: required.has(name),
            ...(enumValues !== undefined ? { enumValues } : {}),
            ...(defaultValue !== undefined ? { defaultValue } : {}),
          });
        }
        if (required.has(name) && schemaDefault(prop) === undefined) {
          minSerializedSize += BigInt(name.length) + fieldType.minSerializedSize + 4n;
        }
      }
      return newObjectType('object', fields, minSerializedSize);
    }
    case 'string': {
      const maxLength = schemaMaxLength(s);
      switch (schemaFormat(s)) {
        case 'byte':
          return simpleType(
            'bytes',
            BYTES,
            MIN_STRING_SIZE,
            maxLength !== undefined ? zeroIfNegative(maxLength) : estimateMaxStringLengthPerRequest(s),
          );
        case 'duration':
          return simpleType(
            'duration',
            DURATION,
            MIN_DURATION_SIZE_JSON,
            estimateMaxStringLengthPerRequest(s),
          );
        case 'date':
          return simpleType('timestamp', TIMESTAMP, JSON_DATE_SIZE, estimateMaxStringLengthPerRequest(s));
        case 'date-time':
          return simpleType(
            'timestamp',
            TIMESTAMP,
            MIN_DATETIME_SIZE_JSON,
            estimateMaxStringLengthPerRequest(s),
          );
      }
      // A character is at most 4 bytes of UTF-8.
      return simpleType(
        'string',
        STRING,
        MIN_STRING_SIZE,
        maxLength !== undefined
          ? int64(zeroIfNegative(maxLength) * 4n)
          : estimateMaxStringLengthPerRequest(s),
      );
    }
    case 'boolean':
      return BoolDeclType;
    case 'number':
      return DoubleDeclType;
    case 'integer':
      return IntDeclType;
  }
  return undefined;
}
