/**
 * Keeping a workload's ControllerRevisions as upstream v1.27's StatefulSet and DaemonSet
 * controllers do: the revision for the current template is reused when the newest revision holds
 * it, renumbered to the next revision when an older one does, or created (`<name>-<hash>`,
 * the collision count raised while a different revision holds the name); history beyond
 * revisionHistoryLimit that no pod uses is deleted, oldest first.
 */
import { ApiError } from '../../client/api-error.js';
import type { RestClient } from '../../client/rest-client.js';
import type { JsonObject } from '../../util/json.js';
import {
  equalRevision,
  newControllerRevision,
  revisionNumber,
  sortRevisions,
  templatePatch,
} from './history.js';
import { name, namespace, obj, stringMap } from './objects.js';

export const revisionsOf = (ns: string): string =>
  `/apis/apps/v1/namespaces/${encodeURIComponent(ns)}/controllerrevisions`;

export interface SyncRevisionsOptions {
  readonly client: RestClient;
  readonly owner: JsonObject;
  readonly ownerApiVersion: string;
  readonly ownerKind: string;
  /** The owner's revisions (controller reference to it), any order. */
  readonly revisions: readonly JsonObject[];
  readonly collisionCount: number;
  readonly signal: AbortSignal;
}

export interface SyncedRevisions {
  /** The revision of the owner's current template. */
  readonly update: JsonObject;
  /** Every revision, sorted, including `update`. */
  readonly all: JsonObject[];
  readonly collisionCount: number;
}

/** The revision for the owner's template now (getStatefulSetRevisions / constructHistory). */
export async function syncRevisions(o: SyncRevisionsOptions): Promise<SyncedRevisions> {
  const sorted = sortRevisions([...o.revisions]);
  const next = sorted.length === 0 ? 1 : revisionNumber(sorted[sorted.length - 1]!) + 1;
  let collisionCount = o.collisionCount;
  const templateLabels = stringMap(obj(obj(obj(o.owner['spec'])['template'])['metadata'])['labels']);
  const build = (count: number): JsonObject =>
    newControllerRevision({
      owner: o.owner,
      ownerApiVersion: o.ownerApiVersion,
      ownerKind: o.ownerKind,
      templateLabels,
      data: templatePatch(o.owner),
      revision: next,
      collisionCount: count,
    });
  const wanted = build(collisionCount);
  const equal = sorted.filter((r) => equalRevision(r, wanted));
  const last = sorted[sorted.length - 1];
  const lastEqual = equal[equal.length - 1];
  const path = revisionsOf(namespace(o.owner));
  let update: JsonObject;
  if (lastEqual !== undefined && last !== undefined && name(last) === name(lastEqual)) {
    update = last;
  } else if (lastEqual !== undefined) {
    update = await o.client.request('PATCH', `${path}/${encodeURIComponent(name(lastEqual))}`, {
      body: { revision: next },
      contentType: 'application/merge-patch+json',
      signal: o.signal,
    });
  } else {
    for (;;) {
      const rev = build(collisionCount);
      try {
        update = await o.client.request('POST', path, { body: rev, signal: o.signal });
        break;
      } catch (err) {
        if (!(err instanceof ApiError) || err.code !== 409) throw err;
        const existing = await o.client.request('GET', `${path}/${encodeURIComponent(name(rev))}`, {
          signal: o.signal,
        });
        if (equalRevision(existing, rev)) {
          update = existing;
          break;
        }
        collisionCount++;
      }
    }
  }
  const all = sortRevisions([...sorted.filter((r) => name(r) !== name(update)), update]);
  return { update, all, collisionCount };
}

/** Deletes the oldest revisions beyond `limit` that are not in `live` (names). */
export async function truncateHistory(options: {
  readonly client: RestClient;
  readonly revisions: readonly JsonObject[];
  readonly live: ReadonlySet<string>;
  readonly limit: number;
  readonly signal: AbortSignal;
}): Promise<void> {
  const history = sortRevisions(options.revisions.filter((r) => !options.live.has(name(r))));
  const excess = history.length - Math.max(0, options.limit);
  for (const r of history.slice(0, Math.max(0, excess))) {
    try {
      await options.client.request('DELETE', `${revisionsOf(namespace(r))}/${encodeURIComponent(name(r))}`, {
        signal: options.signal,
      });
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 404) throw err;
    }
  }
}
