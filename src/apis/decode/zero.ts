/**
 * The zero value of a kind's struct field as kube-apiserver prints it (e.g. a fresh status: a
 * Deployment's `{}`, a ReplicaSet's `{replicas: 0}`), from the schema defaults.
 */
import { cloneJson, isJsonObject } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';
import type { SchemaRegistry } from '../schema/types.js';
import { decodeObject } from './decode.js';

interface KindIndex {
  /** `apiVersion/kind` → definition name. */
  readonly byKind: Map<string, string>;
  /** `definition#field` → zero value (undefined when the field is not a struct). */
  readonly zeros: Map<string, JsonObject | undefined>;
}

const indexes = new WeakMap<SchemaRegistry, KindIndex>();

function indexOf(registry: SchemaRegistry): KindIndex {
  let index = indexes.get(registry);
  if (index === undefined) {
    const byKind = new Map<string, string>();
    for (const def of registry.all()) {
      for (const gvk of def.gvk ?? []) {
        const apiVersion = gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`;
        byKind.set(`${apiVersion}/${gvk.kind}`, def.name);
      }
    }
    index = { byKind, zeros: new Map() };
    indexes.set(registry, index);
  }
  return index;
}

/**
 * A fresh copy of the zero value of `field` (a struct property such as `status`) of the kind
 * `apiVersion`/`kind`; undefined when the kind or a struct field of that name is unknown.
 */
export function zeroFieldValue(options: {
  readonly registry: SchemaRegistry;
  readonly apiVersion: string;
  readonly kind: string;
  readonly field: string;
}): JsonObject | undefined {
  const { registry, field } = options;
  const index = indexOf(registry);
  const definition = index.byKind.get(`${options.apiVersion}/${options.kind}`);
  if (definition === undefined) return undefined;
  const key = `${definition}#${field}`;
  let zero: JsonObject | undefined;
  if (index.zeros.has(key)) zero = index.zeros.get(key);
  else {
    // Decoding an object with only an empty field fills in that field's defaults.
    const r = decodeObject({ registry, definition, body: { [field]: {} }, fieldValidation: 'Ignore' });
    const v = r.errors.length === 0 ? r.object[field] : undefined;
    zero = isJsonObject(v) ? v : undefined;
    index.zeros.set(key, zero);
  }
  return zero === undefined ? undefined : cloneJson(zero);
}
