/**
 * Shared informers by collection path: every controller asking for the same path gets the same
 * informer, so a process runs one LIST+WATCH (or WatchList, per `useWatchList`) per path however
 * many handlers it has.
 */
import { setMaxListeners } from 'node:events';
import { SharedInformer } from './shared-informer.js';
import type { ListWatchClient, SharedInformerOptions } from './shared-informer.js';

export interface InformerFactoryOptions extends Omit<SharedInformerOptions, 'path' | 'onError'> {
  readonly client: ListWatchClient;
  /** Failures of any informer, with its path. */
  readonly onError?: (err: unknown, path: string) => void;
}

export class SharedInformerFactory {
  readonly #o: InformerFactoryOptions;
  readonly #informers = new Map<string, SharedInformer>();
  readonly #runs: Promise<void>[] = [];
  #stop: AbortController | undefined;

  constructor(o: InformerFactoryOptions) {
    this.#o = o;
  }

  /** The informer of `path` (created on first use; started at once if the factory runs). */
  informerFor(path: string): SharedInformer {
    let informer = this.#informers.get(path);
    if (informer === undefined) {
      const { onError, ...rest } = this.#o;
      informer = new SharedInformer({
        ...rest,
        path,
        ...(onError !== undefined ? { onError: (err: unknown) => onError(err, path) } : {}),
      });
      this.#informers.set(path, informer);
      if (this.#stop !== undefined) this.#run(informer, this.#stop.signal);
    }
    return informer;
  }

  /** Runs every informer, including those asked for later, until `signal` aborts. */
  start(signal: AbortSignal): void {
    if (this.#stop !== undefined) throw new Error('the informer factory is already started');
    // One listener on the caller's signal; the informers' watches and waits listen on ours.
    const stop = new AbortController();
    setMaxListeners(0, stop.signal);
    const onAbort = (): void => stop.abort();
    if (signal.aborted) stop.abort();
    else signal.addEventListener('abort', onAbort, { once: true });
    this.#stop = stop;
    this.#runs.push(
      new Promise<void>((resolve) => {
        stop.signal.addEventListener('abort', () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        });
      }),
    );
    for (const informer of this.#informers.values()) this.#run(informer, stop.signal);
  }

  /** Resolves true once every informer asked for so far has synced, false if one stopped first. */
  async waitForSync(): Promise<boolean> {
    const results = await Promise.all([...this.#informers.values()].map((i) => i.synced));
    return results.every((ok) => ok);
  }

  /** Resolves when the factory's signal has aborted and every informer has stopped. */
  async stopped(): Promise<void> {
    await Promise.all(this.#runs);
  }

  #run(informer: SharedInformer, signal: AbortSignal): void {
    this.#runs.push(informer.run(signal).catch((err: unknown) => this.#o.onError?.(err, informer.path)));
  }
}
