/**
 * The client side of WatchList (KEP-3157, alpha in v1.27; AM-02): how an informer asks for the
 * state of a collection as a watch stream, recognises the BOOKMARK that ends the initial events,
 * and tells a server that refuses the request from other failures.
 *
 * A WatchList request is `watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&
 * allowWatchBookmarks=true[&resourceVersion=RV]`: the server streams a state at least as new as
 * RV (a consistent read without one) as ADDED events, one BOOKMARK annotated
 * `k8s.io/initial-events-end: "true"` carrying that state's resourceVersion, then the changes
 * after it. A server whose `WatchList` gate is off (v1.27's default) answers 422 Invalid.
 */
import { isJsonObject } from '../util/json.js';
import type { JsonObject } from '../util/json.js';
import { ApiError } from './api-error.js';

/**
 * How an informer fills its store:
 *  - `'never'`: LIST (in pages), then WATCH from the list's resourceVersion;
 *  - `'auto'`: WatchList, falling back to LIST+WATCH for the rest of the run when the server
 *    refuses it (client-go v1.27's reflector with `ENABLE_CLIENT_GO_WATCH_LIST_ALPHA`);
 *  - `'always'`: WatchList only; a refusal is a failure like any other (reported, retried after
 *    the backoff).
 */
export type WatchListMode = 'auto' | 'never' | 'always';

/** The environment variable client-go v1.27 reads to turn WatchList on (any non-empty value). */
export const watchListEnvVar = 'ENABLE_CLIENT_GO_WATCH_LIST_ALPHA';

/**
 * The mode of an informer given none: `'auto'` when `ENABLE_CLIENT_GO_WATCH_LIST_ALPHA` is set
 * (non-empty), else `'never'`, as client-go v1.27. Off by default because the server's gate is:
 * otherwise every informer start against a default server would cost a refused request.
 */
export function defaultWatchListMode(env: Readonly<Record<string, string | undefined>>): WatchListMode {
  return (env[watchListEnvVar] ?? '') !== '' ? 'auto' : 'never';
}

/** The annotation of the BOOKMARK that ends the initial events. */
export const initialEventsEndAnnotation = 'k8s.io/initial-events-end';

/** The query of a WatchList request from `resourceVersion` ('' for a consistent read). */
export function watchListQuery(resourceVersion: string, timeoutSeconds: number): string {
  return (
    'watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true' +
    (resourceVersion !== '' ? `&resourceVersion=${encodeURIComponent(resourceVersion)}` : '') +
    `&timeoutSeconds=${timeoutSeconds}`
  );
}

/** Whether a BOOKMARK's object marks the end of the initial events. */
export function isInitialEventsEndBookmark(obj: JsonObject): boolean {
  const meta = obj['metadata'];
  if (!isJsonObject(meta)) return false;
  const annotations = meta['annotations'];
  return isJsonObject(annotations) && annotations[initialEventsEndAnnotation] === 'true';
}

/**
 * Whether a WatchList request failed because the server does not offer WatchList: 422 Invalid
 * (the gate is off, or a server before v1.27 rejecting `resourceVersionMatch` on a watch), as
 * client-go's `apierrors.IsInvalid` fallback.
 */
export function isWatchListRefusal(err: unknown): boolean {
  return err instanceof ApiError && err.code === 422;
}

/** The ApiError an ERROR event's Status stands for. */
export function statusError(status: JsonObject): ApiError {
  const code = typeof status['code'] === 'number' ? status['code'] : 500;
  return new ApiError(code, JSON.stringify(status));
}

/**
 * Whether an ERROR event says the requested resourceVersion cannot be served: 410 Expired/Gone,
 * or the 504 "Too large resource version" (cause `ResourceVersionTooLarge`, or the message of
 * servers before that cause), after which client-go asks again without a resourceVersion.
 */
export function isResourceVersionUnavailable(status: JsonObject): boolean {
  const code = status['code'];
  if (code === 410) return true;
  if (code !== 504) return false;
  const details = status['details'];
  const causes = isJsonObject(details) && Array.isArray(details['causes']) ? details['causes'] : [];
  for (const cause of causes) {
    if (!isJsonObject(cause)) continue;
    if (cause['reason'] === 'ResourceVersionTooLarge' || cause['message'] === 'Too large resource version') {
      return true;
    }
  }
  const message = status['message'];
  return typeof message === 'string' && message.includes('Too large resource version');
}
