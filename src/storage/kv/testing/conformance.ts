/**
 * The one conformance suite every KvStore backend runs: etcd v3 semantics for writes, ranges,
 * compaction, watches and leases. Call it at the top level of a backend's test file.
 */
import { describe } from 'node:test';
import type { OpenKv } from './helpers.js';
import { registerLeaseCases } from './lease-cases.js';
import { registerRangeCases } from './range-cases.js';
import { registerSnapshotCases } from './snapshot-cases.js';
import { registerTxnCases } from './txn-cases.js';
import { registerWatchCases } from './watch-cases.js';
import { registerWriteCases } from './write-cases.js';

export type { OpenKv, OpenKvOptions } from './helpers.js';

/**
 * Registers the suite under `name`; `open` must return a new, empty store on every call, honouring
 * the options it is given.
 */
export function runKvConformance(name: string, open: OpenKv): void {
  void describe(`${name} kv conformance`, () => {
    void describe('writes', () => registerWriteCases(open));
    void describe('ranges and compaction', () => registerRangeCases(open));
    void describe('watches', () => registerWatchCases(open));
    void describe('leases', () => registerLeaseCases(open));
    void describe('transactions', () => registerTxnCases(open));
    void describe('snapshots', () => registerSnapshotCases(open));
  });
}
