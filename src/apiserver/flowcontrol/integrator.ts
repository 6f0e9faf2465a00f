/**
 * Upstream's fairqueuing Integrator and the seat-demand statistics of apf_controller.go: the
 * time-weighted average, standard deviation and high watermark of a level's seat demand (seats in
 * use plus seats waiting) over one borrowing period, and the smoothed envelope the periodic seat
 * borrowing adjustment reads.
 */

export interface IntegratorResults {
  /** Seconds integrated over. */
  readonly duration: number;
  readonly average: number;
  readonly deviation: number;
  readonly min: number;
  readonly max: number;
}

export class Integrator {
  readonly #now: () => number;
  #last: number;
  #x = 0;
  #elapsed = 0;
  #integralX = 0;
  #integralXX = 0;
  #min = 0;
  #max = 0;

  /** `now` in seconds. */
  constructor(now: () => number) {
    this.#now = now;
    this.#last = now();
  }

  set(x: number): void {
    this.#update();
    this.#x = x;
    if (x < this.#min) this.#min = x;
    if (x > this.#max) this.#max = x;
  }

  #update(): void {
    const now = this.#now();
    const dt = now - this.#last;
    this.#last = now;
    this.#elapsed += dt;
    this.#integralX += this.#x * dt;
    this.#integralXX += this.#x * this.#x * dt;
  }

  /** The results since the last reset, and a new period from now. */
  reset(): IntegratorResults {
    this.#update();
    let average = Number.NaN;
    let deviation = Number.NaN;
    if (this.#elapsed > 0) {
      average = this.#integralX / this.#elapsed;
      const variance = this.#integralXX / this.#elapsed - average * average;
      deviation = variance >= 0 ? Math.sqrt(variance) : Number.NaN;
    }
    const results = { duration: this.#elapsed, average, deviation, min: this.#min, max: this.#max };
    this.#elapsed = 0;
    this.#integralX = 0;
    this.#integralXX = 0;
    this.#min = this.#x;
    this.#max = this.#x;
    return results;
  }
}

/** Half-life of five minutes at one update per 10 s (upstream seatDemandSmoothingCoefficient). */
const smoothingCoefficient = 0.977;

export class SeatDemandStats {
  avg = 0;
  stdDev = 0;
  highWatermark = 0;
  smoothed = 0;

  update(obs: IntegratorResults): void {
    this.highWatermark = obs.max;
    if (obs.duration <= 0) return;
    const deviation = Number.isNaN(obs.deviation) ? 0 : obs.deviation;
    this.avg = obs.average;
    this.stdDev = deviation;
    const envelope = obs.average + deviation;
    this.smoothed = Math.max(
      envelope,
      smoothingCoefficient * this.smoothed + (1 - smoothingCoefficient) * envelope,
    );
  }
}
