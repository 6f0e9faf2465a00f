/**
 * The run scaffolding the workload controllers share: a work queue whose failures are reported
 * with the controller's label and the key, waiting for informers to sync (or the signal to
 * abort), and running a number of workers over the queue.
 */
import type { SharedInformer } from '../../client/shared-informer.js';
import { WorkQueue } from '../../client/workqueue.js';
import type { Clock } from '../../util/clock.js';
import { errorMessage } from './objects.js';

/**
 * A work queue that reports each failure of a key to `onError` as
 * `new Error(\`${label} ${key}: ${message}\`, { cause })`; without `onError`, failures are only retried.
 * Its delays (requeue-after, failure backoff) wait on `clock` (default: the real clock).
 */
export function controllerQueue(
  label: string,
  onError: ((err: unknown) => void) | undefined,
  clock?: Clock,
): WorkQueue {
  return new WorkQueue({
    ...(onError !== undefined
      ? {
          onError: (err: unknown, key: string) =>
            onError(new Error(`${label} ${key}: ${errorMessage(err)}`, { cause: err })),
        }
      : {}),
    ...(clock !== undefined ? { clock } : {}),
  });
}

/**
 * Resolves true once every informer has synced, false when one of them did not or `signal`
 * aborted first (or is aborted by then). The abort listener is removed once it settles.
 */
export async function informersSynced(
  informers: readonly Pick<SharedInformer, 'synced'>[],
  signal: AbortSignal,
): Promise<boolean> {
  if (signal.aborted) return false;
  let onAbort: (() => void) | undefined;
  try {
    const synced = await Promise.race([
      Promise.all(informers.map((i) => i.synced)).then((r) => r.every(Boolean)),
      new Promise<boolean>((resolve) => {
        onAbort = () => resolve(false);
        signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    return synced && !signal.aborted;
  } finally {
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}

/**
 * Runs `Math.max(1, count)` workers, each processing keys of `queue` with `sync` until `signal`
 * aborts (see WorkQueue.run for what `sync` resolves).
 */
export async function runWorkers(
  queue: WorkQueue,
  count: number,
  sync: (key: string) => Promise<number | undefined>,
  signal: AbortSignal,
): Promise<void> {
  await Promise.all(Array.from({ length: Math.max(1, count) }, () => queue.run(sync, signal)));
}
