import assert from 'node:assert/strict';
import { test } from 'node:test';
import { alwaysDenyPlugin } from './always-deny.js';
import { attrsOf, runPlugin, statusOf, testDeps } from './testing/fake-admission-deps.js';

test('AlwaysDeny refuses every operation with upstream’s text', async () => {
  const deps = testDeps();
  const plugin = alwaysDenyPlugin(deps);
  assert.equal(plugin.name, 'AlwaysDeny');
  assert.deepEqual([...plugin.operations], ['CREATE', 'UPDATE', 'DELETE', 'CONNECT']);
  assert.equal(deps.logged.length, 1);
  const object = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } };
  await assert.rejects(
    runPlugin(plugin, attrsOf({ resource: 'pods', kind: 'Pod', namespace: 'ns', object })),
    (err) => {
      assert.deepEqual(statusOf(err), {
        code: 403,
        message: 'pods "p" is forbidden: admission control is denying all modifications',
      });
      return true;
    },
  );
  // A delete carries no object: only the validating step runs, and refuses.
  await assert.rejects(
    runPlugin(
      plugin,
      attrsOf({ operation: 'DELETE', resource: 'pods', kind: 'Pod', namespace: 'ns', name: 'q' }),
    ),
    (err) => {
      assert.equal(
        statusOf(err).message,
        'pods "q" is forbidden: admission control is denying all modifications',
      );
      return true;
    },
  );
  // Neither a name nor an object: upstream names it "Unknown".
  await assert.rejects(
    runPlugin(plugin, attrsOf({ operation: 'DELETE', resource: 'pods', kind: 'Pod', namespace: 'ns' })),
    (err) => {
      assert.equal(
        statusOf(err).message,
        'pods "Unknown" is forbidden: admission control is denying all modifications',
      );
      return true;
    },
  );
});
