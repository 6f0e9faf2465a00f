/**
 * The structured-merge-diff type model (its schema.Atom) built from nanokube's declarative
 * schemas, with the rules kube-openapi's schemaconv applies to OpenAPI: a struct or map is
 * granular ("separable") unless `x-kubernetes-map-type: atomic`; a list is atomic unless
 * `x-kubernetes-list-type` is set or map (associative, keyed by `x-kubernetes-list-map-keys`) /
 * set, or, without a list type, its patch strategy merges (associative, keyed by the patch merge
 * key when there is one); strings, numbers, booleans and int-or-string are scalars; a value of any
 * type (RawExtension, free-form JSON) is "deduced": a scalar, an atomic list or a granular map,
 * whichever its value is.
 */
import type { Schema, SchemaRegistry } from '../../apis/schema/types.js';

export type Relationship = 'atomic' | 'separable' | 'associative';

export interface ListAtom {
  readonly relationship: Relationship;
  /** List-map keys (associative lists of maps); none for sets. */
  readonly keys: readonly string[];
  elem(): Atom;
}

export interface MapAtom {
  readonly relationship: 'atomic' | 'separable';
  /** Struct fields (none for a pure map). */
  field(name: string): Atom | undefined;
  hasField(name: string): boolean;
  /** The default value of a struct field (list-map keys may be defaulted). */
  fieldDefault(name: string): unknown;
  /** The type of entries that are not struct fields, if any. */
  elem(): Atom | undefined;
}

/** One type: any of scalar, list and map (more than one only when deduced). */
export interface Atom {
  readonly scalar?: true;
  readonly list?: ListAtom;
  readonly map?: MapAtom;
}

export class TypeModel {
  readonly #registry: SchemaRegistry;
  readonly #atoms = new Map<Schema, Atom>();
  readonly #zeros = new Map<string, Record<string, unknown> | undefined>();
  readonly #deduced: Atom;
  /** `__untyped_atomic_`: any value, always a leaf. */
  readonly #atomic: Atom;

  constructor(registry: SchemaRegistry) {
    this.#registry = registry;
    const deduced: Atom = {
      scalar: true,
      list: { relationship: 'atomic', keys: [], elem: () => deduced },
      map: {
        relationship: 'separable',
        field: () => undefined,
        hasField: () => false,
        fieldDefault: () => undefined,
        elem: () => deduced,
      },
    };
    this.#deduced = deduced;
    const atomic: Atom = {
      scalar: true,
      list: { relationship: 'atomic', keys: [], elem: () => atomic },
      map: {
        relationship: 'atomic',
        field: () => undefined,
        hasField: () => false,
        fieldDefault: () => undefined,
        elem: () => atomic,
      },
    };
    this.#atomic = atomic;
  }

  get deduced(): Atom {
    return this.#deduced;
  }

  /** The atom of a definition by name (e.g. `io.k8s.api.apps.v1.Deployment`). */
  definition(name: string): Atom | undefined {
    const d = this.#registry.get(name);
    return d === undefined ? undefined : this.atom(d.schema);
  }

