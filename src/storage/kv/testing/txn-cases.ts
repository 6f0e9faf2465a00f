/**
 * Conformance: multi-key transactions (etcd Txn) — comparisons, branches, one revision per txn,
 * refusals that write nothing, and how txns look to watches, past reads, compaction and leases.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { KvCompactedError, KvDuplicateKeyError, KvLeaseNotFoundError } from '../errors.js';
import type { KeyValue, KvStore, TxnCompare, TxnOpResult, TxnPut } from '../types.js';
import { prefixEnd } from '../types.js';
import type { KvCapabilities, OpenKv } from './helpers.js';
import { EventReader, bytes, describeEvent, text, withKv } from './helpers.js';

const span = (prefix: string): { key: string; end: string } => ({ key: prefix, end: prefixEnd(prefix) });

function put(key: string, value = '1', lease?: number): TxnPut {
  return lease === undefined
    ? { type: 'put', key, value: bytes(value) }
    : { type: 'put', key, value: bytes(value), lease };
}

/** "key=value@create/mod", with "~lease" when the key has one. */
function kvText(kv: KeyValue): string {
  const lease = kv.lease === 0 ? '' : '~lease';
  return `${kv.key}=${text(kv.value)}@${kv.createRevision}/${kv.modRevision}${lease}`;
}

function describeResult(r: TxnOpResult): string {
  switch (r.type) {
    case 'put':
      return `put ${kvText(r.kv)}${r.prevKv === undefined ? '' : ` (prev ${kvText(r.prevKv)})`}`;
    case 'delete':
      return `delete ${r.deleted}${r.prevKv === undefined ? '' : ` (prev ${kvText(r.prevKv)})`}`;
    case 'range':
      return `range @${r.revision} count ${r.count}${r.more ? ' more' : ''}:${r.kvs.map((kv) => ` ${kvText(kv)}`).join('')}`;
  }
}

async function listAt(kv: KvStore, prefix: string, revision = 0): Promise<string[]> {
  return (await kv.range({ ...span(prefix), revision })).kvs.map(kvText);
}

/** Whether `compare` alone holds, checking that a txn without ops leaves the revision alone. */
async function holds(kv: KvStore, compare: TxnCompare): Promise<boolean> {
  const before = await kv.currentRevision();
  const res = await kv.txn({ compare: [compare] });
  assert.deepEqual([res.revision, res.responses.length], [before, 0]);
  return res.succeeded;
}

/** Revisions 1..3 over /r/: three creates; update a, delete b, create d; update c, delete a. */
async function threeTxns(kv: KvStore): Promise<void> {
  await kv.txn({ success: [put('/r/a', 'a1'), put('/r/b', 'b1'), put('/r/c', 'c1')] });
  await kv.txn({ success: [put('/r/a', 'a2'), { type: 'delete', key: '/r/b' }, put('/r/d', 'd1')] });
  await kv.txn({ success: [put('/r/c', 'c2'), { type: 'delete', key: '/r/a' }] });
}

