/**
 * Upstream's watch initialization signal (utilflowcontrol.WithInitializationSignal /
 * WatchInitialized): a WATCH holds its priority level's seat only until the watch is set up and
 * its initial events are on their way; the watch handler signals that moment. Kept per request,
 * as upstream keeps it in the request's context.
 */

const signals = new WeakMap<object, () => void>();

export function withInitializationSignal(request: object, signal: () => void): void {
  signals.set(request, signal);
}

/** Tells API Priority and Fairness that the watch of `request` is initialized (no-op when none waits). */
export function watchInitialized(request: object): void {
  const signal = signals.get(request);
  if (signal === undefined) return;
  signals.delete(request);
  signal();
}
