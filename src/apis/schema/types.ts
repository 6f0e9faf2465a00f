/**
 * The declarative schema model for built-in kinds. One definition per upstream OpenAPI definition
 * name (e.g. `io.k8s.api.core.v1.Pod`); OpenAPI v2/v3, decoding, pruning, unknown-field detection,
 * strategic-merge patch and (later) apply metadata all derive from these.
 */
import type { JsonObject } from '../../util/json.js';

/** Strategic-merge and list semantics of an array or map field. */
export interface ListSemantics {
  /** `x-kubernetes-list-type`. */
  readonly listType?: 'atomic' | 'set' | 'map';
  /** `x-kubernetes-list-map-keys`. */
  readonly listMapKeys?: readonly string[];
  /** `x-kubernetes-patch-strategy`: "merge", "replace", "retainKeys", "merge,retainKeys". */
  readonly patchStrategy?: string;
  /** `x-kubernetes-patch-merge-key`. */
  readonly patchMergeKey?: string;
}

interface Common {
  /** Our own short description (never upstream's sentences). */
  readonly description?: string;
  /** `x-kubernetes-map-type` for objects/maps: "atomic" | "granular". */
  readonly mapType?: 'atomic' | 'granular';
}

export interface RefSchema extends Common, ListSemantics {
  /** Definition name, e.g. `io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`. */
  readonly ref: string;
  readonly default?: unknown;
}

export interface StringSchema extends Common {
  readonly type: 'string';
  /** OpenAPI format: "byte", "date-time", "int-or-string" (see IntOrString), ... */
  readonly format?: string;
  readonly enum?: readonly string[];
  readonly default?: string;
  /** `x-kubernetes-list-type: atomic` on a base64 byte string (a Go `[]byte` marked atomic). */
  readonly listType?: 'atomic';
}

export interface IntegerSchema extends Common {
  readonly type: 'integer';
  readonly format?: 'int32' | 'int64';
  readonly default?: number;
}

export interface NumberSchema extends Common {
  readonly type: 'number';
  readonly format?: 'double';
  readonly default?: number;
}

export interface BooleanSchema extends Common {
  readonly type: 'boolean';
  readonly default?: boolean;
}

export interface ArraySchema extends Common, ListSemantics {
  readonly type: 'array';
  readonly items: Schema;
}

/** A struct with known properties, or a map when `additionalProperties` is set. */
export interface ObjectSchema extends Common, ListSemantics {
  readonly type: 'object';
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly required?: readonly string[];
  /** Map value schema; `true` means any JSON value. */
  readonly additionalProperties?: Schema | true;
  /** `x-kubernetes-unions` and other rarely used extensions, passed through to OpenAPI. */
  readonly extensions?: Readonly<Record<string, unknown>>;
}

/** A value of any JSON type (RawExtension, JSON, free-form). */
export interface AnySchema extends Common {
  readonly type: 'any';
  /** `x-kubernetes-preserve-unknown-fields` in OpenAPI v3 (true for RawExtension). */
  readonly preserveUnknownFields?: boolean;
  /** Emitted in OpenAPI as type: object (RawExtension) instead of no type. */
  readonly asObject?: boolean;
}

/** intstr.IntOrString: `x-kubernetes-int-or-string`, `format: int-or-string`. */
export interface IntOrStringSchema extends Common {
  readonly type: 'int-or-string';
}

export type Schema =
  | RefSchema
  | StringSchema
  | IntegerSchema
  | NumberSchema
  | BooleanSchema
  | ArraySchema
  | ObjectSchema
  | AnySchema
  | IntOrStringSchema;

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** A named definition (what OpenAPI calls a definition / component schema). */
export interface Definition {
  readonly name: string;
  readonly schema: Schema;
  /** `x-kubernetes-group-version-kind` for top-level kinds (and shared kinds like DeleteOptions). */
  readonly gvk?: readonly GroupVersionKind[];
  /**
   * The OpenAPI v2 and v3 JSON published for this definition, used as given instead of rendering
   * `schema` (custom resources: their CRD schema carries keywords this model does not hold).
   * Refs in it use each version's prefix (`#/definitions/`, `#/components/schemas/`).
   */
  readonly rendered?: { readonly v2: JsonObject; readonly v3: JsonObject };
}

/** Looks definitions up by name; the one place schemas are resolved. */
export interface SchemaRegistry {
  get(name: string): Definition | undefined;
  /** Follows refs until a non-ref schema. */
  resolve(schema: Schema): Exclude<Schema, RefSchema>;
  all(): Iterable<Definition>;
}
