/**
 * The runtime of the apply configurations (client-go's k8s.io/client-go/applyconfigurations): the
 * builders generated per package (scripts/gen-apply-configurations.mjs → ./<package>.ts) are thin
 * subclasses of these, one one-line method per field.
 *
 * A builder holds a plain JSON object with only the fields that were set; it is what a server-side
 * apply sends (`ResourceClient.apply`). As in client-go:
 *
 *   - `withX(value)` of a scalar or struct field replaces the field;
 *   - `withX(...items)` of a list field APPENDS the items (a call without items adds nothing);
 *   - `withX(entries)` of a map field merges the entries (overwriting equal keys);
 *   - a nested builder is kept by reference (as client-go keeps a pointer): changes made to it
 *     later still show in its parent;
 *   - ObjectMeta is embedded: `deployment('d', 'ns').withLabels({ app: 'x' })`, and likewise for
 *     the structs that carry an ObjectMeta (PodTemplateSpec, ...).
 *
 * Wherever a builder is taken, the plain object (`ApplyObject<T>`) is taken as well.
 */
import type { ObjectMeta, OwnerReference, Time } from '../types/meta.v1.js';
import type { OwnerReferenceApplyConfiguration } from './meta.v1.js';

/**
 * The plain JSON of an apply configuration of `T`: every field optional, all the way down (an
 * apply names only the fields its manager owns).
 */
export type ApplyObject<T> = T extends readonly (infer E)[]
  ? ApplyObject<E>[]
  : T extends object
    ? { [K in keyof T]?: ApplyObject<T[K]> }
    : T;

/** A builder of `T`, or the plain object it would build. */
export type ApplyInput<T> = Builder<T> | ApplyObject<T>;

type Fields = Record<string, unknown>;

/** The base of every builder: the fields set so far and the three ways of setting them. */
export abstract class Builder<T> {
  readonly #fields: Fields = {};

  /** The plain object of the fields set so far (a deep copy). */
  build(): ApplyObject<T> {
    return structuredClone(this.#fields) as ApplyObject<T>;
  }

  /** What JSON.stringify writes: the fields set so far. */
  toJSON(): ApplyObject<T> {
    return this.#fields as ApplyObject<T>;
  }

  /** Replaces a scalar or struct field. */
  protected set(field: keyof T & string, value: unknown): this {
    this.#fields[field] = plain(value);
    return this;
  }

  /** Appends to a list field (client-go's `append(b.X, values...)`). */
  protected append(field: keyof T & string, items: readonly unknown[]): this {
    appendTo(this.#fields, field, items);
    return this;
  }

  /** Merges entries into a map field. */
  protected merge(field: keyof T & string, entries: Readonly<Record<string, unknown>>): this {
    mergeInto(this.#fields, field, entries);
    return this;
  }

  /** The embedded `metadata` object, created on first use (for MetaBuilder). */
  protected metadata(): Fields {
    const m = this.#fields['metadata'];
    if (isFields(m)) return m;
    const created: Fields = {};
    this.#fields['metadata'] = created;
    return created;
  }

  /** The plain object of a builder (the builder's own, shared), or the value itself. */
  static plain(value: unknown): unknown {
    return value instanceof Builder ? value.#fields : value;
  }
}

const plain = (value: unknown): unknown => Builder.plain(value);

function isFields(v: unknown): v is Fields {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function appendTo(o: Fields, field: string, items: readonly unknown[]): void {
  if (items.length === 0) return;
  const list = o[field];
  if (Array.isArray(list)) for (const x of items) list.push(plain(x));
  else o[field] = items.map(plain);
}

function mergeInto(o: Fields, field: string, entries: Readonly<Record<string, unknown>>): void {
  const keys = Object.keys(entries);
  if (keys.length === 0) return;
  let map = o[field];
  if (!isFields(map)) {
    map = {};
    o[field] = map;
  }
  for (const k of keys) (map as Fields)[k] = plain(entries[k]);
}

type MetaField = keyof ObjectMeta;

/**
 * A struct with an embedded ObjectMeta (client-go's `*metav1.ObjectMetaApplyConfiguration`): the
 * fields an apply may set, written into `metadata`. (managedFields and selfLink are not set by
 * appliers, as in client-go.)
 */
export abstract class MetaBuilder<T extends { metadata?: ObjectMeta }> extends Builder<T> {
  #meta(field: MetaField, value: unknown): this {
    this.metadata()[field] = value;
    return this;
  }

  withName(name: string): this {
    return this.#meta('name', name);
  }

  withGenerateName(generateName: string): this {
    return this.#meta('generateName', generateName);
  }

  withNamespace(namespace: string): this {
    return this.#meta('namespace', namespace);
  }

  withUID(uid: string): this {
    return this.#meta('uid', uid);
  }

  withResourceVersion(resourceVersion: string): this {
    return this.#meta('resourceVersion', resourceVersion);
  }

  withGeneration(generation: number): this {
    return this.#meta('generation', generation);
  }

  withCreationTimestamp(creationTimestamp: Time): this {
    return this.#meta('creationTimestamp', creationTimestamp);
  }

  withDeletionTimestamp(deletionTimestamp: Time): this {
    return this.#meta('deletionTimestamp', deletionTimestamp);
  }

  withDeletionGracePeriodSeconds(seconds: number): this {
    return this.#meta('deletionGracePeriodSeconds', seconds);
  }

  /** Merges labels. */
  withLabels(entries: Readonly<Record<string, string>>): this {
    if (Object.keys(entries).length > 0) mergeInto(this.metadata(), 'labels' satisfies MetaField, entries);
    return this;
  }

  /** Merges annotations. */
  withAnnotations(entries: Readonly<Record<string, string>>): this {
    if (Object.keys(entries).length > 0)
      mergeInto(this.metadata(), 'annotations' satisfies MetaField, entries);
    return this;
  }

  /** Appends owner references. */
  withOwnerReferences(...refs: (OwnerReferenceApplyConfiguration | ApplyObject<OwnerReference>)[]): this {
    if (refs.length > 0) appendTo(this.metadata(), 'ownerReferences' satisfies MetaField, refs);
    return this;
  }

  /** Appends finalizers. */
  withFinalizers(...finalizers: string[]): this {
    if (finalizers.length > 0) appendTo(this.metadata(), 'finalizers' satisfies MetaField, finalizers);
    return this;
  }
}

/**
 * A top-level kind (client-go's embedded TypeMeta and ObjectMeta): built with its apiVersion, kind,
 * name and, for namespaced kinds, namespace.
 */
export abstract class ObjectBuilder<
  T extends { apiVersion?: string; kind?: string; metadata?: ObjectMeta },
> extends MetaBuilder<T> {
  constructor(apiVersion: string, kind: string, name: string, namespace?: string) {
    super();
    this.set('apiVersion', apiVersion).set('kind', kind).withName(name);
    if (namespace !== undefined && namespace !== '') this.withNamespace(namespace);
  }

  withAPIVersion(apiVersion: string): this {
    return this.set('apiVersion', apiVersion);
  }

  withKind(kind: string): this {
    return this.set('kind', kind);
  }
}

/** The plain JSON of a builder or a plain apply configuration (a deep copy either way). */
export function applyObject<T>(config: ApplyInput<T>): ApplyObject<T> {
  return config instanceof Builder ? config.build() : structuredClone<ApplyObject<T>>(config);
}