  /**
   * The object of a definition as Go serializes its zero value (what an Update from nothing starts
   * from upstream, so that fields always present, like `spec`, are not "added"): struct fields
   * that are not pointers (OpenAPI `default: {}`) hold their own zero value; other required
   * fields (no omitempty) their type's zero, null for lists, maps and pointers; optional fields
   * are absent.
   */
  zero(name: string): Record<string, unknown> | undefined {
    if (this.#zeros.has(name)) return structuredClone(this.#zeros.get(name));
    const d = this.#registry.get(name);
    const z = d === undefined ? undefined : this.#zero({ ref: d.name, default: {} }, false, 0);
    const obj = z !== null && typeof z === 'object' ? (z as Record<string, unknown>) : undefined;
    this.#zeros.set(name, obj);
    return structuredClone(obj);
  }

  #zero(schema: Schema, required: boolean, depth: number): unknown {
    const resolved = this.#registry.resolve(schema);
    const structByValue = 'default' in schema && isEmptyObject(schema.default);
    if (structByValue && depth < 32) {
      if (resolved.type === 'object') {
        const out: Record<string, unknown> = {};
        const req = new Set(resolved.required ?? []);
        for (const [k, p] of Object.entries(resolved.properties ?? {})) {
          const v = this.#zero(p, req.has(k), depth + 1);
          if (v !== undefined) out[k] = v;
        }
        return out;
      }
      // Time and MicroTime are structs whose zero value marshals as null; Quantity as "0".
      if ('ref' in schema && schema.ref.endsWith('.Quantity')) return '0';
      return null;
    }
    if (!required) return undefined;
    switch (resolved.type) {
      case 'string':
        return resolved.format === 'date-time' || resolved.format === 'byte' ? null : '';
      case 'integer':
      case 'number':
      case 'int-or-string':
        return 0;
      case 'boolean':
        return false;
      default:
        return null;
    }
  }

  atom(schema: Schema): Atom {
    let a = this.#atoms.get(schema);
    if (a === undefined) {
      a = this.#build(schema);
      this.#atoms.set(schema, a);
    }
    return a;
  }

  #build(schema: Schema): Atom {
    // schemaconv's special cases: RawExtension is atomic whatever it holds; Quantity a scalar.
    if ('ref' in schema && schema.ref === 'io.k8s.apimachinery.pkg.runtime.RawExtension') return this.#atomic;
    if ('ref' in schema && schema.ref === 'io.k8s.apimachinery.pkg.api.resource.Quantity')
      return { scalar: true };
    const resolved = this.#registry.resolve(schema);
    // Extensions on a property that refers to a definition apply to it there.
    const mapType = schema.mapType ?? resolved.mapType;
    switch (resolved.type) {
      case 'string':
      case 'integer':
      case 'number':
      case 'boolean':
      case 'int-or-string':
        return { scalar: true };
      case 'any':
        return this.#deduced;
      case 'array': {
        const semantics = 'ref' in schema ? { ...resolved, ...schema } : resolved;
        const items = resolved.items;
        let relationship: Relationship = 'atomic';
        let keys: readonly string[] = [];
        if (semantics.listType === 'map') {
          relationship = 'associative';
          keys = semantics.listMapKeys ?? [];
        } else if (semantics.listType === 'set') relationship = 'associative';
        else if (
          semantics.listType === undefined &&
          (semantics.patchStrategy ?? '').split(',').includes('merge')
        ) {
          relationship = 'associative';
          if (semantics.patchMergeKey !== undefined) keys = [semantics.patchMergeKey];
        }
        return { list: { relationship, keys, elem: () => this.atom(items) } };
      }
      case 'object': {
        const props = resolved.properties ?? {};
        const extra = resolved.additionalProperties;
        const elem =
          extra === undefined
            ? Object.keys(props).length === 0
              ? (): Atom | undefined => this.#deduced
              : (): Atom | undefined => undefined
            : extra === true
              ? (): Atom | undefined => this.#deduced
              : (): Atom | undefined => this.atom(extra);
        return {
          map: {
            relationship: mapType === 'atomic' ? 'atomic' : 'separable',
            field: (name) => {
              const p = Object.hasOwn(props, name) ? props[name] : undefined;
              return p === undefined ? undefined : this.atom(p);
            },
            hasField: (name) => Object.hasOwn(props, name),
            fieldDefault: (name) => {
              const p = Object.hasOwn(props, name) ? props[name] : undefined;
              return p === undefined ? undefined : defaultOf(p);
            },
            elem,
          },
        };
      }
    }
  }
}

function isEmptyObject(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0;
}

function defaultOf(s: Schema): unknown {
  return 'default' in s ? s.default : undefined;
}
