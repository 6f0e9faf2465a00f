/**
 * Upstream ControllerExpectations / UIDTrackingControllerExpectations (v1.27): a controller that
 * created or deleted pods waits until its informer has seen them before acting on the same key
 * again, so it never over-creates; an expectation older than five minutes is given up on.
 */
import type { Clock } from './clock.js';

export const expectationsTimeoutMs = 5 * 60 * 1000;

interface Expectation {
  add: number;
  del: number;
  readonly timestamp: number;
  /** Keys of pods whose deletion is expected (UID-tracking deletions). */
  readonly deleting: Set<string>;
}

export class ControllerExpectations {
  readonly #clock: Clock;
  readonly #items = new Map<string, Expectation>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** SatisfiedExpectations: true when the controller may act on `key`. */
  satisfied(key: string): boolean {
    const e = this.#items.get(key);
    if (e === undefined) return true;
    if (e.add <= 0 && e.del <= 0) return true;
    return this.#clock.now() - e.timestamp > expectationsTimeoutMs;
  }

  expectCreations(key: string, n: number): void {
    this.#items.set(key, { add: n, del: 0, timestamp: this.#clock.now(), deleting: new Set() });
  }

  expectDeletions(key: string, podKeys: readonly string[]): void {
    this.#items.set(key, {
      add: 0,
      del: podKeys.length,
      timestamp: this.#clock.now(),
      deleting: new Set(podKeys),
    });
  }

  /** SetExpectations with both counts (the DaemonSet controller creates and deletes in one sync). */
  expect(key: string, creations: number, podKeys: readonly string[]): void {
    this.#items.set(key, {
      add: creations,
      del: podKeys.length,
      timestamp: this.#clock.now(),
      deleting: new Set(podKeys),
    });
  }

  /** LowerExpectations of creations: those never attempted. */
  lowerCreations(key: string, n: number): void {
    const e = this.#items.get(key);
    if (e !== undefined) e.add -= n;
  }

  creationObserved(key: string): void {
    const e = this.#items.get(key);
    if (e !== undefined) e.add--;
  }

  /** A pod of `key` is gone (or being deleted); counted once per pod. */
  deletionObserved(key: string, podKey: string): void {
    const e = this.#items.get(key);
    if (e !== undefined && e.deleting.delete(podKey)) e.del--;
  }

  delete(key: string): void {
    this.#items.delete(key);
  }
}
