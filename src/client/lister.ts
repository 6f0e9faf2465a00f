/**
 * Listers (client-go's): reads of an informer's store by namespace, name and label selector,
 * answered from memory through the store's namespace index.
 */
import { isJsonObject } from '../util/json.js';
import type { JsonObject } from '../util/json.js';
import { namespaceIndex } from './informer-store.js';
import type { ReadonlyStore } from './informer-store.js';
import { keyFor } from './object-meta.js';

/** What a lister needs of a label selector (machinery/labels' LabelSelector fits). */
export interface LabelMatcher {
  matches(labels: Readonly<Record<string, string>> | undefined): boolean;
}

function labelsOf(obj: JsonObject): Record<string, string> | undefined {
  const meta = obj['metadata'];
  if (!isJsonObject(meta)) return undefined;
  const labels = meta['labels'];
  if (!isJsonObject(labels)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(labels)) if (typeof v === 'string') out[k] = v;
  return out;
}

function select(objects: JsonObject[], selector: LabelMatcher | undefined): JsonObject[] {
  return selector === undefined ? objects : objects.filter((o) => selector.matches(labelsOf(o)));
}

export interface NamespaceLister {
  list(selector?: LabelMatcher): JsonObject[];
  get(name: string): JsonObject | undefined;
}

export class Lister {
  readonly #store: ReadonlyStore;

  constructor(store: ReadonlyStore) {
    this.#store = store;
  }

  /** Every object (all namespaces), optionally only those whose labels match. */
  list(selector?: LabelMatcher): JsonObject[] {
    return select(this.#store.list(), selector);
  }

  /** A cluster-scoped object by name. */
  get(name: string): JsonObject | undefined {
    return this.#store.get(name);
  }

  namespace(namespace: string): NamespaceLister {
    return {
      list: (selector) => select(this.#store.byIndex(namespaceIndex, namespace), selector),
      get: (name) => this.#store.get(keyFor(namespace, name)),
    };
  }
}
