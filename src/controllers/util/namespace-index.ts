/**
 * "The objects of namespace N" of a shared informer: a view over its store's built-in namespace
 * index (client/informer-store.ts), kept for the controllers that read through it.
 */
import { namespaceIndex } from '../../client/informer-store.js';
import type { SharedInformer } from '../../client/shared-informer.js';
import type { JsonObject } from '../../util/json.js';

export class NamespaceIndex {
  readonly #informer: SharedInformer;

  constructor(informer: SharedInformer) {
    this.#informer = informer;
  }

  /** Nothing to follow: the store keeps the index itself. */
  start(): void {}

  stop(): void {}

  /** The objects of namespace `ns`, as the informer's store has them now. */
  list(ns: string): JsonObject[] {
    return this.#informer.store.byIndex(namespaceIndex, ns);
  }
}