export function registerTxnCases(open: OpenKv, capabilities: KvCapabilities = {}): void {
  void it('compares mod, create, lease and value with every operator; absent keys compare as 0', () =>
    withKv(open, async (kv) => {
      const lease = await kv.grantLease(60);
      await kv.create('/a', bytes('v1'), { lease: lease.id }); // 1
      await kv.create('/b', bytes('x')); // 2
      await kv.update('/a', bytes('v2'), 1, { lease: lease.id }); // 3: created at 1, modified at 3
      const cases: [TxnCompare, boolean][] = [
        [{ key: '/a', target: 'mod', operator: '=', value: 3 }, true],
        [{ key: '/a', target: 'mod', operator: '=', value: 1 }, false],
        [{ key: '/a', target: 'mod', operator: '!=', value: 1 }, true],
        [{ key: '/a', target: 'mod', operator: '!=', value: 3 }, false],
        [{ key: '/a', target: 'mod', operator: '<', value: 4 }, true],
        [{ key: '/a', target: 'mod', operator: '<', value: 3 }, false],
        [{ key: '/a', target: 'mod', operator: '>', value: 2 }, true],
        [{ key: '/a', target: 'mod', operator: '>', value: 3 }, false],
        [{ key: '/a', target: 'create', operator: '=', value: 1 }, true],
        [{ key: '/a', target: 'create', operator: '!=', value: 1 }, false],
        [{ key: '/a', target: 'create', operator: '<', value: 2 }, true],
        [{ key: '/a', target: 'create', operator: '>', value: 0 }, true],
        [{ key: '/a', target: 'create', operator: '>', value: 1 }, false],
        [{ key: '/a', target: 'lease', operator: '=', value: lease.id }, true],
        [{ key: '/a', target: 'lease', operator: '!=', value: 0 }, true],
        [{ key: '/a', target: 'lease', operator: '>', value: 0 }, true],
        [{ key: '/a', target: 'lease', operator: '<', value: lease.id }, false],
        [{ key: '/b', target: 'lease', operator: '=', value: 0 }, true],
        [{ key: '/a', target: 'value', operator: '=', value: bytes('v2') }, true],
        [{ key: '/a', target: 'value', operator: '=', value: bytes('v1') }, false],
        [{ key: '/a', target: 'value', operator: '!=', value: bytes('v1') }, true],
        [{ key: '/a', target: 'value', operator: '!=', value: bytes('v2') }, false],
        [{ key: '/a', target: 'value', operator: '<', value: bytes('v3') }, true],
        [{ key: '/a', target: 'value', operator: '<', value: bytes('v2') }, false],
        [{ key: '/a', target: 'value', operator: '>', value: bytes('v') }, true],
        [{ key: '/a', target: 'value', operator: '>', value: bytes('w') }, false],
        // An absent key: mod, create and lease are 0; a value comparison never holds.
        [{ key: '/z', target: 'mod', operator: '=', value: 0 }, true],
        [{ key: '/z', target: 'mod', operator: '>', value: 0 }, false],
        [{ key: '/z', target: 'mod', operator: '<', value: 1 }, true],
        [{ key: '/z', target: 'create', operator: '=', value: 0 }, true],
        [{ key: '/z', target: 'create', operator: '!=', value: 0 }, false],
        [{ key: '/z', target: 'lease', operator: '=', value: 0 }, true],
        [{ key: '/z', target: 'value', operator: '=', value: new Uint8Array(0) }, false],
        [{ key: '/z', target: 'value', operator: '!=', value: bytes('x') }, false],
      ];
      for (const [compare, expected] of cases) {
        assert.equal(
          await holds(kv, compare),
          expected,
          `${compare.key} ${compare.target} ${compare.operator}`,
        );
      }
      const modIs3: TxnCompare = { key: '/a', target: 'mod', operator: '=', value: 3 };
      const bAbsent: TxnCompare = { key: '/b', target: 'create', operator: '=', value: 0 };
      assert.equal((await kv.txn({ compare: [modIs3, bAbsent] })).succeeded, false);
      assert.equal((await kv.txn({ compare: [modIs3, { ...bAbsent, operator: '!=' }] })).succeeded, true);
      assert.equal((await kv.txn({ compare: [] })).succeeded, true);
      assert.equal(await kv.currentRevision(), 3);
    }));

  void it('runs the success or the failure ops; all writes of a txn share one new revision', () =>
    withKv(open, async (kv) => {
      await kv.create('/a', bytes('1')); // 1
      await kv.create('/old', bytes('1')); // 2
      const request = {
        compare: [{ key: '/n', target: 'create', operator: '=', value: 0 }],
        success: [
          put('/n', 'new'),
          put('/a', '2'),
          { type: 'delete', key: '/old' },
          { type: 'delete', key: '/never' },
        ],
        failure: [{ type: 'range', key: '/n' }],
      } as const;
      const res = await kv.txn(request);
      assert.deepEqual([res.succeeded, res.revision], [true, 3]);
      assert.deepEqual(res.responses.map(describeResult), [
        'put /n=new@3/3',
        'put /a=2@1/3 (prev /a=1@1/1)',
        'delete 1 (prev /old=1@2/2)',
        'delete 0',
      ]);
      assert.equal(await kv.currentRevision(), 3);
      assert.deepEqual(await listAt(kv, '/'), ['/a=2@1/3', '/n=new@3/3']);
      const again = await kv.txn(request);
      assert.deepEqual([again.succeeded, again.revision], [false, 3]);
      assert.deepEqual(again.responses.map(describeResult), ['range @3 count 1: /n=new@3/3']);
      const next = await kv.create('/c', bytes('1'));
      assert.ok(next.ok);
      assert.equal(next.kv.modRevision, 4);
      assert.ok((await kv.update('/n', bytes('newer'), 3)).ok); // 5
      const failed = await kv.txn({
        compare: [{ key: '/a', target: 'value', operator: '=', value: bytes('nope') }],
        success: [put('/s')],
        failure: [put('/f1'), put('/f2'), put('/n', 'newest')],
      });
      assert.deepEqual([failed.succeeded, failed.revision], [false, 6]);
      assert.deepEqual(failed.responses.map(describeResult), [
        'put /f1=1@6/6',
        'put /f2=1@6/6',
        'put /n=newest@3/6 (prev /n=newer@3/5)',
      ]);
      assert.equal(await kv.currentRevision(), 6);
    }));

  void it('range ops see the state before the txn plus the txn’s earlier writes (as in etcd)', () =>
    withKv(open, async (kv) => {
      await kv.create('/r/a', bytes('1')); // 1
      await kv.create('/r/b', bytes('1')); // 2
      const r = span('/r/');
      const res = await kv.txn({
        success: [
          { type: 'range', ...r },
          { type: 'range', ...r, limit: 1 },
          { type: 'range', ...r, countOnly: true },
          put('/r/c'),
          { type: 'delete', key: '/r/a' },
          { type: 'range', ...r },
          { type: 'range', key: '/r/a' },
        ],
      });
      assert.deepEqual(res.responses.map(describeResult), [
        'range @2 count 2: /r/a=1@1/1 /r/b=1@2/2',
        'range @2 count 2 more: /r/a=1@1/1',
        'range @2 count 2:',
        'put /r/c=1@3/3',
        'delete 1 (prev /r/a=1@1/1)',
        'range @3 count 2: /r/b=1@2/2 /r/c=1@3/3',
        'range @3 count 0:',
      ]);
      assert.equal(res.revision, 3);
    }));

  void it('read-only, no-op and failed txns leave the revision and watchers alone', () =>
    withKv(open, async (kv) => {
      await kv.create('/a', bytes('1')); // 1
      const reader = new EventReader(kv.watch({ ...span('/'), prevKv: true }));
      const readOnly = await kv.txn({ success: [{ type: 'range', key: '/a' }] });
      assert.deepEqual([readOnly.succeeded, readOnly.revision], [true, 1]);
      assert.deepEqual(readOnly.responses.map(describeResult), ['range @1 count 1: /a=1@1/1']);
      const noop = await kv.txn({ success: [{ type: 'delete', key: '/missing' }] });
      assert.deepEqual([noop.revision, noop.responses.map(describeResult)], [1, ['delete 0']]);
      const failed = await kv.txn({
        compare: [{ key: '/a', target: 'mod', operator: '=', value: 9 }],
        success: [put('/a', '2')],
        failure: [{ type: 'range', key: '/a', countOnly: true }],
      });
      assert.deepEqual([failed.succeeded, failed.revision], [false, 1]);
      assert.deepEqual(failed.responses.map(describeResult), ['range @1 count 1:']);
      const empty = await kv.txn({});
      assert.deepEqual([empty.succeeded, empty.revision, empty.responses.length], [true, 1, 0]);
      assert.equal(await kv.currentRevision(), 1);
      assert.deepEqual(await listAt(kv, '/'), ['/a=1@1/1']);
      assert.equal(await reader.next(30), 'timeout');
    }));

  void it('refuses duplicate keys and missing leases as a whole, writing nothing', () =>
    withKv(open, async (kv) => {
      await kv.create('/a', bytes('1')); // 1
      const reader = new EventReader(kv.watch(span('/')));
      await assert.rejects(
        kv.txn({ success: [put('/x'), put('/a', '2'), put('/x', '2')] }),
        (e: unknown) => e instanceof KvDuplicateKeyError && e.key === '/x',
      );
      await assert.rejects(
        kv.txn({ success: [put('/a', '2'), { type: 'delete', key: '/a' }] }),
        KvDuplicateKeyError,
      );
      // Both branches are validated up front, whichever would run.
      await assert.rejects(
        kv.txn({
          success: [put('/y')],
          failure: [
            { type: 'delete', key: '/b' },
            { type: 'delete', key: '/b' },
          ],
        }),
        KvDuplicateKeyError,
      );
      const lease = await kv.grantLease(60);
      await kv.revokeLease(lease.id);
      await assert.rejects(
        kv.txn({ success: [put('/x'), { type: 'delete', key: '/a' }, put('/y', '1', lease.id)] }),
        KvLeaseNotFoundError,
      );
      assert.equal(await kv.currentRevision(), 1);
      assert.deepEqual(await listAt(kv, '/'), ['/a=1@1/1']);
      assert.equal(await reader.next(30), 'timeout');
      // Leases are checked in the branch that runs only; ranges may name written keys.
      const other = await kv.txn({
        compare: [{ key: '/a', target: 'create', operator: '=', value: 0 }],
        success: [put('/z', '1', lease.id)],
        failure: [{ type: 'range', key: '/z' }, put('/z'), { type: 'range', key: '/z' }],
      });
      assert.deepEqual([other.succeeded, other.revision], [false, 2]);
      assert.deepEqual(other.responses.map(describeResult), [
        'range @1 count 0:',
        'put /z=1@2/2',
        'range @2 count 1: /z=1@2/2',
      ]);
      assert.deepEqual((await reader.take(1)).map(describeEvent), ['put /z@2']);
    }));

  void it('a refused txn does not disturb the writes committed alongside it', () =>
    withKv(open, async (kv) => {
      const settled = await Promise.allSettled([
        kv.create('/1', bytes('1')),
        kv.txn({ success: [put('/t1'), put('/t1')] }),
        kv.txn({ success: [put('/t2'), put('/t3')] }),
        kv.txn({ success: [put('/t4'), put('/t5', '1', 424242)] }),
        kv.create('/2', bytes('1')),
      ]);
      assert.deepEqual(
        settled.map((s) => s.status),
        ['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled'],
      );
      const listed = await listAt(kv, '/');
      if (capabilities.callOrder === false) {
        // In some order: three revisions, the txn's two keys sharing one.
        assert.deepEqual(
          listed.map((l) => l.replace(/=.*/, '')),
          ['/1', '/2', '/t2', '/t3'],
        );
        assert.equal(listed[2]!.replace(/^[^=]*/, ''), listed[3]!.replace(/^[^=]*/, ''));
        assert.equal(new Set(listed.map((l) => l.replace(/^[^=]*/, ''))).size, 3);
      } else {
        assert.deepEqual(listed, ['/1=1@1/1', '/2=1@3/3', '/t2=1@2/2', '/t3=1@2/2']);
      }
      assert.equal(await kv.currentRevision(), 3);
    }));

  void it('concurrent txns comparing the same modRevision: exactly one wins', () =>
    withKv(open, async (kv) => {
      await kv.create('/c', bytes('0')); // 1
      const results = await Promise.all(
        [1, 2, 3, 4, 5].map((i) =>
          kv.txn({
            compare: [{ key: '/c', target: 'mod', operator: '=', value: 1 }],
            success: [put('/c', String(i)), put(`/won/${i}`)],
            failure: [{ type: 'range', key: '/c' }],
          }),
        ),
      );
      const winners = results.filter((r) => r.succeeded);
      assert.equal(winners.length, 1);
      assert.equal(winners[0]!.revision, 2);
      const value = (await kv.range({ key: '/c' })).kvs[0]!;
      for (const loser of results.filter((r) => !r.succeeded)) {
        assert.deepEqual(loser.responses.map(describeResult), [`range @2 count 1: ${kvText(value)}`]);
      }
      assert.equal((await kv.range({ ...span('/won/'), countOnly: true })).count, 1);
      assert.equal(await kv.currentRevision(), 2);
    }));

  void it('watchers get every event of a txn at its revision, in op order, live and from history', () =>
    withKv(open, async (kv) => {
      const w = span('/w/');
      await kv.create('/w/c', bytes('1')); // 1
      const live = new EventReader(kv.watch({ ...w, prevKv: true }));
      await kv.txn({ success: [put('/w/b'), put('/w/a'), { type: 'delete', key: '/w/c' }, put('/x')] }); // 2
      await kv.create('/w/d', bytes('1')); // 3
      const expected = ['put /w/b@2', 'put /w/a@2', 'delete /w/c@2 (prev 1)', 'put /w/d@3'];
      assert.deepEqual((await live.take(4)).map(describeEvent), expected);
      const fromTxn = new EventReader(kv.watch({ ...w, startRevision: 2, prevKv: true }));
      assert.deepEqual((await fromTxn.take(4)).map(describeEvent), expected);
      const oneKey = new EventReader(kv.watch({ key: '/w/a', startRevision: 2 }));
      assert.deepEqual((await oneKey.take(1)).map(describeEvent), ['put /w/a@2']);
      const future = new EventReader(kv.watch({ ...w, startRevision: 5 }));
      await kv.txn({ success: [put('/w/e'), put('/w/f')] }); // 4
      await kv.txn({ success: [put('/w/g'), put('/w/e', '2')] }); // 5
      const later = ['put /w/e@4', 'put /w/f@4', 'put /w/g@5', 'put /w/e@5 (prev 4)'];
      assert.deepEqual((await live.take(4)).map(describeEvent), later);
      assert.deepEqual((await fromTxn.take(4)).map(describeEvent), later);
      assert.deepEqual((await future.take(2)).map(describeEvent), ['put /w/g@5', 'put /w/e@5']);
      for (const reader of [live, fromTxn, oneKey, future]) assert.equal(await reader.next(30), 'timeout');
    }));

  void it('a catch-up replay never splits a txn across pages, nor duplicates one committed meanwhile', () =>
    withKv(
      open,
      async (kv) => {
        const p = span('/p/');
        await kv.create('/p/0', bytes('1')); // 1
        await kv.txn({ success: [put('/p/1'), put('/p/2'), put('/p/3')] }); // 2
        await kv.create('/p/4', bytes('1')); // 3
        await kv.txn({ success: [put('/p/5'), put('/p/6')] }); // 4
        const reader = new EventReader(kv.watch({ ...p, startRevision: 1 }));
        const first = await reader.take(2); // the first page (size 2) grows to finish revision 2
        // Committed during the replay: buffered as live and also read from history; delivered once.
        await kv.txn({ success: [put('/p/7'), put('/p/8'), put('/p/9')] }); // 5
        const rest = await reader.take(8);
        assert.deepEqual([...first, ...rest].map(describeEvent), [
          'put /p/0@1',
          'put /p/1@2',
          'put /p/2@2',
          'put /p/3@2',
          'put /p/4@3',
          'put /p/5@4',
          'put /p/6@4',
          'put /p/7@5',
          'put /p/8@5',
          'put /p/9@5',
        ]);
        await kv.txn({ success: [put('/p/a'), put('/p/b')] }); // 6, live
        assert.deepEqual((await reader.take(2)).map(describeEvent), ['put /p/a@6', 'put /p/b@6']);
        assert.equal(await reader.next(30), 'timeout');
        const mid = new EventReader(kv.watch({ ...p, startRevision: 4 }));
        assert.deepEqual(
          (await mid.take(7)).map((ev) => ev.kv.modRevision),
          [4, 4, 5, 5, 5, 6, 6],
        );
        assert.equal(await mid.next(30), 'timeout');
      },
      { watchReplayPageSize: 2 },
    ));

  void it('reads at past revisions between txns see each txn whole', () =>
    withKv(open, async (kv) => {
      await threeTxns(kv);
      assert.deepEqual(await listAt(kv, '/r/', 1), ['/r/a=a1@1/1', '/r/b=b1@1/1', '/r/c=c1@1/1']);
      assert.deepEqual(await listAt(kv, '/r/', 2), ['/r/a=a2@1/2', '/r/c=c1@1/1', '/r/d=d1@2/2']);
      assert.deepEqual(await listAt(kv, '/r/', 3), ['/r/c=c2@1/3', '/r/d=d1@2/2']);
      assert.deepEqual(await listAt(kv, '/r/'), ['/r/c=c2@1/3', '/r/d=d1@2/2']);
      const r = span('/r/');
      const page = await kv.range({ ...r, revision: 1, limit: 2 });
      assert.deepEqual(
        [page.kvs.map(kvText), page.more, page.count],
        [['/r/a=a1@1/1', '/r/b=b1@1/1'], true, 3],
      );
      const next = await kv.range({ key: '/r/b\u0000', end: r.end, revision: 1, limit: 2 });
      assert.deepEqual([next.kvs.map(kvText), next.more, next.count], [['/r/c=c1@1/1'], false, 1]);
      assert.deepEqual((await kv.range({ key: '/r/b', revision: 1 })).kvs.map(kvText), ['/r/b=b1@1/1']);
      assert.equal((await kv.range({ key: '/r/b', revision: 2 })).count, 0);
      assert.deepEqual((await kv.range({ key: '/r/a', revision: 2 })).kvs.map(kvText), ['/r/a=a2@1/2']);
      assert.equal((await kv.range({ ...r, revision: 2, countOnly: true })).count, 3);
    }));

  void it('compaction after txns keeps every key state from the compact revision on', () =>
    withKv(open, async (kv) => {
      await threeTxns(kv);
      await kv.compact(2);
      const r = span('/r/');
      await assert.rejects(kv.range({ ...r, revision: 1 }), KvCompactedError);
      assert.throws(() => kv.watch({ ...r, startRevision: 2 }), KvCompactedError);
      assert.deepEqual(await listAt(kv, '/r/', 2), ['/r/a=a2@1/2', '/r/c=c1@1/1', '/r/d=d1@2/2']);
      assert.deepEqual(await listAt(kv, '/r/', 3), ['/r/c=c2@1/3', '/r/d=d1@2/2']);
      const reader = new EventReader(kv.watch({ ...r, startRevision: 3, prevKv: true }));
      const events = await reader.take(2);
      assert.deepEqual(events.map(describeEvent), ['put /r/c@3 (prev 1)', 'delete /r/a@3 (prev 2)']);
      assert.deepEqual(
        events.map((ev) => text(ev.prevKv!.value)),
        ['c1', 'a2'],
      );
      await kv.compact(3);
      assert.deepEqual(await listAt(kv, '/r/', 3), ['/r/c=c2@1/3', '/r/d=d1@2/2']);
      const res = await kv.txn({ success: [put('/r/c', 'c3'), put('/r/b', 'b2')] }); // 4
      assert.deepEqual(res.responses.map(describeResult), [
        'put /r/c=c3@1/4 (prev /r/c=c2@1/3)',
        'put /r/b=b2@4/4',
      ]);
      assert.deepEqual((await reader.take(2)).map(describeEvent), ['put /r/c@4 (prev 3)', 'put /r/b@4']);
    }));

  void it('revoking a lease deletes all its keys at one revision, seen live and from history', () =>
    withKv(open, async (kv) => {
      const l = span('/l/');
      const lease = await kv.grantLease(60);
      const res = await kv.txn({
        success: [put('/l/a', '1', lease.id), put('/l/b', '1', lease.id), put('/l/c')],
      }); // 1
      assert.deepEqual(res.responses.map(describeResult), [
        'put /l/a=1@1/1~lease',
        'put /l/b=1@1/1~lease',
        'put /l/c=1@1/1',
      ]);
      const live = new EventReader(kv.watch({ ...l, prevKv: true }));
      await kv.revokeLease(lease.id); // 2
      const expected = ['delete /l/a@2 (prev 1)', 'delete /l/b@2 (prev 1)'];
      assert.deepEqual((await live.take(2)).map(describeEvent), expected);
      const replay = new EventReader(kv.watch({ ...l, startRevision: 2, prevKv: true }));
      assert.deepEqual((await replay.take(2)).map(describeEvent), expected);
      assert.equal(await kv.currentRevision(), 2);
      assert.deepEqual(await listAt(kv, '/l/'), ['/l/c=1@1/1']);
      assert.equal((await kv.range({ ...l, revision: 1, countOnly: true })).count, 3);
      assert.equal(await live.next(30), 'timeout');
    }));
}
