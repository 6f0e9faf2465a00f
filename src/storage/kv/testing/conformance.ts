/**
 * The one conformance suite every KvStore backend runs: etcd v3 semantics for writes, ranges,
 * compaction, watches and leases. Call it at the top level of a backend's test file.
 */
import { describe } from 'node:test';
import type { KvCapabilities, OpenKv } from './helpers.js';
import { registerLeaseCases } from './lease-cases.js';
import { registerRangeCases } from './range-cases.js';
import { registerSnapshotCases } from './snapshot-cases.js';
import { registerTxnCases } from './txn-cases.js';
import { registerWatchCases } from './watch-cases.js';
import { registerWriteCases } from './write-cases.js';

export type { KvCapabilities, OpenKv, OpenKvOptions } from './helpers.js';

/**
 * Registers the suite under `name`; `open` must return a new, empty store on every call, honouring
 * the options it is given.
 */
export function runKvConformance(name: string, open: OpenKv, capabilities: KvCapabilities = {}): void {
  void describe(`${name} kv conformance`, () => {
    void describe('writes', () => registerWriteCases(open, capabilities));
    void describe('ranges and compaction', () => registerRangeCases(open));
    void describe('watches', () => registerWatchCases(open));
    void describe('leases', () => registerLeaseCases(open));
    void describe('transactions', () => registerTxnCases(open, capabilities));
    if (capabilities.restore !== false) void describe('snapshots', () => registerSnapshotCases(open));
  });
}
