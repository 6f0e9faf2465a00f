/**
 * The API Priority and Fairness debug endpoints of kube-apiserver v1.27 (apf_controller_debug.go):
 * `/debug/api_priority_and_fairness/dump_priority_levels` (levels sorted by name, with their
 * dispatched, rejected, timed-out and cancelled totals), `dump_queues` and `dump_requests`
 * (`?includeRequestDetails=1` adds who and what), as Go's text/tabwriter lays them out
 * (minwidth 8, padding 1, cells joined by ",\t").
 */
import type { FlowController } from './controller.js';

export const debugPathPrefix = '/debug/api_priority_and_fairness/';

/** Width in code points, as Go's tabwriter counts runes. */
function runes(s: string): number {
  return s.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, '.').length;
}

/** Go's tabwriter (minwidth 8, tabwidth 0, padding 1, ' ', no flags) for lines of equal cell counts. */
export function tabwrite(lines: readonly string[][]): string {
  const widths: number[] = [];
  for (const cells of lines) {
    cells.slice(0, -1).forEach((c, i) => {
      widths[i] = Math.max(widths[i] ?? 8, runes(c) + 1);
    });
  }
  return lines
    .map((cells) =>
      cells.map((c, i) => (i < cells.length - 1 ? c.padEnd(widths[i]! - runes(c) + c.length) : c)).join(''),
    )
    .map((l) => `${l}\n`)
    .join('');
}

/** upstream row(): columns joined by ",\t", as cells of the tabwriter. */
function row(...columns: string[]): string[] {
  return columns.map((c, i) => (i < columns.length - 1 ? `${c},` : c));
}

/** SeatSeconds.String(): 8 decimals and "ss". */
export function seatSeconds(x: number): string {
  const fixed = BigInt(Math.max(0, Math.round(x * 1e8)));
  const quo = fixed / 100000000n;
  const rem = fixed - quo * 100000000n;
  return `${quo}.${rem.toString().padStart(8, '0')}ss`;
}

/** Go's time.Duration.String() for whole nanoseconds given in seconds (0 → "0s"). */
function duration(seconds: number): string {
  if (seconds === 0) return '0s';
  return `${seconds}s`;
}

/** Go's RFC3339Nano in UTC: trailing zeros of the fraction dropped. */
function rfc3339Nano(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.?0+Z$/, 'Z');
}

export function dumpPriorityLevels(fc: FlowController): string {
  const lines = [
    row(
      'PriorityLevelName',
      'ActiveQueues',
      'IsIdle',
      'IsQuiescing',
      'WaitingRequests',
      'ExecutingRequests',
      'DispatchedRequests',
      'RejectedRequests',
      'TimedoutRequests',
      'CancelledRequests',
    ),
  ];
  for (const name of [...fc.levels.keys()].sort()) {
    const s = fc.levels.get(name)!;
    if (s.queues === undefined) {
      lines.push(row(s.pl.name, ...Array<string>(9).fill('<none>')));
      continue;
    }
    const d = s.queues.dump();
    lines.push(
      row(
        s.pl.name,
        String(d.queues.filter((q) => q.requests.length > 0).length),
        String(s.queues.isIdle()),
        String(s.quiescing),
        String(d.waiting),
        String(d.executing),
        String(d.dispatched),
        String(d.rejected),
        String(d.timedout),
        String(d.cancelled),
      ),
    );
  }
  return tabwrite(lines);
}

export function dumpQueues(fc: FlowController): string {
  const lines = [
    row(
      'PriorityLevelName',
      'Index',
      'PendingRequests',
      'ExecutingRequests',
      'SeatsInUse',
      'NextDispatchR',
      'InitialSeatsSum',
      'MaxSeatsSum',
      'TotalWorkSum',
    ),
  ];
  for (const s of fc.levels.values()) {
    if (s.queues === undefined) {
      lines.push(row(s.pl.name, ...Array<string>(8).fill('<none>')));
      continue;
    }
    s.queues.dump().queues.forEach((q, i) => {
      lines.push(
        row(
          s.pl.name,
          String(i),
          String(q.requests.length),
          String(q.executingRequests),
          String(q.seatsInUse),
          seatSeconds(q.nextDispatchR),
          String(q.sums.initialSeats),
          String(q.sums.maxSeats),
          seatSeconds(q.sums.totalWork),
        ),
      );
    });
  }
  return tabwrite(lines);
}

export function dumpRequests(fc: FlowController, includeRequestDetails: boolean): string {
  const header = row(
    'PriorityLevelName',
    'FlowSchemaName',
    'QueueIndex',
    'RequestIndexInQueue',
    'FlowDistingsher',
    'ArriveTime',
    'InitialSeats',
    'FinalSeats',
    'AdditionalLatency',
  );
  const details = [
    'UserName',
    'Verb',
    'APIPath',
    'Namespace',
    'Name',
    'APIVersion',
    'Resource',
    'SubResource',
  ];
  // continueLine: the last cell of the first part is followed by ",\t" too.
  const lines = [
    includeRequestDetails ? [...header.slice(0, -1), `${header.at(-1)!},`, ...row(...details)] : header,
  ];
  for (const s of fc.levels.values()) {
    if (s.queues === undefined) continue;
    s.queues.dump().queues.forEach((q, iq) => {
      q.requests.forEach((r, ir) => {
        const w = r.workEstimate;
        const first = row(
          s.pl.name,
          r.o.fsName,
          String(iq),
          String(ir),
          r.o.flowDistinguisher,
          rfc3339Nano(performance.timeOrigin + r.arrivalTime * 1000),
          String(w.initialSeats),
          String(w.finalSeats),
          duration(w.additionalLatency),
        );
        if (!includeRequestDetails) {
          lines.push(first);
          return;
        }
        const i = r.o.info;
        lines.push([
          ...first.slice(0, -1),
          `${first.at(-1)!},`,
          ...row(
            r.o.user.name,
            i.isResourceRequest ? i.verb : i.method,
            i.path,
            i.namespace,
            i.name,
            i.group === '' ? i.version : `${i.group}/${i.version}`,
            i.resource,
            i.subresource,
          ),
        ]);
      });
    });
  }
  return tabwrite(lines);
}
