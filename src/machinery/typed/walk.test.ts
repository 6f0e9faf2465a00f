import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtinSchemas } from '../../apis/schema/builtin.js';
import { FieldSet } from '../fieldpath/set.js';
import { TypeModel } from './atom.js';
import { compare } from './compare.js';
import { ensureNamedFieldsAreMembers, merge, removeItems, toFieldSet, validate } from './walk.js';

const model = new TypeModel(builtinSchemas());
const deployment = model.definition('io.k8s.api.apps.v1.Deployment')!;
const pod = model.definition('io.k8s.api.core.v1.Pod')!;
const fields = (s: FieldSet): string => JSON.stringify(s.toFieldsV1());

const dep = (containers: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'd', labels: { app: 'x' } },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: 'x' } },
    template: { metadata: { labels: { app: 'x' } }, spec: { containers } },
    ...extra,
  },
});

test('#9 ToFieldSet: list-map items by key (defaulted keys too), atomic selector, map entries are members', () => {
  const set = toFieldSet(
    dep([{ name: 'web', image: 'nginx', ports: [{ containerPort: 80 }] }], { strategy: {} }),
    deployment,
  );
  assert.equal(
    fields(set),
    '{"f:apiVersion":{},"f:kind":{},"f:metadata":{"f:labels":{"f:app":{}},"f:name":{}},' +
      '"f:spec":{"f:replicas":{},"f:selector":{},"f:strategy":{},"f:template":{"f:metadata":{"f:labels":{"f:app":{}}},' +
      '"f:spec":{"f:containers":{"k:{\\"name\\":\\"web\\"}":{".":{},"f:image":{},"f:name":{},' +
      '"f:ports":{"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}}}}}}}}',
  );
  assert.throws(
    () => validate(dep([{ name: 'a' }, { name: 'a' }]), deployment),
    /^Error: \.spec\.template\.spec\.containers: duplicate entries for key \[name="a"\]$/,
  );
  // Container.name defaults to "" in the schema (as in upstream's OpenAPI): a defaulted key.
  assert.ok(
    JSON.stringify(toFieldSet(dep([{ image: 'x' }]), deployment).toFieldsV1()).includes(
      'k:{\\"name\\":\\"\\"}',
    ),
  );
  assert.throws(
    () => toFieldSet({ spec: { nope: 1 } }, deployment),
    /\.spec\.nope: field not declared in schema/,
  );
});

test('#9 ToFieldSet: an empty granular list claims nothing, not even its parents', () => {
  assert.equal(JSON.stringify(toFieldSet({ spec: { containers: [] } }, pod).toFieldsV1()), '{}');
  assert.equal(
    JSON.stringify(toFieldSet({ spec: { containers: [], hostname: 'h' } }, pod).toFieldsV1()),
    '{"f:spec":{"f:hostname":{}}}',
  );
});

test('#9 AM-14 PodSpec.resourceClaims is a list-map keyed by name', () => {
  const set = toFieldSet(
    { spec: { resourceClaims: [{ name: 'gpu', source: { resourceClaimName: 'c' } }] } },
    pod,
  );
  assert.equal(
    set.toString(),
    '.spec.resourceClaims[name="gpu"]\n.spec.resourceClaims[name="gpu"].name\n.spec.resourceClaims[name="gpu"].source.resourceClaimName',
  );
  const merged = merge(
    { spec: { resourceClaims: [{ name: 'a' }] } },
    { spec: { resourceClaims: [{ name: 'b' }] } },
    pod,
  );
  assert.deepEqual(merged, { spec: { resourceClaims: [{ name: 'a' }, { name: 'b' }] } });
});

test('#9 Merge: rhs wins at leaves, list-map items merged by key in the applied order, atomic lists replaced', () => {
  const live = {
    metadata: { name: 'p', finalizers: ['a', 'b'] },
    spec: {
      containers: [
        { name: 'a', image: 'a:1', args: ['x', 'y'] },
        { name: 'b', image: 'b:1' },
      ],
    },
  };
  const config = {
    metadata: { finalizers: ['c', 'a'] },
    spec: {
      containers: [
        { name: 'b', image: 'b:2' },
        { name: 'c', image: 'c:1' },
        { name: 'a', args: ['z'] },
      ],
    },
  };
  assert.deepEqual(merge(live, config, pod), {
    metadata: { name: 'p', finalizers: ['c', 'a', 'b'] },
    spec: {
      containers: [
        { name: 'b', image: 'b:2' },
        { name: 'c', image: 'c:1' },
        { name: 'a', image: 'a:1', args: ['z'] },
      ],
    },
  });
});

test('#9 Compare: added, modified and removed leaves; items added or removed as wholes', () => {
  const before = {
    spec: {
      containers: [
        { name: 'a', image: 'a:1' },
        { name: 'b', image: 'b' },
      ],
    },
  };
  const after = {
    metadata: { labels: { l: 'v' } },
    spec: {
      containers: [
        { name: 'a', image: 'a:2' },
        { name: 'c', image: 'c' },
      ],
    },
  };
  const c = compare(before, after, pod);
  assert.equal(c.modified.toString(), '.spec.containers[name="a"].image');
  assert.equal(
    c.added.toString(),
    '.metadata\n.metadata.labels\n.metadata.labels.l\n.spec.containers[name="c"]\n.spec.containers[name="c"].image\n.spec.containers[name="c"].name',
  );
  assert.equal(
    c.removed.toString(),
    '.spec.containers[name="b"]\n.spec.containers[name="b"].image\n.spec.containers[name="b"].name',
  );
});

test('#9 RemoveItems: fields and items go, emptied maps become null; named fields become members', () => {
  const value = {
    metadata: { labels: { a: '1', b: '2' } },
    spec: { containers: [{ name: 'a', image: 'x' }, { name: 'b' }] },
  };
  const remove = FieldSet.fromFieldsV1({
    'f:metadata': { 'f:labels': { 'f:a': {}, 'f:b': {} } },
    'f:spec': { 'f:containers': { 'k:{"name":"b"}': {}, 'k:{"name":"a"}': { 'f:image': {} } } },
  });
  assert.deepEqual(removeItems(value, remove, pod), {
    metadata: { labels: null },
    spec: { containers: [{ name: 'a' }] },
  });
  const ensured = ensureNamedFieldsAreMembers(
    FieldSet.fromFieldsV1({ 'f:metadata': { 'f:labels': { 'f:a': {} } } }),
    pod,
  );
  assert.equal(ensured.toString(), '.metadata\n.metadata.labels\n.metadata.labels.a');
});
