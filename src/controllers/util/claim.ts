/**
 * Upstream v1.27 BaseControllerRefManager.ClaimObject (pkg/controller/controller_ref_manager.go)
 * for any kind: of the candidates (objects the owner controls and orphans), an owned object that
 * matches is kept, one that no longer matches is released (a strategic merge patch deleting the
 * owner's reference); a matching orphan that is not being deleted is adopted (a patch adding the
 * controller reference) once `canAdopt` (RecheckDeletionTimestamp) has said the owner is still
 * there and not being deleted. Nothing is adopted or released while the owner is being deleted.
 * Patches carry the object's uid, so a recreated object is not touched. Every candidate is tried;
 * the first error is thrown after the others were handled.
 */
import { ApiError } from '../../client/api-error.js';
import type { RestClient } from '../../client/rest-client.js';
import type { JsonObject } from '../../util/json.js';
import { asError, controllerOf, deleting, name, namespace, newControllerRef, uid } from './objects.js';

export interface ClaimOptions {
  readonly client: RestClient;
  readonly owner: JsonObject;
  readonly ownerApiVersion: string;
  readonly ownerKind: string;
  /** Whether a candidate matches the owner's selector. */
  readonly matches: (o: JsonObject) => boolean;
  /** The path of a candidate (`.../namespaces/<ns>/<resource>/<name>`), for its PATCH. */
  readonly objectPath: (o: JsonObject) => string;
  /** Rejects when the owner may not adopt (gone, replaced or being deleted); called at most once. */
  readonly canAdopt: () => Promise<void>;
  readonly signal: AbortSignal;
}

function isCode(err: unknown, ...codes: number[]): boolean {
  return err instanceof ApiError && codes.includes(err.code);
}

/** ClaimObjects: the candidates the owner keeps, adopted ones as the server returned them. */
export async function claimObjects(
  candidates: readonly JsonObject[],
  o: ClaimOptions,
): Promise<JsonObject[]> {
  const claimed: JsonObject[] = [];
  const errors: unknown[] = [];
  let adoptable: Promise<void> | undefined;
  const ownerDeleting = deleting(o.owner);
  const patch = (target: JsonObject, metadata: JsonObject): Promise<JsonObject> =>
    o.client.request('PATCH', o.objectPath(target), {
      body: { metadata: { ...metadata, uid: uid(target) } },
      contentType: 'application/strategic-merge-patch+json',
      signal: o.signal,
    });
  for (const candidate of candidates) {
    const ref = controllerOf(candidate);
    const matches = o.matches(candidate);
    try {
      if (ref !== undefined) {
        if (ref.uid !== uid(o.owner)) continue;
        if (matches) {
          claimed.push(candidate);
          continue;
        }
        if (ownerDeleting) continue;
        try {
          await patch(candidate, { ownerReferences: [{ $patch: 'delete', uid: uid(o.owner) }] });
        } catch (err) {
          // Gone, or no longer carrying the reference (invalid): nothing to release.
          if (!isCode(err, 404, 422)) throw err;
        }
        continue;
      }
      if (ownerDeleting || !matches || deleting(candidate)) continue;
      if (namespace(o.owner) !== '' && namespace(o.owner) !== namespace(candidate)) continue;
      adoptable ??= o.canAdopt();
      await adoptable;
      try {
        const adopted = await patch(candidate, {
          ownerReferences: [{ ...newControllerRef(o.owner, o.ownerApiVersion, o.ownerKind) }],
        });
        claimed.push(adopted);
      } catch (err) {
        if (!isCode(err, 404)) throw err;
      }
    } catch (err) {
      errors.push(err);
    }
  }
  if (errors.length > 0) throw asError(errors[0]);
  return claimed;
}

/**
 * RecheckDeletionTimestamp over a fresh GET of the owner: rejects when it is gone, has another uid
 * or is being deleted.
 */
export async function recheckOwner(
  client: RestClient,
  path: string,
  owner: JsonObject,
  kind: string,
  signal: AbortSignal,
): Promise<void> {
  const fresh = await client.request('GET', path, { signal });
  const what = `${kind} ${namespace(owner)}/${name(owner)}`;
  if (uid(fresh) !== uid(owner)) {
    throw new Error(`original ${what} is gone: got uid ${uid(fresh)}, wanted ${uid(owner)}`);
  }
  if (deleting(fresh)) throw new Error(`${what} has just been deleted`);
}
