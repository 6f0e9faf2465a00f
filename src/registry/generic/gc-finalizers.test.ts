import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  defaultGarbageCollectionPolicy,
  deletionFinalizers,
  validateDeleteOptions,
} from './gc-finalizers.js';

describe('deletionFinalizers (upstream deletionFinalizersForGarbageCollection)', () => {
  it('options win over the object and the default', () => {
    assert.deepEqual(deletionFinalizers(['a'], { propagationPolicy: 'Orphan' }, 'DeleteDependents'), {
      changed: true,
      finalizers: ['a', 'orphan'],
    });
    assert.deepEqual(
      deletionFinalizers(['orphan', 'a'], { propagationPolicy: 'Foreground' }, 'OrphanDependents').finalizers,
      ['a', 'foregroundDeletion'],
    );
    assert.deepEqual(
      deletionFinalizers(['orphan'], { orphanDependents: false }, 'OrphanDependents').finalizers,
      [],
    );
    assert.deepEqual(deletionFinalizers([], { propagationPolicy: 'Background' }, 'OrphanDependents'), {
      changed: false,
      finalizers: [],
    });
  });
  it('without options the object keeps its GC finalizer, else the kind default applies', () => {
    assert.equal(deletionFinalizers(['foregroundDeletion'], {}, 'OrphanDependents').changed, false);
    assert.deepEqual(deletionFinalizers([], {}, 'OrphanDependents').finalizers, ['orphan']);
    assert.equal(deletionFinalizers([], {}, 'DeleteDependents').changed, false);
  });
  it('Unsupported never sets them but still drops existing ones', () => {
    assert.deepEqual(
      deletionFinalizers(['orphan'], { propagationPolicy: 'Orphan' }, 'Unsupported').finalizers,
      [],
    );
  });
  it('sets compare as sets', () => {
    assert.equal(
      deletionFinalizers(['orphan', 'a'], { propagationPolicy: 'Orphan' }, 'DeleteDependents').changed,
      false,
    );
  });
});

describe('defaults and validation', () => {
  it('RC and Job orphan by default', () => {
    assert.equal(
      defaultGarbageCollectionPolicy({ group: '', kind: 'ReplicationController' }),
      'OrphanDependents',
    );
    assert.equal(defaultGarbageCollectionPolicy({ group: 'batch', kind: 'Job' }), 'OrphanDependents');
    assert.equal(defaultGarbageCollectionPolicy({ group: 'apps', kind: 'ReplicaSet' }), 'DeleteDependents');
  });
  it('both options set, and unknown policies, are errors', () => {
    assert.deepEqual(validateDeleteOptions({ orphanDependents: false, propagationPolicy: 'X' }).map(String), [
      'propagationPolicy: Invalid value: "X": orphanDependents and deletionPropagation cannot be both set',
      'propagationPolicy: Unsupported value: "X": supported values: "Foreground", "Background", "Orphan", "nil"',
    ]);
  });
});
