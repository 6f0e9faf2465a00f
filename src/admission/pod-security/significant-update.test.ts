import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../../util/json.js';
import { isSignificantPodUpdate } from './significant-update.js';
import { podObject } from './testing/helpers.js';

const spec = (more: JsonObject = {}): JsonObject => ({
  initContainers: [{ name: 'i', image: 'init:1' }],
  containers: [{ name: 'c', image: 'app:1' }],
  ...more,
});

test('significant: container count, images, new or changed ephemeral containers', () => {
  const old = podObject('p', 'ns', spec({ ephemeralContainers: [{ name: 'd', image: 'busybox' }] }));
  const changed = (s: JsonObject) => isSignificantPodUpdate(podObject('p', 'ns', s), old);
  assert.equal(changed(spec({ ephemeralContainers: [{ name: 'd', image: 'busybox' }] })), false);
  assert.equal(
    changed(spec({ ephemeralContainers: [{ name: 'd', image: 'busybox' }], activeDeadlineSeconds: 5 })),
    false,
  );
  assert.equal(
    isSignificantPodUpdate(
      podObject('p', 'ns', spec({ ephemeralContainers: [{ name: 'd', image: 'busybox' }] }), {
        labels: { a: 'b' },
      }),
      old,
    ),
    false,
  );
  assert.equal(
    changed(
      spec({
        containers: [{ name: 'c', image: 'app:2' }],
        ephemeralContainers: [{ name: 'd', image: 'busybox' }],
      }),
    ),
    true,
  );
  assert.equal(
    changed(spec({ initContainers: [], ephemeralContainers: [{ name: 'd', image: 'busybox' }] })),
    true,
  );
  assert.equal(
    changed(
      spec({
        ephemeralContainers: [
          { name: 'd', image: 'busybox' },
          { name: 'e', image: 'x' },
        ],
      }),
    ),
    true,
  );
  assert.equal(changed(spec({ ephemeralContainers: [{ name: 'd', image: 'other' }] })), true);
  // Removing an ephemeral container is not looked at (the API refuses it anyway).
  assert.equal(changed(spec()), false);
});
