import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Definition, RefSchema, Schema, SchemaRegistry } from '../../apis/schema/types.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { applyStrategicMergePatch } from './strategic-merge-patch.js';
import { PatchError } from './errors.js';

const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer' };
const ref = (name: string, extra: Omit<RefSchema, 'ref'> = {}): RefSchema => ({ ref: name, ...extra });
const obj = (properties: Record<string, Schema>): Schema => ({ type: 'object', properties });
const mergeList = (items: Schema, mergeKey?: string, patchStrategy = 'merge'): Schema => ({
  type: 'array',
  items,
  patchStrategy,
  ...(mergeKey !== undefined ? { patchMergeKey: mergeKey } : {}),
});

/** A Pod/Deployment-shaped slice of the core definitions, with their patch tags. */
const defs: Definition[] = [
  {
    name: 't.Pod',
    schema: obj({ apiVersion: str, kind: str, metadata: ref('t.ObjectMeta'), spec: ref('t.PodSpec') }),
  },
  {
    name: 't.ObjectMeta',
    schema: obj({
      name: str,
      labels: { type: 'object', additionalProperties: str },
      finalizers: mergeList(str),
      ownerReferences: mergeList(ref('t.OwnerReference'), 'uid'),
    }),
  },
  { name: 't.OwnerReference', schema: obj({ uid: str, name: str }) },
  {
    name: 't.PodSpec',
    schema: obj({
      containers: mergeList(ref('t.Container'), 'name'),
      volumes: mergeList(ref('t.Volume'), 'name', 'merge,retainKeys'),
      tolerations: { type: 'array', items: ref('t.Toleration') },
      nodeSelector: { type: 'object', additionalProperties: str },
    }),
  },
  { name: 't.Toleration', schema: obj({ key: str, value: str }) },
  {
    name: 't.Container',
    schema: obj({
      name: str,
      image: str,
      args: { type: 'array', items: str },
      env: mergeList(ref('t.EnvVar'), 'name'),
      ports: mergeList(ref('t.ContainerPort'), 'containerPort'),
    }),
  },
  { name: 't.EnvVar', schema: obj({ name: str, value: str }) },
  { name: 't.ContainerPort', schema: obj({ containerPort: int, protocol: str }) },
  {
    name: 't.Volume',
    schema: obj({ name: str, emptyDir: obj({ medium: str }), hostPath: obj({ path: str }) }),
  },
  { name: 't.Deployment', schema: obj({ metadata: ref('t.ObjectMeta'), spec: ref('t.DeploymentSpec') }) },
  {
    name: 't.DeploymentSpec',
    schema: obj({ replicas: int, strategy: ref('t.DeploymentStrategy', { patchStrategy: 'retainKeys' }) }),
  },
  {
    name: 't.DeploymentStrategy',
    schema: obj({ type: str, rollingUpdate: obj({ maxSurge: { type: 'int-or-string' } }) }),
  },
];

const byName = new Map(defs.map((d) => [d.name, d]));
const registry: SchemaRegistry = {
  get: (name) => byName.get(name),
  resolve(schema) {
    let s: Schema = schema;
    while ('ref' in s) s = byName.get(s.ref)!.schema;
    return s;
  },
  all: () => defs,
};

function pod(spec: JsonObject, metadata: JsonObject = { name: 'p' }): JsonObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec };
}

function smp(original: JsonObject, patch: JsonObject, definition = 't.Pod'): JsonObject {
  const before = JSON.stringify([original, patch]);
  const out = applyStrategicMergePatch({ original, patch, registry, definition });
  assert.equal(JSON.stringify([original, patch]), before, 'inputs must not be mutated');
  return out;
}

function spec(o: JsonObject): JsonObject {
  return o.spec as JsonObject;
}

function names(list: JsonValue | undefined): JsonValue[] {
  return (list as JsonObject[]).map((c) => c.name!);
}

function expectError(
  original: JsonObject,
  patch: JsonObject,
  kind: PatchError['kind'],
  message: string,
): void {
  assert.throws(
    () => applyStrategicMergePatch({ original, patch, registry, definition: 't.Pod' }),
    (e: unknown) => e instanceof PatchError && e.kind === kind && e.message === message,
  );
}

