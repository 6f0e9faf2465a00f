/**
 * Simulated container logs: what `kubectl logs` shows for a pod on a simulated node.
 * Deterministic: line n of a container is written n seconds after the container started, so any
 * window (sinceTime, tailLines, limitBytes) is a pure function of the pod and the time.
 */

export interface SimulatedLogOptions {
  readonly namespace: string;
  readonly pod: string;
  readonly container: string;
  readonly node: string;
  /** When the container (instance) started, ms. */
  readonly startedAt: number;
  /** Lines up to this time, ms. */
  readonly now: number;
  readonly timestamps?: boolean;
  /** Only lines at or after this time, ms. */
  readonly sinceMs?: number;
  readonly tailLines?: number;
  readonly limitBytes?: number;
}

/** RFC 3339 with nanoseconds, as the kubelet's timestamps prefix. */
export function rfc3339Nano(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 19)}.${iso.slice(20, 23)}000000Z`;
}

/** Line `n` (from 1) of the simulated log, with its newline. */
export function simulatedLogLine(o: SimulatedLogOptions, n: number): string {
  const text = `simulated log line ${n} from container ${o.container} of pod ${o.namespace}/${o.pod} on node ${o.node}`;
  return `${o.timestamps === true ? `${rfc3339Nano(o.startedAt + n * 1000)} ` : ''}${text}\n`;
}

/** The number of lines written by `now` (one per second after start). */
export function simulatedLineCount(startedAt: number, now: number): number {
  return Math.max(0, Math.floor((now - startedAt) / 1000));
}

/** The log as the kubelet would return it for these options. */
export function simulatedLogs(o: SimulatedLogOptions): string {
  const last = simulatedLineCount(o.startedAt, o.now);
  let first = 1;
  if (o.sinceMs !== undefined) first = Math.max(first, Math.ceil((o.sinceMs - o.startedAt) / 1000));
  if (o.tailLines !== undefined) first = Math.max(first, last - o.tailLines + 1);
  let out = '';
  for (let n = first; n <= last; n++) out += simulatedLogLine(o, n);
  if (o.limitBytes !== undefined) out = Buffer.from(out).subarray(0, o.limitBytes).toString();
  return out;
}
