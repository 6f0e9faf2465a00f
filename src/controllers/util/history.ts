/**
 * ControllerRevision helpers of upstream v1.27 pkg/controller/history and the patch the
 * StatefulSet and DaemonSet controllers store in a revision: `{"spec":{"template":{...,"$patch":
 * "replace"}}}` written as Go's json.Marshal of a map writes it (keys sorted at every level), the
 * name `<owner>-<hash>` with the hash FNV-1 (32 bits, not 1a) over those bytes plus the decimal
 * collision count, encoded as rand.SafeEncodeString. The template bytes are the API's JSON as we
 * read it, so hashes can differ from upstream's where the Go encoder writes empty fields.
 */
import { isJsonObject } from '../../util/json.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { safeEncodeString } from './hash.js';
import { labels, meta, name, num, obj, str } from './objects.js';

/** The label carrying a pod's (and a revision's) revision hash. */
export const controllerRevisionHashLabel = 'controller-revision-hash';

/** FNV-1, 32 bits (Go's fnv.New32), continuing from `h`. */
export function fnv32(bytes: Uint8Array, h = 0x811c9dc5): number {
  let x = h;
  for (const b of bytes) {
    x = Math.imul(x, 0x01000193) >>> 0;
    x ^= b;
  }
  return x >>> 0;
}

/** JSON with object keys sorted at every level (Go's json.Marshal of map[string]interface{}). */
export function sortedJson(v: JsonValue): string {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`;
  if (isJsonObject(v)) {
    const keys = Object.keys(v)
      .filter((k) => v[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedJson(v[k] as JsonValue)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** A copy of `v` whose objects have their keys in sorted order (so JSON.stringify sorts them). */
export function sortedKeys(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(sortedKeys);
  if (!isJsonObject(v)) return v;
  const out: JsonObject = {};
  for (const k of Object.keys(v).sort()) if (v[k] !== undefined) out[k] = sortedKeys(v[k]);
  return out;
}

/**
 * The revision data of a workload: its pod template, to be replaced wholesale when applied. Its
 * keys are sorted at every level, as Go's json.Marshal of a map writes them: clients compare the
 * revision's raw bytes with their own marshalling of the owner (daemon.Match in the DaemonSet
 * conformance specs), so the stored bytes must be those.
 */
export function templatePatch(owner: JsonObject): JsonObject {
  const template = obj(obj(owner['spec'])['template']);
  return sortedKeys({ spec: { template: { ...template, $patch: 'replace' } } }) as JsonObject;
}

/** history.HashControllerRevision over the revision's data and an optional collision count. */
export function hashRevisionData(data: JsonValue, collisionCount?: number): string {
  let h = fnv32(Buffer.from(sortedJson(data), 'utf8'));
  if (collisionCount !== undefined) h = fnv32(Buffer.from(String(collisionCount), 'utf8'), h);
  return safeEncodeString(String(h));
}

/** history.ControllerRevisionName: `<prefix>-<hash>`, the prefix cut to 223 characters. */
export function controllerRevisionName(prefix: string, hash: string): string {
  return `${prefix.length > 223 ? prefix.slice(0, 223) : prefix}-${hash}`;
}

export function revisionNumber(rev: JsonObject): number {
  return num(rev['revision']);
}

/** The pod template stored in a revision (what ApplyRevision puts into the owner's spec). */
export function revisionTemplate(rev: JsonObject): JsonObject {
  const t = { ...obj(obj(obj(rev['data'])['spec'])['template']) };
  delete t['$patch'];
  return t;
}

/** history.EqualRevision: same data (the hash label is compared first when both have it). */
export function equalRevision(a: JsonObject, b: JsonObject): boolean {
  const ha = labels(a)[controllerRevisionHashLabel];
  const hb = labels(b)[controllerRevisionHashLabel];
  if (ha !== undefined && hb !== undefined && ha !== hb) return false;
  return sortedJson(a['data'] ?? null) === sortedJson(b['data'] ?? null);
}

/** Revisions sorted by revision number, then creation time, then name (history.SortControllerRevisions). */
export function sortRevisions(revs: JsonObject[]): JsonObject[] {
  return [...revs].sort((a, b) => {
    const d = revisionNumber(a) - revisionNumber(b);
    if (d !== 0) return d;
    const ta = str(meta(a)['creationTimestamp']);
    const tb = str(meta(b)['creationTimestamp']);
    if (ta !== tb) return ta < tb ? -1 : 1;
    return name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0;
  });
}

/** history.NewControllerRevision (without the hash suffix chosen yet). */
export function newControllerRevision(options: {
  readonly owner: JsonObject;
  readonly ownerApiVersion: string;
  readonly ownerKind: string;
  readonly templateLabels: Readonly<Record<string, string>>;
  readonly data: JsonObject;
  readonly revision: number;
  readonly collisionCount: number;
}): JsonObject {
  const o = options;
  const hash = hashRevisionData(o.data, o.collisionCount);
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: controllerRevisionName(name(o.owner), hash),
      namespace: str(meta(o.owner)['namespace']),
      labels: { ...o.templateLabels, [controllerRevisionHashLabel]: hash },
      ownerReferences: [
        {
          apiVersion: o.ownerApiVersion,
          kind: o.ownerKind,
          name: name(o.owner),
          uid: str(meta(o.owner)['uid']),
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    data: o.data,
    revision: o.revision,
  };
}
