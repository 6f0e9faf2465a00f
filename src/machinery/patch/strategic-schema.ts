/**
 * Patch metadata for strategic merge patch, read from the schema model: the Go struct tags
 * `patchStrategy` / `patchMergeKey` upstream reads by reflection are our `patchStrategy` /
 * `patchMergeKey` on the field's schema (an array schema, or a ref carrying them).
 */
import type { RefSchema, Schema, SchemaRegistry } from '../../apis/schema/types.js';

export interface PatchMeta {
  /** `patchStrategy` split on commas ("merge,retainKeys" -> ["merge", "retainKeys"]). */
  readonly strategies: readonly string[];
  readonly mergeKey: string;
}

const NO_META: PatchMeta = { strategies: [], mergeKey: '' };

/** The schema of one level of the document; an absent schema means "no metadata" (plain merge). */
export class PatchSchema {
  readonly #registry: SchemaRegistry;
  readonly #schema: Schema | undefined;

  constructor(registry: SchemaRegistry, schema: Schema | undefined) {
    this.#registry = registry;
    this.#schema = schema;
  }

  #resolved(s: Schema | undefined): Exclude<Schema, RefSchema> | undefined {
    return s === undefined ? undefined : this.#registry.resolve(s);
  }

  #field(key: string): Schema | undefined {
    const r = this.#resolved(this.#schema);
    if (r === undefined || r.type !== 'object') return undefined;
    if (r.properties !== undefined && Object.hasOwn(r.properties, key)) return r.properties[key];
    if (r.additionalProperties !== undefined && r.additionalProperties !== true)
      return r.additionalProperties;
    return undefined;
  }

  #meta(field: Schema | undefined): PatchMeta {
    if (field === undefined) return NO_META;
    const own = 'ref' in field || field.type === 'array' || field.type === 'object' ? field : undefined;
    const r = this.#resolved(field);
    const target = r !== undefined && (r.type === 'array' || r.type === 'object') ? r : undefined;
    const strategy = own?.patchStrategy ?? target?.patchStrategy ?? '';
    const mergeKey = own?.patchMergeKey ?? target?.patchMergeKey ?? '';
    return { strategies: strategy === '' ? [] : strategy.split(','), mergeKey };
  }

  /** The schema of a map-valued field and its patch metadata. */
  forStruct(key: string): { readonly schema: PatchSchema; readonly meta: PatchMeta } {
    const field = this.#field(key);
    return { schema: new PatchSchema(this.#registry, field), meta: this.#meta(field) };
  }

  /** The element schema of a list-valued field and the field's patch metadata. */
  forSlice(key: string): { readonly schema: PatchSchema; readonly meta: PatchMeta } {
    const field = this.#field(key);
    const r = this.#resolved(field);
    // A field that is not an array schema (Go: a pointer holding the list) is its own element type.
    const items = r !== undefined && r.type === 'array' ? r.items : field;
    return { schema: new PatchSchema(this.#registry, items), meta: this.#meta(field) };
  }

  /** What upstream's PatchMetaFromStruct.Name() prints: the Go kind of the type. */
  name(): string {
    const r = this.#resolved(this.#schema);
    if (r === undefined || r.type === 'any') return 'interface';
    if (r.type === 'object') return r.properties !== undefined ? 'struct' : 'map';
    return r.type;
  }
}
