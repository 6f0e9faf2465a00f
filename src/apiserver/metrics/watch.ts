/**
 * Watch metrics around the watch handler: `apiserver_registered_watchers` while a watch is served,
 * and per event sent `apiserver_watch_events_total` and `apiserver_watch_events_sizes`, labelled
 * with the served group, version and kind (upstream's serveWatch). The watch handler writes the
 * events of one event-loop turn (BOOKMARKs and ERRORs included, as upstream counts them) as one
 * chunk of a 200 response through `writeWatchEvents`, which tells their count and sizes (any other
 * write is one event); an event's size is the frame as sent (upstream measures the encoded object
 * without the event envelope, a few dozen bytes less).
 */
import type { ResourceInfo } from '../../apis/resource.js';
import type { CounterCell, GaugeCell, HistogramCell, HistogramSummary } from '../../util/metrics.js';
import type { ServerResponseLike } from '../response.js';
import { registeredWatchers, watchEventsSizes, watchEventsTotal } from './definitions.js';

interface WatchCells {
  readonly watchers: GaugeCell;
  readonly events: CounterCell;
  readonly sizes: HistogramCell;
}

const cells = new WeakMap<ResourceInfo, WatchCells>();

/** The sizes of watch events written together (`eventSizes`). */
export type EventSizes = HistogramSummary;

/** Summarizes the sizes of events to be written as one chunk (once, however many watches get it). */
export function eventSizes(sizes: readonly number[]): EventSizes {
  return watchEventsSizes.summarize(sizes);
}

/** The sizes of the events in the chunk being written by `writeWatchEvents`. */
let batch: EventSizes | undefined;

/** Writes several watch events as one chunk; they are counted as events, each with its size. */
export function writeWatchEvents(res: ServerResponseLike, chunk: Uint8Array, sizes: EventSizes): boolean {
  batch = sizes;
  try {
    return res.write(chunk);
  } finally {
    batch = undefined;
  }
}

function cellsFor(info: ResourceInfo): WatchCells {
  let c = cells.get(info);
  if (c === undefined) {
    const labels = [info.group, info.version, info.kind];
    c = {
      watchers: registeredWatchers.cell(...labels),
      events: watchEventsTotal.cell(...labels),
      sizes: watchEventsSizes.cell(...labels),
    };
    cells.set(info, c);
  }
  return c;
}

/** Serves a watch of `info` through `run`, counting it and the events it writes to `res`. */
export async function observeWatch(
  res: ServerResponseLike,
  info: ResourceInfo,
  run: () => Promise<void>,
): Promise<void> {
  const c = cellsFor(info);
  const write = res.write.bind(res);
  res.write = (chunk: string | Uint8Array): boolean => {
    const sizes = batch;
    batch = undefined;
    if (res.statusCode === 200 && sizes !== undefined) {
      c.events.inc(sizes.count);
      c.sizes.observeSummary(sizes);
    } else if (res.statusCode === 200) {
      c.events.inc();
      c.sizes.observe(typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength);
    }
    return write(chunk);
  };
  c.watchers.inc();
  try {
    await run();
  } finally {
    c.watchers.dec();
    res.write = write;
  }
}
