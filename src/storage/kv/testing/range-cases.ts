/** Conformance: range reads, pagination, past revisions, compaction. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { KvCompactedError, KvFutureRevisionError } from '../errors.js';
import type { KeyValue, KvStore } from '../types.js';
import { prefixEnd } from '../types.js';
import type { OpenKv } from './helpers.js';
import { bytes, text, withKv } from './helpers.js';

function keys(kvs: readonly KeyValue[]): string[] {
  return kvs.map((kv) => kv.key);
}

function values(kvs: readonly KeyValue[]): string[] {
  return kvs.map((kv) => `${kv.key}=${text(kv.value)}`);
}

/** Revisions 1..8: /p/b, /p/d, /q, /p/a, /p/c, update /p/b, delete /p/d, create /p/e. */
async function seed(kv: KvStore): Promise<void> {
  for (const key of ['/p/b', '/p/d', '/q', '/p/a', '/p/c']) await kv.create(key, bytes('1'));
  await kv.update('/p/b', bytes('2'), 1);
  await kv.delete('/p/d');
  await kv.create('/p/e', bytes('1'));
}

export function registerRangeCases(open: OpenKv): void {
  void it('ranges by key, by [key, end) and by prefix, in key order', () =>
    withKv(open, async (kv) => {
      await seed(kv);
      assert.deepEqual(values((await kv.range({ key: '/p/b' })).kvs), ['/p/b=2']);
      assert.deepEqual(keys((await kv.range({ key: '/p/' })).kvs), []);
      assert.deepEqual(keys((await kv.range({ key: '/p/a', end: '/p/c' })).kvs), ['/p/a', '/p/b']);
      const prefix = await kv.range({ key: '/p/', end: prefixEnd('/p/') });
      assert.deepEqual(keys(prefix.kvs), ['/p/a', '/p/b', '/p/c', '/p/e']);
      assert.deepEqual([prefix.count, prefix.more, prefix.revision], [4, false, 8]);
      const all = await kv.range({ key: '', end: prefixEnd('') });
      assert.deepEqual(keys(all.kvs), ['/p/a', '/p/b', '/p/c', '/p/e', '/q']);
      assert.equal(all.kvs[1]?.createRevision, 1);
      assert.equal(all.kvs[1]?.modRevision, 6);
    }));

  void it('limit sets more and count covers the whole range; countOnly returns no kvs', () =>
    withKv(open, async (kv) => {
      await seed(kv);
      const span = { key: '/p/', end: prefixEnd('/p/') };
      const page = await kv.range({ ...span, limit: 2 });
      assert.deepEqual(keys(page.kvs), ['/p/a', '/p/b']);
      assert.deepEqual([page.more, page.count], [true, 4]);
      const next = await kv.range({ key: '/p/b\u0000', end: span.end, limit: 2 });
      assert.deepEqual(keys(next.kvs), ['/p/c', '/p/e']);
      assert.deepEqual([next.more, next.count], [false, 2]);
      const exact = await kv.range({ ...span, limit: 4 });
      assert.deepEqual([exact.kvs.length, exact.more, exact.count], [4, false, 4]);
      const counted = await kv.range({ ...span, countOnly: true });
      assert.deepEqual([counted.kvs.length, counted.count, counted.more], [0, 4, false]);
    }));

  void it('reads at a past revision see that revision exactly', () =>
    withKv(open, async (kv) => {
      await seed(kv);
      const span = { key: '/p/', end: prefixEnd('/p/') };
      const at5 = await kv.range({ ...span, revision: 5 });
      assert.deepEqual(values(at5.kvs), ['/p/a=1', '/p/b=1', '/p/c=1', '/p/d=1']);
      assert.deepEqual([at5.count, at5.more, at5.revision], [4, false, 5]);
      assert.equal(at5.kvs[1]?.modRevision, 1);
      const at6 = await kv.range({ ...span, revision: 6 });
      assert.deepEqual(values(at6.kvs), ['/p/a=1', '/p/b=2', '/p/c=1', '/p/d=1']);
      const at2 = await kv.range({ ...span, revision: 2 });
      assert.deepEqual(keys(at2.kvs), ['/p/b', '/p/d']);
      // Paginated LIST continuing at the first page's revision, mixing changed and unchanged keys.
      const p1 = await kv.range({ ...span, revision: 6, limit: 3 });
      assert.deepEqual(keys(p1.kvs), ['/p/a', '/p/b', '/p/c']);
      assert.deepEqual([p1.more, p1.count], [true, 4]);
      const p2 = await kv.range({ key: '/p/c\u0000', end: span.end, revision: 6, limit: 3 });
      assert.deepEqual(values(p2.kvs), ['/p/d=1']);
      assert.deepEqual([p2.more, p2.count], [false, 1]);
      const single = await kv.range({ key: '/p/d', revision: 7 });
      assert.equal(single.count, 0);
      const counted = await kv.range({ ...span, revision: 6, countOnly: true });
      assert.equal(counted.count, 4);
    }));

  void it('rejects future and compacted revisions', () =>
    withKv(open, async (kv) => {
      await seed(kv);
      await assert.rejects(kv.range({ key: '/q', revision: 9 }), KvFutureRevisionError);
      await kv.compact(4);
      assert.equal(await kv.compactedRevision(), 4);
      await assert.rejects(kv.range({ key: '/q', revision: 3 }), KvCompactedError);
      assert.equal((await kv.range({ key: '/q', revision: 4 })).count, 1);
      await assert.rejects(kv.compact(99), KvFutureRevisionError);
    }));

  void it('compaction keeps every key state at and after the compact revision', () =>
    withKv(open, async (kv) => {
      await seed(kv);
      await kv.update('/p/c', bytes('2'), 5); // rev 9
      await kv.compact(7);
      const span = { key: '/p/', end: prefixEnd('/p/') };
      const at7 = await kv.range({ ...span, revision: 7 });
      assert.deepEqual(values(at7.kvs), ['/p/a=1', '/p/b=2', '/p/c=1']);
      assert.deepEqual(
        at7.kvs.map((k) => [k.createRevision, k.modRevision]),
        [
          [4, 4],
          [1, 6],
          [5, 5],
        ],
      );
      const at8 = await kv.range({ ...span, revision: 8 });
      assert.deepEqual(values(at8.kvs), ['/p/a=1', '/p/b=2', '/p/c=1', '/p/e=1']);
      const now = await kv.range(span);
      assert.deepEqual(values(now.kvs), ['/p/a=1', '/p/b=2', '/p/c=2', '/p/e=1']);
      assert.deepEqual(values((await kv.range({ key: '/q', revision: 7 })).kvs), ['/q=1']);
      await kv.compact(9);
      assert.deepEqual(values((await kv.range({ ...span, revision: 9 })).kvs), values(now.kvs));
      await kv.compact(5); // already compacted past it: no-op
      assert.equal(await kv.compactedRevision(), 9);
    }));
}
