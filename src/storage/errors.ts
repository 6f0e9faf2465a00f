/** Typed errors of the object storage layer; the registry turns them into API errors. */

export type StorageErrorCode =
  | 'NotFound'
  | 'KeyExists'
  | 'ResourceVersionConflicts'
  /** A uid or resourceVersion precondition did not hold (upstream: an invalid-object error). */
  | 'PreconditionFailed'
  | 'InvalidObject'
  /** Stored bytes that do not decode. */
  | 'CorruptObject'
  /** A condition of a create's side writes did not hold; nothing was written. */
  | 'SideConditionFailed'
  | 'Expired'
  | 'TooLargeResourceVersion'
  | 'RequestTooLarge'
  | 'InvalidContinue'
  /** Stored bytes that could not be transformed (decrypted) or a value that could not be encrypted. */
  | 'InternalError';

export class StorageError extends Error {
  override readonly name = 'StorageError';
  readonly code: StorageErrorCode;
  readonly key: string;
  /** For TooLargeResourceVersion: the store's current revision; for Expired: the compacted one. */
  readonly revision: number;

  constructor(code: StorageErrorCode, key: string, message: string, revision = 0) {
    super(message);
    this.code = code;
    this.key = key;
    this.revision = revision;
  }
}
