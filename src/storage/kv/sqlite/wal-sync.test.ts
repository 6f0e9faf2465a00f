import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { GroupCommit } from './group-commit.js';
import type { DataSync } from './wal-sync.js';
import { WalSync } from './wal-sync.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nanokube-wal-sync-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const wal = path.join(dir, 'db-wal');
fs.writeFileSync(wal, '');

/** A datasync the test completes by hand. */
function manualSync(): { readonly sync: DataSync; readonly calls: (() => void)[]; fail: (e: Error) => void } {
  const calls: (() => void)[] = [];
  const failures: ((e: NodeJS.ErrnoException) => void)[] = [];
  return {
    calls,
    sync: (_fd, done) => {
      calls.push(() => done(null));
      failures.push((e) => done(e));
    },
    fail: (e) => failures.shift()?.(e),
  };
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('WalSync', () => {
  it('coalesces: syncs asked for while one is in flight share the next one', async () => {
    const m = manualSync();
    const s = new WalSync(wal, m.sync);
    const done: string[] = [];
    void s.sync().then(() => done.push('a'));
    void s.sync().then(() => done.push('b'));
    void s.sync().then(() => done.push('c'));
    assert.equal(m.calls.length, 1, 'one fdatasync in flight');
    m.calls[0]?.();
    await tick();
    assert.deepEqual(done, ['a']);
    assert.equal(m.calls.length, 2, 'b and c share the second');
    m.calls[1]?.();
    await tick();
    assert.deepEqual(done, ['a', 'b', 'c']);
    await s.drained();
    s.close();
  });

  it('reports a failed fdatasync to the batch it covered', async () => {
    const m = manualSync();
    const s = new WalSync(wal, m.sync);
    const p = s.sync();
    m.fail(Object.assign(new Error('EIO: i/o error'), { code: 'EIO' }));
    await assert.rejects(p, /fdatasync of the SQLite WAL failed: EIO/);
    s.close();
  });

  it('really syncs a file with the default fdatasync', async () => {
    const s = new WalSync(wal);
    await s.sync();
    await s.drained();
    s.close();
  });
});

describe('GroupCommit with a durability promise', () => {
  it('answers callers only after the batch is durable, batches in commit order', async () => {
    let release: (() => void)[] = [];
    const commit = new GroupCommit({
      transaction: (body) => body(),
      committed: () => new Promise<void>((r) => release.push(r)),
      rolledBack: () => undefined,
      isOperationError: () => false,
    });
    const order: number[] = [];
    void commit.enqueue(() => 1).then((v) => order.push(v));
    commit.flush();
    void commit.enqueue(() => 2).then((v) => order.push(v));
    commit.flush();
    await tick();
    assert.deepEqual(order, [], 'nothing answered before durability');
    const [first, second] = release;
    release = [];
    first?.();
    await tick();
    assert.deepEqual(order, [1]);
    second?.();
    await tick();
    assert.deepEqual(order, [1, 2]);
  });

  it('fails the batch when durability fails', async () => {
    const commit = new GroupCommit({
      transaction: (body) => body(),
      committed: () => Promise.reject(new Error('disk gone')),
      rolledBack: () => undefined,
      isOperationError: () => false,
    });
    const p = commit.enqueue(() => 1);
    commit.flush();
    await assert.rejects(p, /disk gone/);
  });
});
