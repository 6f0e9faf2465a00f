import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { prefixEnd } from '../types.js';
import { runKvConformance } from '../testing/conformance.js';
import { EventReader, bytes, describeEvent, text } from '../testing/helpers.js';
import { DatabaseInUseError } from './schema.js';
import { openSqliteKv } from './sqlite-kv.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nanokube-sqlite-kv-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
let seq = 0;
const freshPath = (): string => path.join(dir, `kv-${++seq}.db`);

runKvConformance('sqlite', (options) =>
  openSqliteKv({ ...options, path: freshPath(), synchronous: 'NORMAL' }),
);
// The default: the WAL synced off the event loop before each batch is acknowledged (wal-sync.ts).
runKvConformance('sqlite FULL', (options) => openSqliteKv({ ...options, path: freshPath() }));
runKvConformance('sqlite :memory:', (options) => openSqliteKv({ ...options, path: ':memory:' }));

describe('sqlite kv durability and batching', () => {
  it('keeps objects, revisions, history and leases across a restart', async () => {
    const file = freshPath();
    const first = await openSqliteKv({ path: file });
    const lease = await first.grantLease(60);
    await first.create('/a', bytes('1')); // 1
    await first.create('/b', bytes('1'), { lease: lease.id }); // 2
    await first.update('/a', bytes('2'), 1); // 3
    await first.delete('/b'); // 4
    await first.create('/c', bytes('1')); // 5
    await first.compact(2);
    await first.close();

    const second = await openSqliteKv({ path: file });
    try {
      assert.equal(await second.currentRevision(), 5);
      assert.equal(await second.compactedRevision(), 2);
      const now = await second.range({ key: '/', end: prefixEnd('/') });
      assert.deepEqual(
        now.kvs.map((kv) => `${kv.key}=${text(kv.value)}@${kv.createRevision}/${kv.modRevision}`),
        ['/a=2@1/3', '/c=1@5/5'],
      );
      const past = await second.range({ key: '/', end: prefixEnd('/'), revision: 3 });
      assert.deepEqual(
        past.kvs.map((kv) => `${kv.key}=${text(kv.value)}`),
        ['/a=2', '/b=1'],
      );
      const reader = new EventReader(
        second.watch({ key: '/', end: prefixEnd('/'), startRevision: 3, prevKv: true }),
      );
      assert.deepEqual((await reader.take(3)).map(describeEvent), [
        'put /a@3 (prev 1)',
        'delete /b@4 (prev 2)',
        'put /c@5',
      ]);
      const next = await second.create('/d', bytes('1'));
      assert.ok(next.ok);
      assert.equal(next.kv.modRevision, 6);
      await second.keepAliveLease(lease.id);
    } finally {
      await second.close();
    }
  });

  it('commits concurrent writes in batches with distinct revisions', async () => {
    const kv = await openSqliteKv({ path: freshPath() });
    try {
      const reader = new EventReader(kv.watch({ key: '/', end: prefixEnd('/') }));
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) => kv.create(`/n/${i}`, bytes(String(i)))),
      );
      const revs = results.map((r) => (r.ok ? r.kv.modRevision : -1));
      assert.equal(new Set(revs).size, 200);
      assert.deepEqual(
        [...revs].sort((a, b) => a - b),
        Array.from({ length: 200 }, (_, i) => i + 1),
      );
      assert.equal(await kv.currentRevision(), 200);
      assert.equal((await kv.range({ key: '/n/', end: prefixEnd('/n/'), countOnly: true })).count, 200);
      const events = await reader.take(200);
      assert.deepEqual(
        events.map((e) => e.kv.modRevision),
        Array.from({ length: 200 }, (_, i) => i + 1),
      );
    } finally {
      await kv.close();
    }
  });

  it('flushes queued writes on close', async () => {
    const file = freshPath();
    const kv = await openSqliteKv({ path: file });
    const pending = kv.create('/late', bytes('1'));
    await kv.close();
    assert.ok((await pending).ok);
    const again = await openSqliteKv({ path: file });
    assert.equal((await again.range({ key: '/late' })).count, 1);
    await again.close();
  });

  it('closes when the signal aborts', async () => {
    const ac = new AbortController();
    const kv = await openSqliteKv({ path: ':memory:', signal: ac.signal });
    const reader = new EventReader(kv.watch({ key: '/a' }));
    ac.abort();
    assert.equal(await reader.next(), 'done');
    await assert.rejects(kv.currentRevision().then(() => kv.create('/a', bytes('1'))));
  });
});

describe('sqlite kv periodic compaction', () => {
  it('compacts on its interval while keeping the retained revisions', async () => {
    const kv = await openSqliteKv({
      path: freshPath(),
      compactionIntervalMs: 40,
      compactionRetainRevisions: 3,
    });
    try {
      for (let i = 0; i < 10; i++) await kv.create(`/k${i}`, bytes('1'));
      const deadline = Date.now() + 2000;
      while ((await kv.compactedRevision()) < 7 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal(await kv.compactedRevision(), 7);
      const all = await kv.range({ key: '/', end: prefixEnd('/'), revision: 7 });
      assert.equal(all.count, 7);
    } finally {
      await kv.close();
    }
  });
});

describe('sqlite kv single writer', () => {
  it('a second store on the same file is refused while the first is open, and allowed after close', async () => {
    const file = freshPath();
    const first = await openSqliteKv({ path: file });
    await first.create('/x', bytes('1'));
    await assert.rejects(openSqliteKv({ path: file }), (e: unknown) => e instanceof DatabaseInUseError);
    await first.close();
    const second = await openSqliteKv({ path: file });
    assert.equal(await second.currentRevision(), 1);
    await second.close();
  });
});

describe('sqlite kv revisions past 2^33', () => {
  it('keeps several events per revision apart once revision × 2^20 passes 2^53', async () => {
    const file = freshPath();
    await (await openSqliteKv({ path: file })).close();
    const high = 2 ** 40;
    const raw = new Database(file);
    raw.prepare("UPDATE meta SET value = ? WHERE name = 'rev'").run(high);
    raw.close();
    const kv = await openSqliteKv({ path: file, watchReplayPageSize: 1 });
    try {
      const r = await kv.txn({
        success: [
          { type: 'put', key: '/a', value: bytes('1') },
          { type: 'put', key: '/b', value: bytes('2') },
        ],
      });
      assert.equal(r.revision, high + 1);
      await kv.txn({ success: [{ type: 'put', key: '/c', value: bytes('3') }] });
      const reader = new EventReader(kv.watch({ key: '/', end: '0', startRevision: high + 1 }));
      assert.deepEqual((await reader.take(3)).map(describeEvent), [
        `put /a@${high + 1}`,
        `put /b@${high + 1}`,
        `put /c@${high + 2}`,
      ]);
      assert.equal((await kv.range({ key: '/', end: '0', revision: high + 1 })).count, 2);
    } finally {
      await kv.close();
    }
  });
});
