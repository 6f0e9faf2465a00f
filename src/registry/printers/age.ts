/**
 * Human-readable durations and ages, following apimachinery's util/duration
 * (HumanDuration, ShortHumanDuration) and the printers' translateTimestampSince.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Go's time.Time zero value, which metav1.Time.IsZero() reports as unset. */
const GO_ZERO_TIME_MS = Date.parse('0001-01-01T00:00:00Z');

/**
 * Parses an RFC 3339 timestamp (metav1.Time or MicroTime) to epoch milliseconds.
 * Returns undefined for absent, null, unparsable or Go-zero timestamps.
 */
export function parseTimestamp(v: unknown): number | undefined {
  if (typeof v !== 'string' || v === '') return undefined;
  const ms = Date.parse(v);
  if (Number.isNaN(ms) || ms === GO_ZERO_TIME_MS) return undefined;
  return ms;
}

/** ~2-3 significant figures of a duration given in milliseconds: "90s", "5m3s", "125m", "3h5m", "26h", "3d4h", "400d", "2y5d". */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.trunc(ms / MINUTE);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(ms / HOUR);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    const days = Math.trunc(hours / 24);
    return h === 0 ? `${days}d` : `${days}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const years = Math.trunc(hours / 24 / 365);
    const dy = Math.trunc(hours / 24) % 365;
    return dy === 0 ? `${years}y` : `${years}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/** One-unit duration: "45s", "3m", "5h", "12d", "2y". */
export function shortHumanDuration(ms: number): string {
  const seconds = Math.trunc(ms / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.trunc(ms / MINUTE);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.trunc(ms / HOUR);
  if (hours < 24) return `${hours}h`;
  if (hours < 24 * 365) return `${Math.trunc(hours / 24)}d`;
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/** Age of a timestamp relative to `now`, or "<unknown>" when the timestamp is unset. */
export function translateTimestampSince(v: unknown, now: Date): string {
  const ms = parseTimestamp(v);
  if (ms === undefined) return '<unknown>';
  return humanDuration(now.getTime() - ms);
}
