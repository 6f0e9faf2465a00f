import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runKvConformance } from '../testing/conformance.js';
import { createMemoryKv } from './memory-kv.js';

runKvConformance('memory', (options) => Promise.resolve(createMemoryKv(options)));

describe('memory kv periodic compaction', () => {
  it('compacts on its interval while keeping the retained revisions', async () => {
    const kv = createMemoryKv({ compactionIntervalMs: 40, compactionRetainRevisions: 3 });
    for (let i = 0; i < 10; i++) await kv.create(`/k${i}`, new Uint8Array([i]));
    const deadline = Date.now() + 2000;
    while ((await kv.compactedRevision()) < 7 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(await kv.compactedRevision(), 7);
    assert.equal((await kv.range({ key: '/', end: '0', revision: 7 })).count, 7);
    await kv.close();
  });
});
