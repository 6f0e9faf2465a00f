/**
 * Keeps the Node authorizer's graph (auth/node/node-graph.ts) current from storage: pods,
 * persistent volume claims and VolumeAttachments are listed, then watched from the list's
 * revision (relisted after a broken watch), as upstream's graph populator follows informers.
 */
import type { NodeGraph } from '../../auth/node/node-graph.js';
import type { KubeObject } from '../../machinery/object.js';
import { resourcePrefix } from '../../registry/generic/keys.js';
import type { ObjectStore } from '../../storage/interfaces.js';
import type { Logger } from '../../util/log.js';

type Kind = 'pods' | 'persistentvolumeclaims' | 'volumeattachments';

function apply(graph: NodeGraph, kind: Kind, obj: KubeObject, deleted: boolean): void {
  const ns = obj.metadata.namespace ?? '';
  const name = obj.metadata.name ?? '';
  if (kind === 'pods') return deleted ? graph.deletePod(ns, name) : graph.setPod(obj);
  if (kind === 'persistentvolumeclaims') return deleted ? graph.deleteClaim(ns, name) : graph.setClaim(obj);
  return deleted ? graph.deleteAttachment(name) : graph.setAttachment(obj);
}

export function followNodeGraph(o: {
  readonly storage: ObjectStore;
  readonly graph: NodeGraph;
  readonly signal: AbortSignal;
  readonly log: Logger;
}): { readonly ready: Promise<void>; readonly done: Promise<void> } {
  const listed: Promise<void>[] = [];
  const kinds: [Kind, string][] = [
    ['pods', ''],
    ['persistentvolumeclaims', ''],
    ['volumeattachments', 'storage.k8s.io'],
  ];
  const runs = kinds.map(([kind, group]) => {
    const prefix = resourcePrefix({ group, resource: kind });
    let markListed!: () => void;
    listed.push(new Promise<void>((resolve) => (markListed = resolve)));
    return (async () => {
      while (!o.signal.aborted) {
        try {
          const list = await o.storage.list({ prefix });
          o.graph.clear(kind);
          for (const item of list.items) apply(o.graph, kind, item, false);
          markListed();
          for await (const ev of o.storage.watch({
            key: prefix,
            recursive: true,
            afterRevision: list.revision,
            signal: o.signal,
          })) {
            apply(o.graph, kind, ev.object, ev.type === 'DELETED');
          }
        } catch (err) {
          if (o.signal.aborted) break;
          o.log.error(
            `node authorizer: following ${kind}: ${err instanceof Error ? err.message : String(err)}`,
          );
          await new Promise((r) => setTimeout(r, 200).unref());
        }
      }
      markListed();
    })();
  });
  return { ready: Promise.all(listed).then(() => undefined), done: Promise.all(runs).then(() => undefined) };
}
