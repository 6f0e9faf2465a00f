/**
 * Which struct properties get a value when absent after decoding, and what value: the schema's
 * `default` (upstream OpenAPI v3: `{}` on non-pointer struct fields, zero values on required
 * scalars, `+default=` markers), translated into what Go's encoding/json prints for that field's
 * zero value. Computed once per properties object and cached.
 */
import type { JsonValue } from '../../util/json.js';
import type { Schema, SchemaRegistry } from '../schema/types.js';
import { canonicalQuantityText } from './quantity.js';

export const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
export const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** A property to fill in when absent. */
export interface PropertyDefault {
  readonly key: string;
  /** The property's schema (walked to build a struct's zero value). */
  readonly schema: Schema;
  /** A scalar (or null) inserted as is; undefined for a struct, whose zero value is built by walking. */
  readonly scalar?: JsonValue;
  /** A struct: the `default` object to walk (so its own defaults apply) and insert. */
  readonly struct?: Readonly<Record<string, unknown>>;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** What to insert for one property's default, or undefined when nothing is inserted. */
function propertyDefault(registry: SchemaRegistry, key: string, schema: Schema): PropertyDefault | undefined {
  const d: unknown = 'default' in schema ? schema.default : undefined;
  if (d === undefined) return undefined;
  const ref = 'ref' in schema ? schema.ref : undefined;
  // A zero resource.Quantity prints as "0"; a textual default is canonicalised by the walk.
  if (ref === QUANTITY) {
    const text = typeof d === 'string' ? canonicalQuantityText(d) : '0';
    return typeof text === 'string' ? { key, schema, scalar: text } : undefined;
  }
  const s = registry.resolve(schema);
  switch (s.type) {
    case 'object':
      // Maps (nil when absent, omitted) are not created; structs always print.
      return s.properties !== undefined && isPlainObject(d) ? { key, schema, struct: d } : undefined;
    case 'string':
      if (typeof d === 'string') return { key, schema, scalar: d };
      // metav1.Time / MicroTime: a zero time prints as null.
      if (s.format === 'date-time' && ref !== undefined && isPlainObject(d))
        return { key, schema, scalar: null };
      return undefined;
    case 'integer':
    case 'number':
      return typeof d === 'number' ? { key, schema, scalar: d } : undefined;
    case 'boolean':
      return typeof d === 'boolean' ? { key, schema, scalar: d } : undefined;
    case 'int-or-string':
      // A zero IntOrString prints as 0.
      if (typeof d === 'number' || typeof d === 'string') return { key, schema, scalar: d };
      return isPlainObject(d) ? { key, schema, scalar: 0 } : undefined;
    default:
      // Lists are never created; free-form values (RawExtension) print as null and are left out.
      return undefined;
  }
}

const cache = new WeakMap<SchemaRegistry, WeakMap<object, readonly PropertyDefault[]>>();

/** The defaulted properties of a struct's `properties`, in schema order. */
export function propertyDefaults(
  registry: SchemaRegistry,
  props: Readonly<Record<string, Schema>>,
): readonly PropertyDefault[] {
  let byProps = cache.get(registry);
  if (byProps === undefined) {
    byProps = new WeakMap();
    cache.set(registry, byProps);
  }
  let list = byProps.get(props);
  if (list === undefined) {
    const out: PropertyDefault[] = [];
    for (const key of Object.keys(props)) {
      const d = propertyDefault(registry, key, props[key]!);
      if (d !== undefined) out.push(d);
    }
    list = out;
    byProps.set(props, list);
  }
  return list;
}
