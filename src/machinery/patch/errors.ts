/**
 * PatchError: why a patch could not be applied, classified the way kube-apiserver's PATCH handler
 * turns it into a Status (400 undecodable patch, 413 too many operations, 422 failed application,
 * 500 with no reason for strategic-merge errors upstream passes through unconverted).
 */
import { StatusError, apiErrors } from '../errors.js';

export type PatchErrorKind = 'bad-request' | 'request-entity-too-large' | 'unprocessable' | 'unknown';

/** The message upstream's NewGenericServerResponse(422, ...) carries instead of the patch error. */
export const UNPROCESSABLE_MESSAGE = 'the server rejected our request due to an error in our request';

export class PatchError extends Error {
  override readonly name = 'PatchError';
  readonly kind: PatchErrorKind;

  constructor(kind: PatchErrorKind, message: string) {
    super(message);
    this.kind = kind;
  }

  /** The Status kube-apiserver v1.27 answers with for this error. */
  toStatusError(): StatusError {
    return patchErrorToStatusError(this);
  }
}

export function isPatchError(err: unknown): err is PatchError {
  return err instanceof PatchError;
}

/**
 * - bad-request: 400 BadRequest carrying the message (undecodable patch, bad directive format).
 * - request-entity-too-large: 413 (`Request entity too large: ...`).
 * - unprocessable: 422 Invalid with upstream's generic message and empty details; the detailed
 *   message is dropped exactly like NewGenericServerResponse drops it.
 * - unknown: 500 with no reason and the raw message (a plain Go error reaching the handler).
 */
export function patchErrorToStatusError(err: PatchError): StatusError {
  switch (err.kind) {
    case 'bad-request':
      return apiErrors.badRequest(err.message);
    case 'request-entity-too-large':
      return apiErrors.requestEntityTooLarge(err.message);
    case 'unprocessable':
      return new StatusError(422, 'Invalid', UNPROCESSABLE_MESSAGE, {});
    case 'unknown':
      return new StatusError(500, '', err.message);
  }
}
