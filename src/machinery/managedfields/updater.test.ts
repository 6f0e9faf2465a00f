import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtinSchemas } from '../../apis/schema/builtin.js';
import { pathString } from '../fieldpath/path-element.js';
import { TypeModel } from '../typed/atom.js';
import { decodeManagedFields, encodeManagedFields, managerIdentifier } from './managed-fields.js';
import type { VersionedSet } from './managed-fields.js';
import { ConflictsError, Updater } from './updater.js';

const model = new TypeModel(builtinSchemas());
const atom = model.definition('io.k8s.api.apps.v1.Deployment')!;
const updater = new Updater({ atomFor: () => atom, convert: (o) => o });
const v = 'apps/v1';
const create = managerIdentifier({ manager: 'kubectl-create', operation: 'Update', apiVersion: v });
const alice = managerIdentifier({ manager: 'alice', operation: 'Apply' });
const bob = managerIdentifier({ manager: 'bob', operation: 'Apply' });

const dep = (spec: Record<string, unknown>, labels?: Record<string, string>): Record<string, unknown> => ({
  apiVersion: v,
  kind: 'Deployment',
  metadata: { name: 'd', ...(labels !== undefined ? { labels } : {}) },
  spec,
});
const fieldsOf = (m: Map<string, VersionedSet>, id: string): string => m.get(id)?.set.toString() ?? '(none)';

test('#9 Update managers own what they changed; others lose it; Apply conflicts, force, shared values', () => {
  let managers = new Map<string, VersionedSet>();
  const created = dep({ replicas: 1, paused: false });
  managers = updater.update({}, created, v, managers, create);
  assert.equal(
    fieldsOf(managers, create),
    '.apiVersion\n.kind\n.metadata\n.metadata.name\n.spec\n.spec.paused\n.spec.replicas',
  );

  // alice applies a different replica count: kubectl-create owns it.
  assert.throws(
    () => updater.apply(created, dep({ replicas: 3 }), v, new Map(managers), alice, false),
    (err: unknown) =>
      err instanceof ConflictsError &&
      err.conflicts.length === 1 &&
      err.conflicts[0]!.manager === create &&
      pathString(err.conflicts[0]!.path) === '.spec.replicas',
  );
  // The same value is shared ownership, not a conflict.
  const same = updater.apply(created, dep({ replicas: 1 }), v, new Map(managers), alice, false);
  assert.equal(same.object, undefined, 'nothing changed');
  assert.equal(fieldsOf(same.managers, alice), '.apiVersion\n.kind\n.metadata.name\n.spec.replicas');
  assert.match(fieldsOf(same.managers, create), /\.spec\.replicas/);

  // Forced: alice takes .spec.replicas.
  const forced = updater.apply(
    created,
    dep({ replicas: 3 }, { team: 'a' }),
    v,
    new Map(managers),
    alice,
    true,
  );
  assert.deepEqual(forced.object, dep({ replicas: 3, paused: false }, { team: 'a' }));
  assert.doesNotMatch(fieldsOf(forced.managers, create), /replicas/);
  assert.match(fieldsOf(forced.managers, alice), /\.spec\.replicas/);

  // alice stops applying the label: it goes; bob applies it too, then it stays when alice drops it.
  const live = forced.object;
  const dropped = updater.apply(live, dep({ replicas: 3 }), v, new Map(forced.managers), alice, false);
  assert.deepEqual((dropped.object as { metadata: unknown }).metadata, { name: 'd' });
  const shared = updater.apply(live, dep({}, { team: 'a' }), v, new Map(forced.managers), bob, false);
  const kept = updater.apply(live, dep({ replicas: 3 }), v, shared.managers, alice, false);
  assert.equal(kept.object, undefined, 'bob still owns the label');
});

test('#9 managedFields entries: identifiers, sorted encoding, decoding errors', () => {
  assert.equal(alice, '{"manager":"alice","operation":"Apply"}');
  assert.equal(
    managerIdentifier({ manager: 'k<b', operation: 'Update', apiVersion: 'v1', subresource: 'status' }),
    '{"manager":"k\\u003cb","operation":"Update","apiVersion":"v1","subresource":"status"}',
  );
  const entries = [
    {
      manager: 'z',
      operation: 'Update',
      apiVersion: 'v1',
      time: '2026-01-01T00:00:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:a': {} },
    },
    {
      manager: 'b',
      operation: 'Update',
      apiVersion: 'v1',
      time: '2025-01-01T00:00:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:b': {} },
    },
    {
      manager: 'y',
      operation: 'Apply',
      apiVersion: 'v1',
      time: '2027-01-01T00:00:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:c': {} },
    },
  ];
  const encoded = encodeManagedFields(decodeManagedFields(entries))!;
  assert.deepEqual(
    encoded.map((e) => e.manager),
    ['y', 'b', 'z'],
  );
  assert.deepEqual(encoded[0], entries[2]);
  assert.throws(
    () => decodeManagedFields([{ manager: 'x', operation: 'Bad', apiVersion: 'v1' }]),
    /operation must be `Apply` or `Update`/,
  );
  assert.throws(
    () => decodeManagedFields([{ manager: 'x', operation: 'Apply' }]),
    /apiVersion must not be empty/,
  );
  assert.throws(
    () => decodeManagedFields([{ manager: 'x', operation: 'Apply', apiVersion: 'v1' }]),
    /missing fieldsType in managed fields entry 0/,
  );
  assert.throws(
    () =>
      decodeManagedFields([{ manager: 'x', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV2' }]),
    /invalid fieldsType "FieldsV2" in managed fields entry 0/,
  );
});
