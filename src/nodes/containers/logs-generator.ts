/**
 * agnhost `logs-generator`: <log-lines-total> lines spread evenly over <run-duration>, each
 * through klog to stderr (`I1202 10:54:42.123456       1 logs_generator.go:76] 0 GET
 * /api/v1/namespaces/kube-system/pods/abc 200`), then it exits 0. The method, namespace, pod name
 * and status are random in agnhost; here they come from a random source seeded per container run,
 * so a pod's log is the same each time it is read.
 */
const methods = ['GET', 'POST', 'PUT'];
const namespaces = ['kube-system', 'default', 'ns'];
/** apimachinery's rand.String alphabet (no vowels, no confusable digits). */
const alphanums = 'bcdfghjklmnpqrstvwxz2456789';

export interface LogsGeneratorFlags {
  readonly total: number;
  readonly durationMs: number;
}

/** Go's time.ParseDuration for the units a run duration uses (h, m, s, ms), e.g. `1m30s`. */
export function parseGoDuration(text: string): number | undefined {
  const re = /(\d+(?:\.\d+)?)(h|ms|m|s)/gy;
  let ms = 0;
  let at = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const n = Number(m[1]);
    ms += n * { h: 3_600_000, m: 60_000, s: 1000, ms: 1 }[m[2] as 'h' | 'm' | 's' | 'ms'];
    at = re.lastIndex;
  }
  return at === text.length && text !== '' ? ms : undefined;
}

/** Its flags (`--log-lines-total`/`-t`, `--run-duration`/`-d`); undefined when not valid. */
export function logsGeneratorFlags(flags: readonly string[]): LogsGeneratorFlags | undefined {
  const values = new Map<string, string>();
  for (let i = 0; i < flags.length; i++) {
    const m = /^--?([^=]+)(?:=(.*))?$/s.exec(flags[i]!);
    if (m === null) return undefined;
    const name = { t: 'log-lines-total', d: 'run-duration' }[m[1]!] ?? m[1]!;
    if (name !== 'log-lines-total' && name !== 'run-duration') return undefined;
    const value = m[2] ?? flags[++i];
    if (value === undefined) return undefined;
    values.set(name, value);
  }
  const total = Number(values.get('log-lines-total') ?? '0');
  const durationMs = parseGoDuration(values.get('run-duration') ?? '0s') ?? 0;
  // agnhost exits with klog.Fatalf on either: not followed.
  if (!Number.isInteger(total) || total <= 0 || durationMs <= 0) return undefined;
  return { total, durationMs };
}

/** klog's header time: `MMDD HH:MM:SS.uuuuuu` in UTC (the container's zone). */
function klogTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds() * 1000, 6)}`;
}

/** The lines it prints, at ms after its start (`startAt` is the pod clock's time then). */
export function logsGeneratorOutput(
  f: LogsGeneratorFlags,
  startAt: number,
  random: () => number,
): { at: number; text: string }[] {
  const intn = (n: number): number => random() % n;
  const delay = Math.floor(f.durationMs / f.total);
  const out: { at: number; text: string }[] = [];
  for (let id = 0; id < f.total; id++) {
    const at = id * delay;
    const method = methods[intn(methods.length)]!;
    const ns = namespaces[intn(namespaces.length)]!;
    let pod = '';
    for (let n = 3 + intn(2); n > 0; n--) pod += alphanums.charAt(intn(alphanums.length));
    const status = 200 + intn(400);
    const line = `${id} ${method} /api/v1/namespaces/${ns}/pods/${pod} ${status}`;
    out.push({ at, text: `I${klogTime(startAt + at)}       1 logs_generator.go:76] ${line}\n` });
  }
  return out;
}
