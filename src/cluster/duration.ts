/** Durations as the library takes them: milliseconds, or Go's duration text ('10m', '1h30m', '250ms'). */
import { parseGoDuration } from '../util/go-duration.js';

export type Duration = number | string;

/** Milliseconds of `d`; a TypeError for negative, non-finite or malformed durations. */
export function durationMs(d: Duration): number {
  let ms: number;
  if (typeof d === 'number') ms = d;
  else {
    try {
      ms = parseGoDuration(d);
    } catch (err) {
      throw new TypeError(err instanceof Error ? err.message : String(err));
    }
  }
  if (!Number.isFinite(ms) || ms < 0) throw new TypeError(`invalid duration ${JSON.stringify(d)}`);
  return ms;
}
