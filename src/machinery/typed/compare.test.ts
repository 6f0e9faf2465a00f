import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtinSchemas } from '../../apis/schema/builtin.js';
import { TypeModel } from './atom.js';
import { compare, isSame } from './compare.js';
import { TypedErrors } from './value.js';

const model = new TypeModel(builtinSchemas());
const pod = model.definition('io.k8s.api.core.v1.Pod')!;

const running = (): Record<string, unknown> => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', labels: { a: 'b' } },
  spec: {
    containers: [
      { name: 'c', image: 'i', ports: [{ containerPort: 80, protocol: 'TCP' }] },
      { name: 'd', image: 'j' },
    ],
  },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
});

test('compare: equal objects (built apart) are the same', () => {
  assert.equal(isSame(compare(running(), running(), pod)), true);
});

test('compare: a removed map reports itself and its fields; an emptied parent map is not modified', () => {
  const before = running();
  const after = { ...running(), metadata: { name: 'p' } };
  const c = compare(before, after, pod);
  assert.equal(c.removed.toString(), '.metadata.labels\n.metadata.labels.a');
  assert.equal(c.added.empty && c.modified.empty, true);
});

test('compare: list-map items matched by key whatever their order; a new item reports its fields', () => {
  const before = running();
  const after = running();
  const spec = after['spec'] as { containers: Record<string, unknown>[] };
  spec.containers.reverse();
  spec.containers.push({ name: 'e', image: 'k' });
  (spec.containers[1] as { image: string }).image = 'i2';
  const c = compare(before, after, pod);
  assert.equal(c.modified.toString(), '.spec.containers[name="c"].image');
  assert.equal(
    c.added.toString(),
    '.spec.containers[name="e"]\n.spec.containers[name="e"].image\n.spec.containers[name="e"].name',
  );
  assert.equal(c.removed.empty, true);
});

test('compare: a changed scalar is modified, nothing else', () => {
  const before = running();
  const after = running();
  (after['status'] as Record<string, unknown>)['phase'] = 'Succeeded';
  const c = compare(before, after, pod);
  assert.equal(c.modified.toString(), '.status.phase');
});

test('compare: deduced values of different kinds are walked as each kind', () => {
  const c = compare({ a: 1 }, { a: { b: 1 } }, model.deduced);
  assert.equal(c.modified.toString(), '.a');
  assert.equal(c.added.toString(), '.a.b');
  assert.equal(c.removed.empty, true);
});

test('compare: fields outside the schema and duplicate list keys fail, on either side and where nothing changed', () => {
  const bogus = { ...running(), bogus: 1 };
  assert.throws(
    () => compare(bogus, bogus, pod),
    (e: unknown) => {
      assert.ok(e instanceof TypedErrors);
      assert.match(e.message, /^\.bogus: field not declared in schema$/);
      return true;
    },
  );
  const dup = running();
  (dup['spec'] as { containers: unknown[] }).containers.push({ name: 'c', image: 'x' });
  assert.throws(() => compare(running(), dup, pod), /duplicate entries for key \[name="c"\]/);
  assert.throws(() => compare(dup, dup, pod), TypedErrors);
});
