/** The one clock time-based behaviour of the simulated nodes and the scheduler reads. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
