/**
 * Reads that name a resourceVersion newer than the store has reached wait a little for it
 * (upstream's watchCache.waitUntilFreshAndBlock: 3 s), then answer 504 "Too large resource
 * version" with a one-second retry hint.
 */
import { apiErrors } from '../../machinery/errors.js';

/** Upstream's blockTimeout. */
export const freshnessTimeoutMs = 3000;
/** Upstream's resourceVersionTooHighRetrySeconds. */
const retryAfterSeconds = 1;
const pollMs = 10;

export interface RevisionSource {
  currentRevision(): Promise<number>;
  /** Resolves with the revision once it reaches `revision` or the time is up (else polled). */
  waitForRevision?(revision: number, timeoutMs: number, signal?: AbortSignal): Promise<number>;
}

export interface FreshnessOptions {
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/**
 * Resolves with the source's current revision once it is at least `revision`; throws upstream's
 * 504 Timeout when it is still behind after the timeout (or when `signal` aborts while waiting).
 */
export async function waitUntilFresh(
  source: RevisionSource,
  revision: number,
  options: FreshnessOptions = {},
): Promise<number> {
  let current = await source.currentRevision();
  if (current >= revision) return current;
  const timeoutMs = options.timeoutMs ?? freshnessTimeoutMs;
  if (source.waitForRevision !== undefined) {
    current = await source.waitForRevision(revision, timeoutMs, options.signal);
    if (current >= revision) return current;
    throw apiErrors.tooLargeResourceVersion(revision, current, retryAfterSeconds);
  }
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && options.signal?.aborted !== true) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    current = await source.currentRevision();
    if (current >= revision) return current;
  }
  throw apiErrors.tooLargeResourceVersion(revision, current, retryAfterSeconds);
}
