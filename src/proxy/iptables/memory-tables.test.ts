import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryTables, RestoreError } from './memory-tables.js';

const base = [
  '*nat',
  ':KUBE-SERVICES - [0:0]',
  ':KUBE-SVC-A - [0:0]',
  ':KUBE-SEP-A1 - [0:0]',
  '-A KUBE-SERVICES -m comment --comment "ns/a cluster IP" -m tcp -p tcp -d 10.96.0.10 --dport 80 -j KUBE-SVC-A',
  '-A KUBE-SVC-A -m comment --comment "ns/a -> 10.0.0.1:80" -j KUBE-SEP-A1',
  '-A KUBE-SEP-A1 -m tcp -p tcp -j DNAT --to-destination 10.0.0.1:80',
  'COMMIT',
  '',
].join('\n');

test('NW-06: a restore with --noflush creates and flushes only the chains it declares', async () => {
  const t = new MemoryTables();
  await t.restore(base);
  // A partial restore: KUBE-SVC-A rewritten, KUBE-SEP-A1 left as it is.
  await t.restore(['*nat', ':KUBE-SVC-A - [0:0]', '-A KUBE-SVC-A -j KUBE-SEP-A1', 'COMMIT', ''].join('\n'));
  assert.deepEqual(t.rules('nat', 'KUBE-SVC-A'), ['-A KUBE-SVC-A -j KUBE-SEP-A1']);
  assert.deepEqual(t.rules('nat', 'KUBE-SEP-A1'), [
    '-A KUBE-SEP-A1 -m tcp -p tcp -j DNAT --to-destination 10.0.0.1:80',
  ]);
  assert.equal(t.applied, 2);
  assert.ok(t.save().includes(':PREROUTING ACCEPT [0:0]'));
});

test('NW-12: a rule that jumps to a chain nobody created fails the whole restore', async () => {
  const t = new MemoryTables();
  await t.restore(base);
  const before = t.save();
  await assert.rejects(
    t.restore(['*nat', ':KUBE-SVC-A - [0:0]', '-A KUBE-SVC-A -j KUBE-MARK-MASQ', 'COMMIT', ''].join('\n')),
    (err: unknown) =>
      err instanceof RestoreError &&
      /chain KUBE-MARK-MASQ \(the target of a rule in KUBE-SVC-A\) does not exist/.test(err.message),
  );
  assert.equal(t.save(), before, 'nothing of a failed restore applies');
});

test('a chain is deleted only when flushed and no rule jumps to it', async () => {
  const t = new MemoryTables();
  await t.restore(base);
  await assert.rejects(t.restore('*nat\n-X KUBE-SEP-A1\nCOMMIT\n'), /is not empty/);
  await assert.rejects(t.restore('*nat\n:KUBE-SEP-A1 - [0:0]\n-X KUBE-SEP-A1\nCOMMIT\n'), /Too many links/);
  await t.restore('*nat\n:KUBE-SVC-A - [0:0]\n:KUBE-SEP-A1 - [0:0]\n-X KUBE-SEP-A1\nCOMMIT\n');
  assert.equal((await t.natChains()).has('KUBE-SEP-A1'), false);
  await assert.rejects(t.restore('*nat\n-X KUBE-SEP-A1\nCOMMIT\n'), /does not exist/);
  await assert.rejects(t.restore('*nat\n-A KUBE-NOPE -j ACCEPT\nCOMMIT\n'), /chain KUBE-NOPE does not exist/);
  await assert.rejects(t.restore('*raw\nCOMMIT\n'), /table 'raw' does not exist/);
  await assert.rejects(t.restore('*nat\n:KUBE-X - [0:0]\n'), /no COMMIT line/);
});

test('ensureJumps creates the proxy chains and jumps to them from the built-in chains once', async () => {
  const t = new MemoryTables();
  await t.ensureJumps();
  await t.ensureJumps();
  assert.deepEqual(t.rules('nat', 'OUTPUT'), [
    '-A OUTPUT -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
  ]);
  assert.deepEqual(t.rules('nat', 'POSTROUTING'), [
    '-A POSTROUTING -m comment --comment "kubernetes postrouting rules" -j KUBE-POSTROUTING',
  ]);
  assert.equal(t.rules('filter', 'INPUT').length, 4);
  assert.ok((await t.natChains()).has('KUBE-POSTROUTING'));
});
