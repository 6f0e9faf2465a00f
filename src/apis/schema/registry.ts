/** An in-memory SchemaRegistry over a set of definitions. */
import type { Definition, RefSchema, Schema, SchemaRegistry } from './types.js';

export function isRefSchema(schema: Schema): schema is RefSchema {
  return 'ref' in schema;
}

class MapSchemaRegistry implements SchemaRegistry {
  readonly #byName = new Map<string, Definition>();

  constructor(defs: Iterable<Definition>) {
    for (const d of defs) {
      if (this.#byName.has(d.name)) throw new Error(`duplicate schema definition ${d.name}`);
      this.#byName.set(d.name, d);
    }
  }

  get(name: string): Definition | undefined {
    return this.#byName.get(name);
  }

  resolve(schema: Schema): Exclude<Schema, RefSchema> {
    let current = schema;
    for (let depth = 0; isRefSchema(current); depth++) {
      const target = this.#byName.get(current.ref);
      if (target === undefined) throw new Error(`unknown schema definition ${current.ref}`);
      if (depth > 32) throw new Error(`schema reference cycle at ${current.ref}`);
      current = target.schema;
    }
    return current;
  }

  all(): Iterable<Definition> {
    return this.#byName.values();
  }
}

export function createSchemaRegistry(defs: Iterable<Definition>): SchemaRegistry {
  return new MapSchemaRegistry(defs);
}

/**
 * The schema of a nested field of `rootDefinition`: each path element names a property, a map
 * key (any string under `additionalProperties`) or an array element (any string, e.g. an index).
 * Returns undefined when the path leaves the schema; a free-form (`any`) value absorbs the rest.
 */
export function schemaAt(
  registry: SchemaRegistry,
  rootDefinition: string,
  path: readonly string[],
): Schema | undefined {
  const root = registry.get(rootDefinition);
  if (root === undefined) return undefined;
  let current: Schema = root.schema;
  for (const step of path) {
    const s = registry.resolve(current);
    if (s.type === 'any') return s;
    if (s.type === 'array') {
      current = s.items;
    } else if (s.type === 'object') {
      const prop = s.properties?.[step];
      if (prop !== undefined) current = prop;
      else if (s.additionalProperties === true) return { type: 'any' };
      else if (s.additionalProperties !== undefined) current = s.additionalProperties;
      else return undefined;
    } else {
      return undefined;
    }
  }
  return current;
}
