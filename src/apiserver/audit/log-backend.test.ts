/** The audit log backend (AM-17): JSON lines, lumberjack rotation, errors that never throw. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { AuditEvent } from './event.js';
import { AuditLogBackend } from './log-backend.js';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'nanokube-audit-'));
  dirs.push(d);
  return d;
}

function event(i: number, pad = 0): AuditEvent {
  return {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'Metadata',
    auditID: `id-${i}`,
    stage: 'ResponseComplete',
    requestURI: `/api/v1/namespaces/default/configmaps/${'x'.repeat(pad)}`,
    verb: 'get',
    user: { username: 'alice' },
    requestReceivedTimestamp: '2026-01-01T00:00:00.000000Z',
    stageTimestamp: '2026-01-01T00:00:00.000001Z',
  };
}

/** A clock that moves one second per call (each rotation gets its own backup name). */
function ticking(start: number): () => Date {
  let t = start;
  return () => new Date((t += 1000));
}

const backupName = /^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log$/;

test('AM-17: one JSON line per event, appended; the file is created 0600', async () => {
  const dir = tempDir();
  const path = join(dir, 'logs', 'audit.log');
  const log = new AuditLogBackend({ path });
  await log.open();
  assert.equal(statSync(path).mode & 0o777, 0o600);
  for (let i = 0; i < 3; i++) assert.equal(log.process(event(i)), true);
  await log.close();
  const lines = readFileSync(path, 'utf8').split('\n');
  assert.equal(lines.pop(), '');
  assert.deepEqual(
    lines.map((l) => (JSON.parse(l) as AuditEvent).auditID),
    ['id-0', 'id-1', 'id-2'],
  );
  assert.equal(log.written, 3);
});

test('AM-17: rotation as lumberjack: renamed to name-<UTC time>.ext before the file would pass maxsize', async () => {
  const dir = tempDir();
  const path = join(dir, 'audit.log');
  const log = new AuditLogBackend({ path, maxSize: 1, now: ticking(Date.UTC(2026, 0, 1)) });
  await log.open();
  // ~10 KiB per event, 250 events: about 2.5 MiB, so at least two rotations.
  for (let i = 0; i < 250; i++) log.process(event(i, 10_000));
  await log.close();
  const files = readdirSync(dir).sort();
  const backups = files.filter((f) => f !== 'audit.log');
  assert.ok(backups.length >= 2, `backups: ${files.join(', ')}`);
  for (const b of backups) assert.match(b, backupName);
  assert.ok(backups.includes('audit-2026-01-01T00-00-01.000.log'), backups.join(', '));
  // No file passes 1 MiB, and every event is in exactly one of them, in order.
  const ids: string[] = [];
  for (const f of [...backups, 'audit.log']) {
    assert.ok(statSync(join(dir, f)).size <= 1024 * 1024, `${f} is over the limit`);
    for (const line of readFileSync(join(dir, f), 'utf8')
      .split('\n')
      .filter((l) => l !== ''))
      ids.push((JSON.parse(line) as AuditEvent).auditID);
  }
  assert.deepEqual(
    ids,
    Array.from({ length: 250 }, (_, i) => `id-${i}`),
  );
});

test('AM-17: maxbackup keeps the newest backups; maxage removes the old ones', async () => {
  const dir = tempDir();
  const path = join(dir, 'audit.log');
  const log = new AuditLogBackend({ path, maxSize: 1, maxBackups: 1, now: ticking(Date.UTC(2026, 0, 1)) });
  await log.open();
  for (let i = 0; i < 250; i++) log.process(event(i, 10_000));
  await log.close();
  const backups = readdirSync(dir).filter((f) => f !== 'audit.log');
  assert.equal(backups.length, 1);
  // The newest survived: it holds later events than the first rotation would.
  const first = readFileSync(join(dir, backups[0]!), 'utf8').split('\n')[0]!;
  assert.notEqual((JSON.parse(first) as AuditEvent).auditID, 'id-0');

  const aged = tempDir();
  const agedPath = join(aged, 'audit.log');
  writeFileSync(join(aged, 'audit-2020-01-01T00-00-00.000.log'), 'old\n');
  writeFileSync(join(aged, 'audit-2025-12-31T12-00-00.000.log'), 'recent\n');
  writeFileSync(join(aged, 'unrelated.log'), 'keep\n');
  const agedLog = new AuditLogBackend({
    path: agedPath,
    maxSize: 1,
    maxAge: 1,
    now: ticking(Date.UTC(2026, 0, 1)),
  });
  await agedLog.open();
  for (let i = 0; i < 120; i++) agedLog.process(event(i, 10_000));
  await agedLog.close();
  const left = readdirSync(aged).sort();
  assert.ok(!left.includes('audit-2020-01-01T00-00-00.000.log'), left.join(', '));
  assert.ok(left.includes('audit-2025-12-31T12-00-00.000.log'), left.join(', '));
  assert.ok(left.includes('unrelated.log'));
});

test('AM-17: an existing file the next write would overflow is rotated first', async () => {
  const dir = tempDir();
  const path = join(dir, 'audit.log');
  writeFileSync(path, 'x'.repeat(1024 * 1024 - 10));
  const log = new AuditLogBackend({
    path,
    maxSize: 1,
    now: () => new Date(Date.UTC(2026, 5, 1, 2, 3, 4, 567)),
  });
  await log.open();
  log.process(event(1));
  await log.close();
  assert.equal(statSync(join(dir, 'audit-2026-06-01T02-03-04.567.log')).size, 1024 * 1024 - 10);
  assert.equal((JSON.parse(readFileSync(path, 'utf8')) as AuditEvent).auditID, 'id-1');
});

test('AM-17: write errors are reported and counted, never thrown; batch mode drops beyond its buffer', async () => {
  const dir = tempDir();
  const path = join(dir, 'audit.log');
  const errors: string[] = [];
  const log = new AuditLogBackend({ path, onError: (m) => errors.push(m) });
  // The path turns into a directory: every write fails.
  mkdirSync(path);
  log.process(event(1));
  log.process(event(2));
  await log.close();
  assert.equal(log.dropped, 2);
  assert.ok(
    errors.some((e) => e.startsWith('audit log write failed')),
    errors.join('\n'),
  );

  const batch = new AuditLogBackend({
    path: join(dir, 'b.log'),
    mode: 'batch',
    bufferSize: 2,
    onError: () => {},
  });
  // The first event goes to the writer at once; two more may wait while it writes.
  const accepted = [1, 2, 3, 4].map((i) => batch.process(event(i)));
  await batch.close();
  assert.deepEqual(accepted, [true, true, true, false]);
  assert.equal(batch.dropped, 1);
  assert.equal(batch.written, 3);
});

test("AM-17: '-' writes to standard output", async () => {
  const out: string[] = [];
  const log = new AuditLogBackend({ path: '-', stdout: (s) => out.push(s) });
  await log.open();
  log.process(event(7));
  await log.close();
  assert.equal((JSON.parse(out.join('')) as AuditEvent).auditID, 'id-7');
});
