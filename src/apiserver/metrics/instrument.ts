/**
 * The instrumentation around each handler (upstream InstrumentRouteFunc / InstrumentHandlerFunc
 * and RecordLongRunning): once the handler is done, its status code and the time since the
 * request arrived go to `apiserver_request_total` and `apiserver_request_duration_seconds`; a
 * long-running request (watch, connect) is counted in `apiserver_longrunning_requests` while it
 * runs. As upstream, a watch's duration is its whole life, and only requests that reached a
 * handler are recorded (not 401/403 from the filters, nor paths no endpoint serves).
 *
 * Per request: a handful of string comparisons, one key string, two map lookups and the updates
 * of two cached prom-client children (about 2 µs in all, most of it prom-client hashing the
 * children's labels); label sets and cells are made once.
 */
import type { ResourceInfo } from '../../apis/resource.js';
import type { RequestContext } from '../context.js';
import { writeError } from '../response.js';
import { longRunningRequests, requestDuration, requestTotal } from './definitions.js';
import type { CounterCell, GaugeCell, HistogramCell } from '../../util/metrics.js';
import { dryRunOf, reportedVerb, scopeOf, subresourceOf } from './labels.js';

export const apiServerComponent = 'apiserver';

class Series {
  readonly #labels: readonly string[];
  readonly duration: HistogramCell;
  readonly #codes = new Map<number, CounterCell>();

  constructor(labels: readonly string[]) {
    this.#labels = labels;
    this.duration = requestDuration.cell(...labels);
  }

  code(code: number): CounterCell {
    let cell = this.#codes.get(code);
    if (cell === undefined) {
      cell = requestTotal.cell(...this.#labels, String(code));
      this.#codes.set(code, cell);
    }
    return cell;
  }
}

const series = new Map<string, Series>();
const longRunning = new Map<string, GaugeCell>();

function verbOf(ctx: RequestContext, scope: string): string {
  const type = ctx.method === 'PATCH' ? ctx.req.headers['content-type'] : undefined;
  return reportedVerb(ctx.method, scope, ctx.info, typeof type === 'string' ? type : undefined);
}

/**
 * Runs `handle` (answering its error as the handler would) and records the request: a resource
 * request to a served endpoint, or with `healthPath` one of the health paths, which upstream
 * records with the path as subresource and component "".
 */
export async function instrument(
  ctx: RequestContext,
  healthPath: string | undefined,
  handle: () => Promise<void>,
): Promise<void> {
  const i = ctx.info;
  const scope = scopeOf(i);
  const verb = verbOf(ctx, scope);
  const resource = healthPath === undefined;
  const sub = resource ? subresourceOf(i) : healthPath;
  const gvr = resource ? `${i.group}/${i.version}/${i.resource}/${sub}` : `///${sub}`;
  let gauge: GaugeCell | undefined;
  if (ctx.longRunning) {
    const key = `${verb} ${gvr} ${scope}`;
    gauge = longRunning.get(key);
    if (gauge === undefined) {
      gauge = longRunningRequests.cell(verb, i.group, i.version, i.resource, sub, scope, apiServerComponent);
      longRunning.set(key, gauge);
    }
    gauge.inc();
  }
  try {
    await handle();
  } catch (err) {
    writeError(ctx.res, err);
  } finally {
    gauge?.dec();
  }
  const dryRun = dryRunOf(ctx.url);
  const key = `${verb} ${dryRun} ${gvr} ${scope}`;
  let s = series.get(key);
  if (s === undefined) {
    s = resource
      ? new Series([verb, dryRun, i.group, i.version, i.resource, sub, scope, apiServerComponent])
      : new Series([verb, dryRun, '', '', '', sub, scope, '']);
    series.set(key, s);
  }
  s.duration.observe(Number(process.hrtime.bigint() - ctx.received) / 1e9);
  s.code(ctx.res.statusCode ?? 200).inc();
}

/** A request refused by the in-flight limit (upstream RecordDroppedRequest): counted with 429. */
export function recordDropped(ctx: RequestContext): void {
  const i = ctx.info;
  const r = i.isResourceRequest;
  const scope = scopeOf(i);
  requestTotal
    .cell(
      verbOf(ctx, scope),
      dryRunOf(ctx.url),
      r ? i.group : '',
      r ? i.version : '',
      r ? i.resource : '',
      subresourceOf(i),
      scope,
      apiServerComponent,
      '429',
    )
    .inc();
}

/** Whether `endpoint` has the subresource (the router answers 404 for any other). */
export function servesSubresource(endpoint: ResourceInfo, subresource: string): boolean {
  if (subresource === '') return true;
  if (subresource === 'status') return endpoint.statusSubresource === true;
  if (subresource === 'scale') return endpoint.scale !== undefined;
  return endpoint.extraSubresources?.some((s) => s.name === subresource && s.computed !== true) ?? false;
}
