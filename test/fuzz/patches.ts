/**
 * Patch bodies of every patch type: JSON patch operations on real and made-up paths, merge and
 * strategic merge patches from mutated objects with the strategic directives, and apply patches
 * (YAML or JSON) with or without a field manager and force.
 */
import { stringify } from 'yaml';
import { text } from './case.js';
import type { Body } from './bodies.js';
import { damagedJson } from './bodies.js';
import { mutate } from './mutate.js';
import type { Prng } from './prng.js';
import type { Json, JsonMap } from './targets.js';
import { enc, randomString, randomValue } from './values.js';

export const patchTypes = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
} as const;

export interface Patch {
  readonly contentType: string;
  readonly body: Body;
  /** Query parameters the patch needs (apply's fieldManager) or gets wrong. */
  readonly query: string;
}

function pointer(rng: Prng, obj: JsonMap): string {
  const parts: string[] = [];
  let cur: Json | undefined = obj;
  while (rng.chance(0.7) && typeof cur === 'object' && cur !== null) {
    if (Array.isArray(cur)) {
      const i: number = rng.pick([0, cur.length, cur.length + 5, -1]);
      parts.push(rng.chance(0.2) ? '-' : String(i));
      cur = cur[i];
    } else {
      const keys = Object.keys(cur);
      const key = keys.length > 0 && rng.chance(0.8) ? rng.pick(keys) : randomString(rng);
      parts.push(key.replaceAll('~', '~0').replaceAll('/', '~1'));
      cur = cur[key];
    }
  }
  return rng.weighted<() => string>([
    [8, () => '/' + parts.join('/')],
    [1, () => parts.join('/')],
    [
      1,
      () =>
        rng.pick(['', '/', '~', '/~2', '//', '/metadata/~', '/spec/containers/01', '/spec/containers/-1']),
    ],
  ])();
}

function jsonPatchOp(rng: Prng, obj: JsonMap): Json {
  const op = rng.pick(['add', 'remove', 'replace', 'move', 'copy', 'test', 'bogus', '']);
  const out: JsonMap = { op, path: pointer(rng, obj) };
  if (op === 'move' || op === 'copy' || rng.chance(0.05)) out['from'] = pointer(rng, obj);
  if (op !== 'remove' || rng.chance(0.1)) out['value'] = randomValue(rng);
  if (rng.chance(0.05)) delete out['path'];
  if (rng.chance(0.05)) out['op'] = randomValue(rng, 0);
  return out;
}

const directives: readonly [string, () => Json][] = [
  ['$patch', () => 'replace'],
  ['$patch', () => 'delete'],
  ['$patch', () => 'merge'],
  ['$patch', () => 'bogus'],
  ['$retainKeys', () => ['a', 'b']],
  ['$retainKeys', () => 'x'],
  ['$setElementOrder/containers', () => [{ name: 'c' }, { name: 'd' }]],
  ['$setElementOrder/finalizers', () => ['a']],
  ['$setElementOrder/ports', () => 5],
  ['$deleteFromPrimitiveList/finalizers', () => ['a']],
  ['$deleteFromPrimitiveList/tags', () => ({})],
];

function withDirective(rng: Prng, obj: JsonMap): JsonMap {
  const targets: JsonMap[] = [obj];
  for (const v of Object.values(obj))
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) targets.push(v);
  const spec = obj['spec'];
  if (typeof spec === 'object' && spec !== null && !Array.isArray(spec)) {
    const containers = spec['containers'];
    if (Array.isArray(containers) && containers.length > 0) {
      const first = containers[0];
      if (typeof first === 'object' && first !== null && !Array.isArray(first)) targets.push(first);
    }
  }
  const [key, make] = rng.pick(directives);
  rng.pick(targets)[key] = make();
  return obj;
}

export function randomPatch(rng: Prng, valid: JsonMap): Patch {
  return rng.weighted<() => Patch>([
    [
      4,
      () => {
        const ops = Array.from({ length: rng.int(0, 5) }, () => jsonPatchOp(rng, valid));
        const body = rng.chance(0.15)
          ? damagedJson(rng, { ops })
          : {
              parts: [text(JSON.stringify(rng.chance(0.05) ? { ops } : ops))],
              expect: 'any' as const,
              what: 'json patch',
            };
        return { contentType: patchTypes.json, body, query: '' };
      },
    ],
    [
      3,
      () => {
        const obj = mutate(rng, {
          metadata: valid['metadata'] ?? {},
          spec: valid['spec'] ?? {},
          data: valid['data'] ?? null,
        });
        const body = rng.chance(0.2)
          ? damagedJson(rng, obj)
          : { parts: [text(JSON.stringify(obj))], expect: 'any' as const, what: 'merge patch' };
        return { contentType: patchTypes.merge, body, query: '' };
      },
    ],
    [
      3,
      () => {
        const obj = withDirective(rng, mutate(rng, valid, rng.int(0, 2)));
        const body = rng.chance(0.2)
          ? damagedJson(rng, obj)
          : { parts: [text(JSON.stringify(obj))], expect: 'any' as const, what: 'strategic patch' };
        return { contentType: patchTypes.strategic, body, query: '' };
      },
    ],
    [
      4,
      () => {
        const obj = mutate(rng, valid, rng.int(0, 2));
        const asYaml = rng.chance(0.6);
        const body: Body = rng.chance(0.2)
          ? damagedJson(rng, obj)
          : { parts: [text(asYaml ? stringify(obj) : JSON.stringify(obj))], expect: 'any', what: 'apply' };
        const query = [
          ...(rng.chance(0.85)
            ? [`fieldManager=${rng.pick(['fz', 'kubectl', 'other', enc(randomString(rng))])}`]
            : []),
          ...(rng.chance(0.3) ? [`force=${rng.pick(['true', 'false', 'bogus'])}`] : []),
        ].join('&');
        return { contentType: patchTypes.apply, body, query };
      },
    ],
    [
      1,
      () => ({
        contentType: rng.pick([
          'application/apply-patch+cbor',
          'application/json',
          'application/yaml',
          'application/merge-patch+json; charset=utf-16',
          'application/strategic-merge-patch+json;q=x',
        ]),
        body: { parts: [text(JSON.stringify(valid))], expect: 'any', what: 'patch of another type' },
        query: '',
      }),
    ],
  ])();
}
