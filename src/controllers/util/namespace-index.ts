/**
 * Objects of a shared informer grouped by namespace, kept current from its events (until the
 * lister/indexer work in client/ lands, this keeps "pods of namespace N" from scanning every pod).
 */
import { objectKey } from '../../client/object-meta.js';
import type { HandlerRegistration, SharedInformer } from '../../client/shared-informer.js';
import type { JsonObject } from '../../util/json.js';
import { namespace } from './objects.js';

export class NamespaceIndex {
  readonly #informer: SharedInformer;
  readonly #byNs = new Map<string, Set<string>>();
  #registration: HandlerRegistration | undefined;

  constructor(informer: SharedInformer) {
    this.#informer = informer;
  }

  /** Starts following the informer (call before the controller's own handlers). */
  start(): void {
    this.#registration = this.#informer.addEventHandler({
      onAdd: (o) => this.#add(o),
      onUpdate: (_old, o) => this.#add(o),
      onDelete: (o) => this.#byNs.get(namespace(o))?.delete(objectKey(o)),
    });
  }

  stop(): void {
    this.#registration?.remove();
  }

  /** The objects of namespace `ns`, as the informer's store has them now. */
  list(ns: string): JsonObject[] {
    const out: JsonObject[] = [];
    const keys = this.#byNs.get(ns);
    if (keys === undefined) return out;
    for (const k of keys) {
      const o = this.#informer.store.get(k);
      if (o === undefined) keys.delete(k);
      else out.push(o);
    }
    return out;
  }

  #add(o: JsonObject): void {
    const ns = namespace(o);
    let keys = this.#byNs.get(ns);
    if (keys === undefined) {
      keys = new Set();
      this.#byNs.set(ns, keys);
    }
    keys.add(objectKey(o));
  }
}
