/**
 * The clock a cluster runs on, as its user sees it. `'real'`: wall time, and `advance` refuses. A
 * manual clock starts at the wall time (or the given instant) and moves only when advanced: every
 * timer and sleep in the cluster whose time has come fires then, earliest first (CronJob
 * schedules, Lease renewals and expiry, node heartbeats, Job deadlines, TTL-after-finished,
 * controllers' retry back-offs), and what the server stamps and checks (creation and deletion
 * timestamps, token expiry, Event TTLs) reads it.
 */
import { FakeClock, realClock } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { durationMs } from './duration.js';
import type { Duration } from './duration.js';

export type ClockOption = 'real' | 'manual' | { readonly manual: Date | number };

export interface ClusterClock {
  /** `'manual'` when the cluster's time moves only through `advance`. */
  readonly mode: 'real' | 'manual';
  /** The cluster's time. */
  now(): Date;
  /**
   * Moves a manual clock forward by `by` (milliseconds or Go duration text such as `'10m'`) and
   * fires what became due; then yields to the event loop once so their first reactions start.
   * A real clock cannot be moved: it throws.
   */
  advance(by: Duration): Promise<void>;
}

/**
 * What the fired timers started gets to run before the next fire: a turn of the event loop, then
 * until the API server has answered every request in flight (at most 100 ms), then another turn
 * for the watches to carry the writes to informers.
 */
async function settle(quiet: () => Promise<void>): Promise<void> {
  await new Promise((r) => setImmediate(r));
  await quiet();
  await new Promise((r) => setImmediate(r));
}

/** The clock the cluster's parts read, and its user-facing view. */
export function clusterClock(
  option: ClockOption | undefined,
  quiet: () => Promise<void>,
): { clock: Clock; view: ClusterClock } {
  if (option === undefined || option === 'real') {
    return {
      clock: realClock,
      view: {
        mode: 'real',
        now: () => new Date(),
        advance: () =>
          Promise.reject(
            new Error("the cluster runs on the real clock: start it with clock: 'manual' to move time"),
          ),
      },
    };
  }
  const start = option === 'manual' ? Date.now() : new Date(option.manual).getTime();
  if (!Number.isFinite(start)) throw new TypeError('clock.manual: not a valid instant');
  const fake = new FakeClock(start);
  return {
    clock: fake,
    view: {
      mode: 'manual',
      now: () => new Date(fake.now()),
      async advance(by) {
        const target = fake.now() + durationMs(by);
        // Step from one due timer to the next, letting the cluster react in between: a node
        // heartbeating every 10 s beats sixty times in ten minutes, as it would in real time,
        // instead of once at the end (when the node lifecycle controller would already have
        // found it silent for ten minutes).
        // A bound on the steps, against something that keeps scheduling at "now".
        for (let steps = 0; steps < 100_000; steps++) {
          const next = fake.nextAt();
          if (next === undefined || next > target) break;
          fake.advance(Math.max(0, next - fake.now()));
          await settle(quiet);
        }
        fake.advance(target - fake.now());
        await settle(quiet);
      },
    },
  };
}
