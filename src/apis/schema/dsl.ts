/**
 * Small constructors that keep the generated schema modules (src/apis/generated) short.
 * Each returns a plain schema object of the model in ./types.ts.
 */
import type {
  AnySchema,
  ArraySchema,
  BooleanSchema,
  Definition,
  IntOrStringSchema,
  IntegerSchema,
  NumberSchema,
  ObjectSchema,
  RefSchema,
  Schema,
  StringSchema,
} from './types.js';

type Extra<T extends { readonly type: string }> = Omit<T, 'type'>;

export function str(extra: Extra<StringSchema> = {}): StringSchema {
  return { type: 'string', ...extra };
}

export function int32(extra: Omit<Extra<IntegerSchema>, 'format'> = {}): IntegerSchema {
  return { type: 'integer', format: 'int32', ...extra };
}

export function int64(extra: Omit<Extra<IntegerSchema>, 'format'> = {}): IntegerSchema {
  return { type: 'integer', format: 'int64', ...extra };
}

/** An integer without a format (rare upstream). */
export function int(extra: Extra<IntegerSchema> = {}): IntegerSchema {
  return { type: 'integer', ...extra };
}

export function num(extra: Extra<NumberSchema> = {}): NumberSchema {
  return { type: 'number', ...extra };
}

export function bool(extra: Extra<BooleanSchema> = {}): BooleanSchema {
  return { type: 'boolean', ...extra };
}

export function arr(items: Schema, extra: Omit<Extra<ArraySchema>, 'items'> = {}): ArraySchema {
  return { type: 'array', items, ...extra };
}

/** A struct with known properties. */
export function obj(
  properties: Readonly<Record<string, Schema>>,
  extra: Omit<Extra<ObjectSchema>, 'properties'> = {},
): ObjectSchema {
  return { type: 'object', properties, ...extra };
}

/** A map from string keys to `values`. */
export function map(
  values: Schema,
  extra: Omit<Extra<ObjectSchema>, 'additionalProperties'> = {},
): ObjectSchema {
  return { type: 'object', additionalProperties: values, ...extra };
}

export function ref(name: string, extra: Omit<RefSchema, 'ref'> = {}): RefSchema {
  return { ref: name, ...extra };
}

export function any(extra: Extra<AnySchema> = {}): AnySchema {
  return { type: 'any', ...extra };
}

export function intOrString(): IntOrStringSchema {
  return { type: 'int-or-string' };
}

/** A definition; `gvk` as [group, version, kind] triples. */
export function def(
  name: string,
  schema: Schema,
  gvk?: readonly (readonly [string, string, string])[],
): Definition {
  if (gvk === undefined) return { name, schema };
  return { name, schema, gvk: gvk.map(([group, version, kind]) => ({ group, version, kind })) };
}
