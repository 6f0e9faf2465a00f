/**
 * Upstream's kmsv2PluginProbe (v1.27 encryptionconfig): polls the plugin's Status, and when the
 * key ID it reports differs from the one the current DEK was sealed under, generates a new DEK
 * (rotation). A DEK whose key ID still matches has its write expiry moved on (3 minutes from the
 * check); on failures the server coasts on the old DEK until that expiry, then writes fail.
 * The check's answer is remembered for 20 s after success and 3 s after failure; the background
 * poll runs every minute, and every 10 s while failing.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../../../util/clock.js';
import { kmsAPIVersion } from './api.js';
import type { DekState } from './envelope.js';
import { generateDek, rfc3339 } from './envelope.js';
import { validateKeyID } from './encrypted-object.js';
import type { KmsService } from './grpc-service.js';

export interface ProbeTimings {
  readonly positiveTTLms: number;
  readonly negativeTTLms: number;
  readonly positiveIntervalMs: number;
  readonly negativeIntervalMs: number;
  readonly writeDEKMaxTTLms: number;
}

export const upstreamProbeTimings: ProbeTimings = {
  positiveTTLms: 20_000,
  negativeTTLms: 3_000,
  positiveIntervalMs: 60_000,
  negativeIntervalMs: 10_000,
  writeDEKMaxTTLms: 3 * 60_000,
};

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export class KmsV2Probe {
  readonly name: string;
  readonly #service: KmsService;
  readonly #clock: Clock;
  readonly #timings: ProbeTimings;
  #state: DekState | undefined;
  #last: { readonly error: Error | undefined; readonly at: number } | undefined;
  #ttl: number;
  #running: Promise<void> | undefined;

  constructor(options: {
    readonly name: string;
    readonly service: KmsService;
    readonly clock: Clock;
    readonly timings: ProbeTimings;
  }) {
    this.name = options.name;
    this.#service = options.service;
    this.#clock = options.clock;
    this.#timings = options.timings;
    this.#ttl = options.timings.negativeTTLms;
  }

  /** Upstream getCurrentState: the DEK state, or why there is none yet. */
  currentState(): DekState {
    const s = this.#state;
    if (s === undefined) throw new Error('got unexpected nil transformer');
    return s;
  }

  /** The health check: the last answer while it is fresh, otherwise a new Status call. */
  check(): Promise<void> {
    // One check at a time, like upstream's mutex.
    const run = (this.#running ?? Promise.resolve()).then(() => this.#check());
    this.#running = run.catch(() => {});
    return run;
  }

  async #check(): Promise<void> {
    const now = this.#clock.now();
    if (this.#last !== undefined && now - this.#last.at < this.#ttl) {
      if (this.#last.error !== undefined) throw this.#last.error;
      return;
    }
    let error: Error | undefined;
    try {
      const status = await this.#service.status().catch((err: unknown) => {
        throw new Error(
          `failed to perform status section of the healthz check for KMS Provider ${this.name}, error: ${message(err)}`,
        );
      });
      await this.#healthyAndMaybeRotate(status.healthz, status.version, status.keyId);
    } catch (err) {
      error = err instanceof Error ? err : new Error(String(err));
    }
    this.#last = { error, at: this.#clock.now() };
    this.#ttl = error === undefined ? this.#timings.positiveTTLms : this.#timings.negativeTTLms;
    if (error !== undefined) throw error;
  }

  async #healthyAndMaybeRotate(healthz: string, version: string, keyID: string): Promise<void> {
    const errs: string[] = [];
    if (healthz !== 'ok') errs.push(`got unexpected healthz status: ${healthz}`);
    if (version !== kmsAPIVersion) errs.push(`expected KMSv2 API version ${kmsAPIVersion}, got ${version}`);
    const keyErr = validateKeyID(keyID);
    if (keyErr !== undefined) errs.push(`got invalid KMSv2 KeyID ${JSON.stringify(keyID)}: ${keyErr}`);
    else {
      const rotateErr = await this.#rotateOnKeyIDChange(keyID, randomUUID());
      if (rotateErr !== undefined) errs.push(rotateErr);
    }
    if (errs.length > 0) {
      const msg = errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`;
      throw new Error(`kmsv2 Provider ${this.name} is not healthy, error: ${msg}`);
    }
  }

  /** Upstream rotateDEKOnKeyIDChange; returns the failure's message, if any. */
  async #rotateOnKeyIDChange(statusKeyID: string, uid: string): Promise<string | undefined> {
    const state = this.#state;
    const expiresAt = this.#clock.now() + this.#timings.writeDEKMaxTTLms;
    if (state !== undefined && state.keyID === statusKeyID) {
      this.#state = { ...state, expiresAt };
      return undefined;
    }
    let errGen = '<nil>';
    let encryptKeyID = '';
    try {
      const dek = await generateDek(this.#service, uid);
      encryptKeyID = dek.keyID;
      if (dek.keyID === statusKeyID) {
        this.#state = { ...dek, uid, expiresAt };
        return undefined;
      }
    } catch (err) {
      errGen = message(err);
    }
    const errState = state === undefined ? 'got unexpected nil transformer' : '<nil>';
    return (
      `failed to rotate DEK uid=${JSON.stringify(uid)}, errState=${errState}, errGen=${errGen}, ` +
      `statusKeyID=${JSON.stringify(statusKeyID)}, encryptKeyID=${JSON.stringify(encryptKeyID)}, ` +
      `stateKeyID=${JSON.stringify(state?.keyID ?? '')}, expirationTimestamp=${rfc3339(state?.expiresAt ?? -62135596800000)}`
    );
  }

  /**
   * Upstream's poll: every minute while healthy, every 10 s while failing, until `signal` aborts.
   * Failures are reported to `log`.
   */
  async poll(signal: AbortSignal, log: (err: Error) => void): Promise<void> {
    let interval = this.#timings.positiveIntervalMs;
    while (!signal.aborted) {
      await this.#clock.sleep(interval, signal);
      if (signal.aborted) return;
      try {
        await this.check();
        interval = this.#timings.positiveIntervalMs;
      } catch (err) {
        log(err instanceof Error ? err : new Error(String(err)));
        interval = this.#timings.negativeIntervalMs;
      }
    }
  }
}
