/**
 * The schema registry of one server: the built-in definitions (immutable, built on first use)
 * plus the definitions of kinds registered while serving (custom resources later), which can come
 * and go. Two servers in one process never see each other's registrations.
 */
import { isRefSchema } from './registry.js';
import type { Definition, RefSchema, Schema, SchemaRegistry } from './types.js';

export class ServerSchemaRegistry implements SchemaRegistry {
  readonly #base: () => SchemaRegistry;
  readonly #added = new Map<string, Definition>();

  /** `base` is called on first use (building the built-in definitions costs start-up time). */
  constructor(base: () => SchemaRegistry) {
    this.#base = base;
  }

  /** Adds definitions; a name already known (built-in or added) is refused and nothing is added. */
  add(defs: Iterable<Definition>): void {
    const list = [...defs];
    const base = this.#base();
    for (const d of list) {
      if (base.get(d.name) !== undefined || this.#added.has(d.name)) {
        throw new Error(`schema definition ${d.name} is already registered`);
      }
    }
    for (const d of list) this.#added.set(d.name, d);
  }

  /** Removes definitions added earlier (built-in ones stay). */
  remove(names: Iterable<string>): void {
    for (const n of names) this.#added.delete(n);
  }

  get(name: string): Definition | undefined {
    return this.#added.get(name) ?? this.#base().get(name);
  }

  resolve(schema: Schema): Exclude<Schema, RefSchema> {
    let current = schema;
    for (let depth = 0; isRefSchema(current); depth++) {
      const target = this.get(current.ref);
      if (target === undefined) throw new Error(`unknown schema definition ${current.ref}`);
      if (depth > 32) throw new Error(`schema reference cycle at ${current.ref}`);
      current = target.schema;
    }
    return current;
  }

  *all(): Iterable<Definition> {
    yield* this.#base().all();
    yield* this.#added.values();
  }
}
