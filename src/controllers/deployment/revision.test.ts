import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lastRevision, maxRevision, revisionOf, setNewReplicaSetAnnotations } from './util.js';

const rs = (revision: string) => ({
  metadata: { annotations: { 'deployment.kubernetes.io/revision': revision } },
});

test('revisions are int64s, exact past 2^53', () => {
  // Upstream's "RollingUpdateDeployment should delete old pods and create new ones" [Conformance]
  // adopts a ReplicaSet at revision 3546343826724305832 and expects the next to be ...833.
  const adopted = rs('3546343826724305832');
  assert.equal(revisionOf(adopted), 3546343826724305832n);
  assert.equal(String(maxRevision([adopted, rs('7')]) + 1n), '3546343826724305833');
  assert.equal(lastRevision([adopted, rs('7'), rs('3')]), 7n);
  assert.equal(revisionOf(rs('x')), undefined);
  const next = rs('3546343826724305832');
  assert.equal(setNewReplicaSetAnnotations({ metadata: {} }, next, '3546343826724305833', true), true);
  assert.equal(next.metadata.annotations['deployment.kubernetes.io/revision'], '3546343826724305833');
});
