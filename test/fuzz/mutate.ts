/**
 * Mutation of valid objects at a random field depth: a value replaced by one of another type or
 * an extreme one, a field removed, an unknown field added, a list item repeated, metadata's
 * system fields set. The result is JSON again; text-level damage is bodies.ts's.
 */
import type { Prng } from './prng.js';
import type { Json, JsonMap } from './targets.js';
import { randomString, randomValue } from './values.js';

type Path = readonly (string | number)[];

function isMap(v: Json | undefined): v is JsonMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Every path into `v` (the root included). */
function paths(v: Json, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix);
  if (Array.isArray(v)) v.forEach((item, i) => paths(item, [...prefix, i], out));
  else if (isMap(v)) for (const [k, item] of Object.entries(v)) paths(item, [...prefix, k], out);
  return out;
}

function clone<T extends Json>(v: T): T {
  return structuredClone(v);
}

function parentOf(root: Json, path: Path): { parent: Json; key: string | number } | undefined {
  if (path.length === 0) return undefined;
  let cur: Json | undefined = root;
  for (const k of path.slice(0, -1)) {
    if (Array.isArray(cur) && typeof k === 'number') cur = cur[k];
    else if (isMap(cur) && typeof k === 'string') cur = cur[k];
    else return undefined;
  }
  const key = path[path.length - 1];
  return cur === undefined || key === undefined ? undefined : { parent: cur, key };
}

function setAt(root: Json, path: Path, value: Json): void {
  const at = parentOf(root, path);
  if (at === undefined) return;
  if (Array.isArray(at.parent) && typeof at.key === 'number') at.parent[at.key] = value;
  else if (isMap(at.parent) && typeof at.key === 'string') at.parent[at.key] = value;
}

function removeAt(root: Json, path: Path): void {
  const at = parentOf(root, path);
  if (at === undefined) return;
  if (Array.isArray(at.parent) && typeof at.key === 'number') at.parent.splice(at.key, 1);
  else if (isMap(at.parent) && typeof at.key === 'string') delete at.parent[at.key];
}

function valueAt(root: Json, path: Path): Json | undefined {
  const at = parentOf(root, path);
  if (at === undefined) return root;
  if (Array.isArray(at.parent) && typeof at.key === 'number') return at.parent[at.key];
  if (isMap(at.parent) && typeof at.key === 'string') return at.parent[at.key];
  return undefined;
}

/** System and bookkeeping metadata fields, with values clients should not send or get wrong. */
const metadataMutations: readonly [string, () => Json][] = [
  ['resourceVersion', () => '1'],
  ['resourceVersion', () => 'abc'],
  ['uid', () => 'not-a-uid'],
  ['generation', () => -5],
  ['creationTimestamp', () => 'yesterday'],
  ['deletionTimestamp', () => '2024-01-01T00:00:00Z'],
  ['deletionGracePeriodSeconds', () => -1],
  ['finalizers', () => ['a/b', 'kubernetes', '']],
  ['ownerReferences', () => [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u', controller: true }]],
  [
    'ownerReferences',
    () => [
      { apiVersion: '', kind: '', name: '', uid: '' },
      { apiVersion: '', kind: '', name: '', uid: '' },
    ],
  ],
  [
    'managedFields',
    () => [{ manager: 'm', operation: 'Bogus', fieldsType: 'FieldsV1', fieldsV1: { 'f:x': 5 } }],
  ],
  ['managedFields', () => [{ manager: 'm', operation: 'Apply', fieldsType: 'FieldsV2', fieldsV1: {} }]],
  ['managedFields', () => 'x'],
  ['labels', () => ({ 'a/b/c': 'x', '': 'y', ['k'.repeat(64)]: 'v'.repeat(64) })],
  ['annotations', () => ({ a: 'x'.repeat(270_000) })],
  ['generateName', () => 'fz-gen-'],
  ['namespace', () => 'other'],
  ['namespace', () => 'kube-system'],
  ['selfLink', () => '/api/v1/x'],
];

export type Mutation = (rng: Prng, root: JsonMap) => void;

const mutations: readonly (readonly [number, Mutation])[] = [
  [
    6,
    (rng, root) => {
      const all = paths(root).filter((p) => p.length > 0);
      if (all.length > 0) setAt(root, rng.pick(all), randomValue(rng));
    },
  ],
  [
    3,
    (rng, root) => {
      const leaves = paths(root).filter((p) => p.length > 0 && typeof valueAt(root, p) === 'string');
      if (leaves.length > 0) setAt(root, rng.pick(leaves), randomString(rng));
    },
  ],
  [
    2,
    (rng, root) => {
      const all = paths(root).filter((p) => p.length > 0);
      if (all.length > 0) removeAt(root, rng.pick(all));
    },
  ],
  [
    2,
    (rng, root) => {
      const maps = paths(root).filter((p) => isMap(valueAt(root, p)));
      const target = valueAt(root, rng.pick(maps));
      if (isMap(target)) target[rng.chance(0.5) ? randomString(rng) : 'unknownField'] = randomValue(rng);
    },
  ],
  [
    2,
    (rng, root) => {
      const lists = paths(root).filter((p) => Array.isArray(valueAt(root, p)));
      const target = lists.length > 0 ? valueAt(root, rng.pick(lists)) : undefined;
      if (Array.isArray(target) && target.length > 0) {
        const item = clone(rng.pick(target));
        const n = rng.chance(0.1) ? rng.int(100, 5000) : rng.int(1, 3);
        for (let i = 0; i < n; i++) target.push(clone(item));
      }
    },
  ],
  [
    3,
    (rng, root) => {
      const meta = isMap(root['metadata']) ? root['metadata'] : (root['metadata'] = {});
      const [field, make] = rng.pick(metadataMutations);
      meta[field] = make();
    },
  ],
  [
    1,
    (rng, root) => {
      const field = rng.pick(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
      root[field] = randomValue(rng, 1);
    },
  ],
];

/** `valid` with `count` random mutations (a deep copy; `valid` is untouched). */
export function mutate(rng: Prng, valid: JsonMap, count = rng.int(1, 3)): JsonMap {
  const root = clone(valid);
  for (let i = 0; i < count; i++) rng.weighted(mutations)(rng, root);
  return root;
}
