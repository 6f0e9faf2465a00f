/**
 * Follows one storage prefix for an in-memory view the server keeps (the RBAC index, the Node
 * authorizer's graph): list, hand over every item, then watch from the list's revision; a broken
 * watch relists after 200 ms, as an informer would. `listed` resolves after the first list (or
 * when `signal` aborts first), `done` when `signal` aborts.
 */
import type { KubeObject } from '../../machinery/object.js';
import type { ObjectStore } from '../../storage/interfaces.js';
import { StorageError } from '../../storage/errors.js';
import type { Logger } from '../../util/log.js';

export interface PrefixFollower {
  readonly listed: Promise<void>;
  readonly done: Promise<void>;
}

export function followPrefix(o: {
  readonly storage: ObjectStore;
  readonly prefix: string;
  readonly signal: AbortSignal;
  readonly log: Logger;
  /** Names what is followed in error messages, e.g. `rbac: following roles`. */
  readonly what: string;
  /** A (re)list begins: forget what was held. */
  readonly reset: () => void;
  readonly apply: (object: KubeObject, deleted: boolean) => void;
}): PrefixFollower {
  let markListed!: () => void;
  const listed = new Promise<void>((resolve) => (markListed = resolve));
  const done = (async () => {
    while (!o.signal.aborted) {
      try {
        const list = await o.storage.list({ prefix: o.prefix });
        o.reset();
        for (const item of list.items) o.apply(item, false);
        markListed();
        for await (const ev of o.storage.watch({
          key: o.prefix,
          recursive: true,
          afterRevision: list.revision,
          signal: o.signal,
        })) {
          o.apply(ev.object, ev.type === 'DELETED');
        }
      } catch (err) {
        if (o.signal.aborted) break;
        // Compacted under the watch (a snapshot restore): list again at once.
        if (err instanceof StorageError && err.code === 'Expired') continue;
        o.log.error(`${o.what}: ${err instanceof Error ? err.message : String(err)}`);
        await new Promise((r) => setTimeout(r, 200).unref());
      }
    }
    markListed();
  })();
  return { listed, done };
}
