/** Evaluation of one txn comparison against a key's current state, with etcd's rules. */
import type { KeyValue, TxnCompare, TxnCompareOperator, TxnNumberCompare } from './types.js';

function holds(order: number, operator: TxnCompareOperator): boolean {
  switch (operator) {
    case '=':
      return order === 0;
    case '!=':
      return order !== 0;
    case '<':
      return order < 0;
    case '>':
      return order > 0;
  }
}

function field(kv: KeyValue | undefined, target: TxnNumberCompare['target']): number {
  if (kv === undefined) return 0;
  switch (target) {
    case 'mod':
      return kv.modRevision;
    case 'create':
      return kv.createRevision;
    case 'lease':
      return kv.lease;
  }
}

/**
 * Whether `compare` holds for a key whose state is `kv` (undefined: absent). Numeric targets of an
 * absent key are 0; a value comparison on an absent key never holds.
 */
export function compareHolds(compare: TxnCompare, kv: KeyValue | undefined): boolean {
  if (compare.target === 'value') {
    return kv !== undefined && holds(Buffer.compare(kv.value, compare.value), compare.operator);
  }
  return holds(Math.sign(field(kv, compare.target) - compare.value), compare.operator);
}
