/**
 * `apiserver_current_inflight_requests` as upstream's max-in-flight filter feeds it: the highest
 * number of requests holding a read-only or a mutating slot seen in the last second (a watermark
 * published and reset every second), not an instantaneous count. The gauge is the process's, as
 * upstream's: with two servers in one process (tests), the last to publish shows.
 */
import type { GaugeCell } from '../../util/metrics.js';
import { currentInflightRequests } from './definitions.js';

const publishPeriodMs = 1000;

export class InflightWatermark {
  readonly #readOnly: GaugeCell = currentInflightRequests.cell('readOnly');
  readonly #mutating: GaugeCell = currentInflightRequests.cell('mutating');
  #readOnlyMax = 0;
  #mutatingMax = 0;
  #timer: NodeJS.Timeout | undefined;

  /** Notes the number of requests in flight of a kind (on entry and on exit of each). */
  record(mutating: boolean, inFlight: number): void {
    if (mutating) {
      if (inFlight > this.#mutatingMax) this.#mutatingMax = inFlight;
    } else if (inFlight > this.#readOnlyMax) this.#readOnlyMax = inFlight;
  }

  /** Publishes the watermarks every second from now on (both gauges start at 0). */
  start(): void {
    if (this.#timer !== undefined) return;
    this.#publish();
    this.#timer = setInterval(() => this.#publish(), publishPeriodMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #publish(): void {
    this.#readOnly.set(this.#readOnlyMax);
    this.#mutating.set(this.#mutatingMax);
    this.#readOnlyMax = 0;
    this.#mutatingMax = 0;
  }
}
