/**
 * The transaction rules shared by every backend (etcd Txn): evaluate the comparisons, validate the
 * chosen branch completely, then apply its ops in order. All writes share one revision, allocated by
 * the first write; a branch without writes allocates none. Validation throws before anything is
 * written, so a refused txn leaves no trace even inside a larger batch.
 */
import { KvDuplicateKeyError } from './errors.js';
import type { KeySpan } from './key-range.js';
import { keySpan } from './key-range.js';
import { compareHolds } from './txn-compare.js';
import type { KeyValue, TxnOp, TxnOpResult, TxnRequest, TxnResponse } from './types.js';
import type { KvWriteTarget } from './write-ops.js';
import { deletion, requireLease } from './write-ops.js';

/** A range read of the current state. */
export interface KvRangePage {
  readonly kvs: readonly KeyValue[];
  readonly more: boolean;
  readonly count: number;
}

/** A write target that can also report its revision and read ranges (what a txn needs). */
export interface KvTxnTarget extends KvWriteTarget {
  /** The revision of the state `get` and `range` see, including writes applied so far. */
  revision(): number;
  /** Keys of `span` in that state, in key order (`limit` <= 0: all). */
  range(span: KeySpan, limit: number, countOnly: boolean): KvRangePage;
}

/** Throws KvDuplicateKeyError when two writes of `ops` name the same key. */
function refuseDuplicateWrites(ops: readonly TxnOp[]): void {
  if (ops.length < 2) return;
  const written = new Set<string>();
  for (const op of ops) {
    if (op.type === 'range') continue;
    if (written.has(op.key)) throw new KvDuplicateKeyError(op.key);
    written.add(op.key);
  }
}

class TxnApplier {
  readonly #target: KvTxnTarget;
  #rev = 0;

  constructor(target: KvTxnTarget) {
    this.#target = target;
  }

  /** The txn's revision, allocated on first use. */
  #revision(): number {
    if (this.#rev === 0) this.#rev = this.#target.nextRevision();
    return this.#rev;
  }

  run(op: TxnOp): TxnOpResult {
    const t = this.#target;
    switch (op.type) {
      case 'put': {
        const current = t.get(op.key);
        const rev = this.#revision();
        const kv: KeyValue = {
          key: op.key,
          value: op.value,
          createRevision: current?.createRevision ?? rev,
          modRevision: rev,
          lease: op.lease ?? 0,
        };
        if (current === undefined) {
          t.apply({ type: 'put', kv });
          return { type: 'put', kv };
        }
        t.apply({ type: 'put', kv, prevKv: current });
        return { type: 'put', kv, prevKv: current };
      }
      case 'delete': {
        const current = t.get(op.key);
        if (current === undefined) return { type: 'delete', deleted: 0 };
        t.apply(deletion(current, this.#revision()));
        return { type: 'delete', deleted: 1, prevKv: current };
      }
      case 'range': {
        const page = t.range(keySpan(op.key, op.end), op.limit ?? 0, op.countOnly === true);
        return { type: 'range', kvs: page.kvs, more: page.more, count: page.count, revision: t.revision() };
      }
    }
  }
}

/** Runs `request` against `target` (inside the backend's write transaction). */
export function runTxn(target: KvTxnTarget, request: TxnRequest): TxnResponse {
  const success = request.success ?? [];
  const failure = request.failure ?? [];
  refuseDuplicateWrites(success);
  refuseDuplicateWrites(failure);
  const succeeded = (request.compare ?? []).every((c) => compareHolds(c, target.get(c.key)));
  const ops = succeeded ? success : failure;
  for (const op of ops) if (op.type === 'put') requireLease(target, op.lease ?? 0);
  const applier = new TxnApplier(target);
  const responses = ops.map((op) => applier.run(op));
  return { succeeded, revision: target.revision(), responses };
}
