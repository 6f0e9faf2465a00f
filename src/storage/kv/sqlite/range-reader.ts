/**
 * Range reads for the SQLite backend. At the current revision only the current-state table is read.
 * At a past revision R the result merges (a) live rows not modified after R, which are their own
 * state at R, and (b) for the few keys written after R (log rows with rev > R), their version at R:
 * the first such row's prev_rev names it, and it is fetched from the log by key and revision (a
 * revision may hold rows of several keys).
 */
import type { KeySpan } from '../key-range.js';
import type { KeyValue } from '../types.js';
import type { SqliteStatements } from './statements.js';

export interface RangeRead {
  readonly kvs: KeyValue[];
  readonly more: boolean;
  readonly count: number;
}

export interface RangeRequest {
  readonly span: KeySpan;
  /** The revision to read at (already validated). */
  readonly revision: number;
  readonly current: number;
  readonly limit: number;
  readonly countOnly: boolean;
}

function readCurrent(stmts: SqliteStatements, req: RangeRequest): RangeRead {
  if (req.countOnly) return { kvs: [], more: false, count: stmts.currentCount(req.span) };
  const kvs = stmts.currentPage(req.span, req.limit);
  const full = req.limit > 0 && kvs.length === req.limit;
  const count = full ? stmts.currentCount(req.span) : kvs.length;
  return { kvs, more: full && count > req.limit, count };
}

function readPast(stmts: SqliteStatements, req: RangeRequest): RangeRead {
  const changes = stmts.changesAfter(req.span, req.revision);
  // Keys written after R that existed at R, with the revision of their version at R.
  const existedAtRead: [string, number][] = [];
  let liveNow = 0;
  for (const [key, change] of changes) {
    if (change.liveNow) liveNow++;
    if (change.revisionAtRead > 0) existedAtRead.push([key, change.revisionAtRead]);
  }
  // Live rows not written after R are unchanged since R; the others are replaced by their old state.
  const count = stmts.currentCount(req.span) - liveNow + existedAtRead.length;
  if (req.countOnly) return { kvs: [], more: false, count };
  existedAtRead.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const unchanged = stmts.unchangedPage(req.span, req.revision, req.limit);
  const want = req.limit > 0 ? req.limit : Infinity;
  const kvs: KeyValue[] = [];
  let i = 0;
  let j = 0;
  while (kvs.length < want) {
    const a = unchanged[i];
    const b = existedAtRead[j];
    if (a === undefined && b === undefined) break;
    if (b === undefined || (a !== undefined && a.key < b[0])) {
      kvs.push(a!);
      i++;
      continue;
    }
    j++;
    const old = stmts.versionAt(b[0], b[1]);
    if (old !== undefined) kvs.push(old);
  }
  return { kvs, more: req.limit > 0 && count > req.limit, count };
}

export function readRange(stmts: SqliteStatements, req: RangeRequest): RangeRead {
  return req.revision >= req.current ? readCurrent(stmts, req) : readPast(stmts, req);
}
