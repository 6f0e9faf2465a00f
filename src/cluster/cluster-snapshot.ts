/**
 * A cluster's snapshot as the library hands it out: taken in memory (restoring it costs no
 * decoding), and as bytes for a file, which `restore` and `nanokube snapshot restore` take back.
 */
import { decodeSnapshot, encodeSnapshot } from '../cmd/serve/snapshot.js';
import type { KvSnapshot } from '../storage/kv/types.js';

export class ClusterSnapshot {
  readonly #kv: KvSnapshot;

  /** @internal */
  constructor(kv: KvSnapshot) {
    this.#kv = kv;
  }

  /** Reads a snapshot from `bytes()` output or a `nanokube snapshot save` file. */
  static fromBytes(bytes: Uint8Array): ClusterSnapshot {
    return new ClusterSnapshot(decodeSnapshot(bytes));
  }

  /** The resourceVersion the cluster was at. */
  get resourceVersion(): string {
    return String(this.#kv.revision);
  }

  /** Stored keys: objects plus the allocators' records. */
  get keys(): number {
    return this.#kv.kvs.length;
  }

  /** The snapshot in the file format `nanokube snapshot` reads and writes. */
  bytes(): Uint8Array {
    return encodeSnapshot(this.#kv);
  }

  /** @internal */
  get kv(): KvSnapshot {
    return this.#kv;
  }
}
