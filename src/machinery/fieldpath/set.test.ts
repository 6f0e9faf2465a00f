import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  fieldElement as f,
  indexElement as i,
  keyElement,
  valueElement as v,
  pathString,
} from './path-element.js';
import { deserializeElement, serializeElement } from './path-element.js';
import { FieldSet } from './set.js';
import { compareStrings, goJson } from './value.js';

const k = (fields: Record<string, string | number>) =>
  keyElement(Object.entries(fields).map(([name, value]) => ({ name, value })));

test('#9 FieldsV1: members, "." for a member with children, elements in upstream order', () => {
  const s = FieldSet.of(
    [f('metadata'), f('labels'), f('app')],
    [f('metadata'), f('labels')],
    [f('spec'), f('containers'), k({ name: 'web' })],
    [f('spec'), f('containers'), k({ name: 'web' }), f('image')],
    [f('spec'), f('containers'), k({ name: 'web' }), f('ports'), k({ protocol: 'TCP', containerPort: 80 })],
    [f('spec'), f('finalizers'), v('b')],
    [f('spec'), f('finalizers'), v('a')],
    [f('spec'), f('list'), i(1)],
    [f('spec'), f('replicas')],
  );
  const json = JSON.stringify(s.toFieldsV1());
  assert.equal(
    json,
    '{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"web\\"}":{".":{},"f:image":{},"f:ports":{"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{}}}},"f:finalizers":{"v:\\"a\\"":{},"v:\\"b\\"":{}},"f:list":{"i:1":{}},"f:replicas":{}}}',
  );
  const back = FieldSet.fromFieldsV1(JSON.parse(json));
  assert.ok(back.equals(s));
  assert.equal(back.size, s.size);
  assert.equal(
    [...s.paths()].map(pathString).join(' '),
    '.metadata.labels .metadata.labels.app .spec.containers[name="web"] .spec.containers[name="web"].image ' +
      '.spec.containers[name="web"].ports[containerPort=80,protocol="TCP"] .spec.finalizers[="a"] ' +
      '.spec.finalizers[="b"] .spec.list[1] .spec.replicas',
  );
});

test('#9 set algebra as structured-merge-diff: union, intersection, difference, recursive difference, leaves', () => {
  const a = FieldSet.of([f('a')], [f('a'), f('x')], [f('b'), f('y')], [f('c')]);
  const b = FieldSet.of([f('a'), f('x')], [f('b'), f('z')], [f('d')]);
  assert.equal(a.union(b).toString(), '.a\n.a.x\n.b.y\n.b.z\n.c\n.d');
  assert.equal(a.intersection(b).toString(), '.a.x');
  assert.equal(a.difference(b).toString(), '.a\n.b.y\n.c');
  // A member of the other set takes everything under it.
  assert.equal(a.recursiveDifference(FieldSet.of([f('a')], [f('b')])).toString(), '.c');
  assert.equal(a.difference(FieldSet.of([f('a')], [f('b')])).toString(), '.a.x\n.b.y\n.c');
  assert.equal(a.leaves().toString(), '.a.x\n.b.y\n.c');
  assert.ok(a.has([f('a'), f('x')]));
  assert.ok(!a.has([f('b')]));
  assert.ok(new FieldSet().empty);
  assert.ok(a.difference(a).empty);
  assert.equal(
    FieldSet.of([f('x')])
      .prefixedWith(f('p'))
      .toString(),
    '.p.x',
  );
});

test('#9 path elements: FieldsV1 keys both ways; unknown kinds skipped; Go JSON and string order', () => {
  for (const key of ['f:a.b', 'k:{"name":"x","port":8080}', 'v:"s"', 'v:3', 'v:true', 'i:12', 'v:null']) {
    assert.equal(serializeElement(deserializeElement(key)), key);
  }
  assert.equal(serializeElement(k({ b: 'x<y', a: 1 })), 'k:{"a":1,"b":"x\\u003cy"}');
  assert.throws(() => deserializeElement('x'), /key must be 2 characters long/);
  assert.throws(() => deserializeElement('fa'), /missing colon: fa/);
  const s = FieldSet.fromFieldsV1({ 'f:a': {}, 'z:ignored': {}, 'f:b': { 'z:only-unknown': {} } });
  assert.equal(s.toString(), '.a\n.b');
  assert.equal(goJson({ b: [1, 2.5], a: null }), '{"a":null,"b":[1,2.5]}');
  assert.ok(compareStrings('\uffff', '\u{10000}') < 0, 'code point order, not UTF-16 units');
  // Values order: numbers, strings, booleans, lists, maps, null.
  const ordered = FieldSet.of([v(null)], [v(true)], [v('a')], [v(2)], [v([1])], [v({ a: 1 })]);
  assert.deepEqual(Object.keys(ordered.toFieldsV1()), [
    'v:2',
    'v:"a"',
    'v:true',
    'v:[1]',
    'v:{"a":1}',
    'v:null',
  ]);
});
