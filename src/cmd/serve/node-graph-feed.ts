/**
 * Keeps the Node authorizer's graph (auth/node/node-graph.ts) current from storage: pods,
 * persistent volume claims and VolumeAttachments are listed, then watched from the list's
 * revision (relisted after a broken watch), as upstream's graph populator follows informers.
 */
import type { NodeGraph } from '../../auth/node/node-graph.js';
import type { KubeObject } from '../../machinery/object.js';
import { resourcePrefix } from '../../registry/generic/keys.js';
import type { ObjectStore } from '../../storage/interfaces.js';
import { followPrefix } from './follow-prefix.js';
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
  const kinds: [Kind, string][] = [
    ['pods', ''],
    ['persistentvolumeclaims', ''],
    ['volumeattachments', 'storage.k8s.io'],
  ];
  const followers = kinds.map(([kind, group]) =>
    followPrefix({
      storage: o.storage,
      prefix: resourcePrefix({ group, resource: kind }),
      signal: o.signal,
      log: o.log,
      what: `node authorizer: following ${kind}`,
      reset: () => o.graph.clear(kind),
      apply: (obj, deleted) => apply(o.graph, kind, obj, deleted),
    }),
  );
  return {
    ready: Promise.all(followers.map((f) => f.listed)).then(() => undefined),
    done: Promise.all(followers.map((f) => f.done)).then(() => undefined),
  };
}
