/**
 * The allocators' refusals, with upstream's texts (pkg/registry/core/service/ipallocator/bitmap.go
 * and portallocator/allocator.go, v1.27).
 */

/** Every address or port of the range is taken. */
export class RangeFullError extends Error {
  override readonly name = 'RangeFullError';
  constructor() {
    super('range is full');
  }
}

/** The specific address or port asked for is taken. */
export class AlreadyAllocatedError extends Error {
  override readonly name = 'AlreadyAllocatedError';
  constructor(what: 'IP' | 'port') {
    super(`provided ${what} is already allocated`);
  }
}

/** The specific address or port asked for lies outside the range (`valid`: the range as text). */
export class NotInRangeError extends Error {
  override readonly name = 'NotInRangeError';
  readonly valid: string;
  constructor(what: 'IP' | 'port', valid: string) {
    super(`provided ${what} is not in the valid range. The range of valid ${what}s is ${valid}`);
    this.valid = valid;
  }
}