const base = pod({
  containers: [
    {
      name: 'a',
      image: 'a:1',
      env: [
        { name: 'X', value: '1' },
        { name: 'Y', value: '2' },
      ],
      ports: [{ containerPort: 80 }],
    },
    { name: 'b', image: 'b:1', args: ['x', 'y'] },
  ],
  volumes: [{ name: 'v1', emptyDir: {} }],
  tolerations: [{ key: 't1' }],
});

describe('applyStrategicMergePatch', () => {
  it('merges containers, env and ports by their merge keys, sharing untouched items', () => {
    const out = smp(base, {
      spec: {
        containers: [
          {
            name: 'a',
            env: [
              { name: 'Y', value: '3' },
              { name: 'Z', value: '4' },
            ],
            ports: [{ containerPort: 80, protocol: 'TCP' }],
          },
        ],
      },
    });
    const [a, b] = spec(out).containers as JsonObject[];
    assert.deepEqual(a, {
      name: 'a',
      image: 'a:1',
      // Server-only X precedes Y (live order); new Z follows the patch's Y.
      env: [
        { name: 'X', value: '1' },
        { name: 'Y', value: '3' },
        { name: 'Z', value: '4' },
      ],
      ports: [{ containerPort: 80, protocol: 'TCP' }],
    });
    assert.equal(b, (spec(base).containers as JsonObject[])[1]);
    assert.equal(spec(out).volumes, spec(base).volumes);
    assert.equal(out.metadata, base.metadata);
  });

  it('adds a new container ahead of the existing ones, like upstream', () => {
    const out = smp(base, { spec: { containers: [{ name: 'c', image: 'c:1' }] } });
    assert.deepEqual(names(spec(out).containers), ['c', 'a', 'b']);
  });

  it('replaces lists without a merge strategy and merges maps', () => {
    const out = smp(base, {
      spec: {
        tolerations: [{ key: 't2' }],
        nodeSelector: { zone: 'a' },
        containers: [{ name: 'b', args: ['z'] }],
      },
    });
    assert.deepEqual(spec(out).tolerations, [{ key: 't2' }]);
    assert.deepEqual(spec(out).nodeSelector, { zone: 'a' });
    assert.deepEqual((spec(out).containers as JsonObject[])[1], { name: 'b', image: 'b:1', args: ['z'] });
  });

  it('deletes fields with null and drops nulls from new values', () => {
    const out = smp(base, { spec: { tolerations: null, extra: { a: null, b: 1 } } });
    assert.equal('tolerations' in spec(out), false);
    assert.deepEqual(spec(out).extra, { b: 1 });
  });

  it('$patch: delete removes a container; $patch: replace replaces the list', () => {
    const del = smp(base, { spec: { containers: [{ name: 'a', $patch: 'delete' }] } });
    assert.deepEqual(names(spec(del).containers), ['b']);
    const rep = smp(base, { spec: { containers: [{ $patch: 'replace' }, { name: 'z', image: 'z:1' }] } });
    assert.deepEqual(spec(rep).containers, [{ name: 'z', image: 'z:1' }]);
  });

  it('$patch: replace and delete on maps', () => {
    const rep = smp(base, { metadata: { $patch: 'replace', name: 'q' } });
    assert.deepEqual(rep.metadata, { name: 'q' });
    const del = smp(base, { spec: { $patch: 'delete' } });
    assert.deepEqual(del.spec, {});
    expectError(
      base,
      { spec: { $patch: 'merge' } },
      'unknown',
      'unknown patch type: merge in map: map[$patch:merge]',
    );
  });

  it('$setElementOrder orders the merged list, server-only items by live order', () => {
    const original = pod({
      containers: [{ name: '1' }, { name: '3', v: 3 }, { name: '4' }, { name: '2' }, { name: '9' }],
    });
    const out = smp(original, {
      spec: { '$setElementOrder/containers': [{ name: '4' }, { name: '2' }, { name: '3' }, { name: '1' }] },
    });
    assert.deepEqual(names(spec(out).containers), ['4', '2', '3', '1', '9']);
    const added = smp(pod({ containers: [{ name: '1' }, { name: '2' }] }), {
      spec: {
        '$setElementOrder/containers': [{ name: '1' }, { name: '3' }, { name: '2' }],
        containers: [{ name: '3', image: 'x' }],
      },
    });
    assert.deepEqual(spec(added).containers, [{ name: '1' }, { name: '3', image: 'x' }, { name: '2' }]);
  });

  it('merges primitive lists as sets and $deleteFromPrimitiveList removes items', () => {
    const original = pod({}, { name: 'p', finalizers: ['a', 'b', 'c'] });
    const add = smp(original, { metadata: { finalizers: ['c', 'd'] } });
    assert.deepEqual((add.metadata as JsonObject).finalizers, ['a', 'b', 'c', 'd']);
    const del = smp(original, { metadata: { '$deleteFromPrimitiveList/finalizers': ['b', 'x'] } });
    assert.deepEqual((del.metadata as JsonObject).finalizers, ['a', 'c']);
    const none = smp(pod({}), { metadata: { '$deleteFromPrimitiveList/finalizers': ['b'] } });
    assert.deepEqual(none.metadata, { name: 'p' });
    const ordered = smp(original, {
      metadata: { '$setElementOrder/finalizers': ['c', 'a', 'b'] },
    });
    assert.deepEqual((ordered.metadata as JsonObject).finalizers, ['c', 'a', 'b']);
  });

  it('$retainKeys clears fields not listed (retainKeys strategy)', () => {
    const dep: JsonObject = {
      metadata: { name: 'd' },
      spec: { replicas: 1, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } },
    };
    const out = smp(dep, { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } }, 't.Deployment');
    assert.deepEqual(spec(out).strategy, { type: 'Recreate' });
    const vol = smp(base, {
      spec: { volumes: [{ name: 'v1', $retainKeys: ['name', 'hostPath'], hostPath: { path: '/x' } }] },
    });
    assert.deepEqual(spec(vol).volumes, [{ name: 'v1', hostPath: { path: '/x' } }]);
    expectError(
      base,
      { spec: { volumes: [{ name: 'v1', $retainKeys: ['name'], hostPath: { path: '/x' } }] } },
      'bad-request',
      'invalid patch format of retainKeys',
    );
  });

  it('unknown fields merge like JSON merge patch', () => {
    const original = pod({ containers: [] }, { name: 'p', custom: { a: 1, list: [1, 2] } });
    const out = smp(original, { metadata: { custom: { b: 2, list: [3] } } });
    assert.deepEqual((out.metadata as JsonObject).custom, { a: 1, b: 2, list: [3] });
  });

  it('reports upstream errors', () => {
    expectError(
      base,
      { spec: { containers: [{ image: 'nginx' }] } },
      'unknown',
      'map: map[image:nginx] does not contain declared merge key: name',
    );
    expectError(
      base,
      { metadata: { $deleteFromPrimitiveListfinalizers: ['a'] } },
      'bad-request',
      'invalid patch format of primitive list',
    );
    expectError(
      base,
      { spec: { containers: [{ name: 'a', $patch: 'frob' }] } },
      'unknown',
      'unknown patch type: frob in map: map[$patch:frob name:a]',
    );
    expectError(
      base,
      { spec: { containers: [{ name: 'x' }], '$setElementOrder/containers': [{ name: 'a' }] } },
      'unknown',
      "The order in patch list:\n[map[name:x]]\n doesn't match $setElementOrder list:\n[map[name:a]]\n",
    );
    expectError(
      pod({ containers: [[1]] }),
      { spec: { containers: [[2]] } },
      'unprocessable',
      'lists of lists are not supported',
    );
  });
});

describe('applyStrategicMergePatch ordering details', () => {
  it('orders like upstream when $setElementOrder meets deletions and additions (Go slice aliasing)', () => {
    const original = pod({
      containers: [{ name: 'c', env: [{ name: 'A' }, { name: 'B' }, { name: 'C', value: 'x' }] }],
    });
    const out = smp(original, {
      spec: {
        containers: [
          {
            name: 'c',
            '$setElementOrder/env': [{ name: 'B' }, { name: 'D' }],
            env: [
              { name: 'D', value: 'd' },
              { name: 'A', $patch: 'delete' },
            ],
          },
        ],
      },
    });
    assert.deepEqual(names((spec(out).containers as JsonObject[])[0]!.env), ['B', 'C', 'D']);
  });

  it('puts patched items in patch order, interleaving server-only items by live order', () => {
    const original = pod({ containers: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] });
    const out = smp(original, {
      spec: {
        containers: [
          { name: 'c', image: 'x' },
          { name: 'a', image: 'y' },
        ],
      },
    });
    // b precedes c in the live list, so it is emitted before the patch run [c, a].
    assert.deepEqual(names(spec(out).containers), ['b', 'c', 'a']);
  });
});
