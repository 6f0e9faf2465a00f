import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSchemaRegistry } from './registry.js';
import { ServerSchemaRegistry } from './server-registry.js';
import type { Definition } from './types.js';

const base = createSchemaRegistry([{ name: 'a.A', schema: { type: 'string' } }]);
const added: Definition = { name: 'x.X', schema: { type: 'object', properties: { a: { ref: 'a.A' } } } };

test('server schema registries are separate, add and remove definitions at runtime', () => {
  const one = new ServerSchemaRegistry(() => base);
  const two = new ServerSchemaRegistry(() => base);
  one.add([added]);
  assert.equal(one.get('x.X'), added);
  assert.equal(two.get('x.X'), undefined);
  assert.deepEqual(one.resolve({ ref: 'a.A' }), { type: 'string' });
  assert.deepEqual(
    [...one.all()].map((d) => d.name),
    ['a.A', 'x.X'],
  );
  assert.throws(() => one.add([{ name: 'a.A', schema: { type: 'string' } }]), /already registered/);
  one.remove(['x.X', 'a.A']);
  assert.equal(one.get('x.X'), undefined);
  assert.notEqual(one.get('a.A'), undefined);
});
