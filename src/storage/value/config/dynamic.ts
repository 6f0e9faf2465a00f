/**
 * `--encryption-provider-config-automatic-reload` (upstream's DynamicTransformers and its
 * encryption config controller): the file is watched; when its content hash changes it is loaded
 * again (KMS provider names must then be unique), the new providers' `kms-providers` check must
 * pass within max(10 s, 2 × their timeouts) polling every 100 ms, and only then are they swapped
 * in. The old providers (and their plugin connections) close after their own grace period. A file
 * that does not load, or providers that never turn healthy, leave the current ones in place and are
 * tried again with a growing delay.
 */
import type { FSWatcher } from 'node:fs';
import { watch } from 'node:fs';
import type { BuildOptions, EncryptionProviders, NamedHealthCheck } from './build.js';
import type { LoadedEncryptionConfig } from './load.js';
import { loadEncryptionConfig } from './load.js';
import type { GroupResource } from './types.js';
import type { Transformer } from '../transformer.js';

interface Current {
  readonly providers: EncryptionProviders;
  readonly contentHash: string;
  readonly stop: AbortController;
}

function text(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export interface DynamicOptions {
  readonly path: string;
  /** Build options without the signal: each loaded configuration gets its own. */
  readonly build: Omit<BuildOptions, 'signal' | 'reload'>;
  /** The server's lifetime: ends the watch and closes every provider. */
  readonly signal: AbortSignal;
  readonly log: (message: string) => void;
  /** Called after new providers were swapped in. */
  readonly onChange?: () => void;
}

export class DynamicEncryptionProviders {
  readonly #o: DynamicOptions;
  #current: Current;
  #watcher: FSWatcher | undefined;
  #queued = false;
  #draining = false;
  #retryMs = 0;
  #retryTimer: NodeJS.Timeout | undefined;
  /** Every configuration's lifetime that is not over yet; the server's end closes them all. */
  readonly #live = new Set<AbortController>();

  private constructor(o: DynamicOptions, current: Current) {
    this.#o = o;
    this.#current = current;
  }

  /** Loads the file (failures stop the server from starting) and starts watching it. */
  static async start(o: DynamicOptions): Promise<DynamicEncryptionProviders> {
    const stop = new AbortController();
    let loaded: LoadedEncryptionConfig;
    try {
      loaded = await DynamicEncryptionProviders.#load(o, stop.signal);
    } catch (err) {
      stop.abort();
      throw err;
    }
    const d = new DynamicEncryptionProviders(o, { ...loaded, stop });
    o.signal.addEventListener(
      'abort',
      () => {
        d.#watcher?.close();
        clearTimeout(d.#retryTimer);
        d.#current.stop.abort();
        for (const s of d.#live) s.abort();
      },
      { once: true },
    );
    d.#watch();
    // A change between the first load and the watch is not missed.
    d.#enqueue();
    return d;
  }

  static #load(o: DynamicOptions, signal: AbortSignal): Promise<LoadedEncryptionConfig> {
    return loadEncryptionConfig(o.path, { ...o.build, reload: true, signal });
  }

  transformerFor(gr: GroupResource): Transformer | undefined {
    return this.#current.providers.transformerFor(gr);
  }

  /** The one `kms-providers` check, always of the providers in use. */
  readonly healthCheck: NamedHealthCheck = {
    name: 'kms-providers',
    check: () => this.#current.providers.healthChecks[0]?.check() ?? Promise.resolve(),
  };

  #watch(): void {
    if (this.#o.signal.aborted) return;
    try {
      this.#watcher = watch(this.#o.path, (event) => {
        // An editor's or a Secret volume's atomic replace: watch the new file.
        if (event === 'rename') {
          this.#watcher?.close();
          this.#watcher = undefined;
          setTimeout(() => this.#watch(), 50).unref();
        }
        this.#enqueue();
      });
      this.#watcher.on('error', () => {
        this.#watcher?.close();
        this.#watcher = undefined;
        setTimeout(() => this.#watch(), 1000).unref();
      });
    } catch (err) {
      this.#o.log(`Failed to watch encryption config file, will retry later: ${text(err)}`);
      setTimeout(() => this.#watch(), 1000).unref();
      this.#enqueue();
    }
  }

  #enqueue(): void {
    if (this.#o.signal.aborted) return;
    this.#queued = true;
    if (this.#draining) return;
    this.#draining = true;
    void this.#drain().finally(() => {
      this.#draining = false;
    });
  }

  async #drain(): Promise<void> {
    while (this.#queued && !this.#o.signal.aborted) {
      this.#queued = false;
      const ok = await this.#process();
      if (ok) {
        this.#retryMs = 0;
        continue;
      }
      this.#retryMs = Math.min(Math.max(this.#retryMs * 2, 100), 60_000);
      clearTimeout(this.#retryTimer);
      this.#retryTimer = setTimeout(() => this.#enqueue(), this.#retryMs);
      this.#retryTimer.unref();
    }
  }

  /** One pass of upstream's processNextWorkItem; false when it should be retried. */
  async #process(): Promise<boolean> {
    const stop = new AbortController();
    this.#live.add(stop);
    stop.signal.addEventListener('abort', () => this.#live.delete(stop), { once: true });
    const fail = (message: string): false => {
      stop.abort();
      this.#o.log(`error processing encryption config file ${this.#o.path}: ${message}`);
      return false;
    };
    let loaded: LoadedEncryptionConfig;
    try {
      loaded = await DynamicEncryptionProviders.#load(this.#o, stop.signal);
    } catch (err) {
      return fail(text(err));
    }
    if (loaded.contentHash === this.#current.contentHash) {
      stop.abort();
      return true;
    }
    const check = loaded.providers.healthChecks[0];
    if (check === undefined || loaded.providers.healthChecks.length !== 1) {
      return fail(
        `unexpected number of healthz checks: ${loaded.providers.healthChecks.length}. Should have only one`,
      );
    }
    const grace = Math.max(10_000, 2 * loaded.providers.kmsTimeoutSumMs);
    const deadline = Date.now() + grace;
    let lastErr: unknown;
    for (;;) {
      try {
        await check.check();
        break;
      } catch (err) {
        lastErr = err;
      }
      if (Date.now() >= deadline || this.#o.signal.aborted) {
        return fail(
          `health check for new transformers failed, polling error timed out waiting for the condition: ${text(lastErr)}`,
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const old = this.#current;
    this.#current = { ...loaded, stop };
    this.#o.onChange?.();
    this.#o.log(`Loaded new kms encryption config content from ${this.#o.path}`);
    // In-flight calls of the old providers may still finish.
    setTimeout(() => old.stop.abort(), 2 * old.providers.kmsTimeoutSumMs).unref();
    return true;
  }
}
