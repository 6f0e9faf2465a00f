/** Typed storage errors; the registry translates them to API errors at one seam. */

export class KvCompactedError extends Error {
  override readonly name = 'KvCompactedError';
  readonly compactRevision: number;
  constructor(requested: number, compactRevision: number) {
    super(`required revision ${requested} has been compacted (compacted at ${compactRevision})`);
    this.compactRevision = compactRevision;
  }
}

export class KvFutureRevisionError extends Error {
  override readonly name = 'KvFutureRevisionError';
  readonly currentRevision: number;
  constructor(requested: number, currentRevision: number) {
    super(`required revision ${requested} is a future revision (current ${currentRevision})`);
    this.currentRevision = currentRevision;
  }
}

export class KvClosedError extends Error {
  override readonly name = 'KvClosedError';
  constructor() {
    super('storage is closed');
  }
}

export class KvLeaseNotFoundError extends Error {
  override readonly name = 'KvLeaseNotFoundError';
  constructor(id: number) {
    super(`lease ${id} not found`);
  }
}

/** A txn branch writes the same key twice (etcd: "duplicate key given in txn request"). */
export class KvDuplicateKeyError extends Error {
  override readonly name = 'KvDuplicateKeyError';
  readonly key: string;
  constructor(key: string) {
    super(`duplicate key given in txn request: ${JSON.stringify(key)}`);
    this.key = key;
  }
}
