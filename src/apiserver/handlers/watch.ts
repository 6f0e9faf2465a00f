/**
 * Watch: a stream of JSON watch events, one per line (or length-prefixed protobuf WatchEvent frames),
 * over chunked HTTP/1.1 or an HTTP/2 stream.
 * Events come from storage in the storage version; each is converted to the served version and
 * serialized once, the bytes shared by every watcher (Table output is per watcher: it carries
 * column headers only in its first event). BOOKMARKs carry the store's progress.
 *
 * Delivery is pushed: the watch cache's fan-out hands each event to the watch's feed, which asks
 * for a flush; one setImmediate per event-loop turn flushes every watch with events, each writing
 * that turn's events as ONE chunk (their shared bytes, concatenated). No promise per event, one
 * abort listener per watch. When a write returns false the watch stops taking events until
 * 'drain': they wait in the watch cache, where a watch too far behind is cut off.
 */
import { watchInitialized } from '../flowcontrol/watch-initialization.js';
import { apiVersionOf } from '../../apis/resource.js';
import type { KubeObject } from '../../machinery/object.js';
import { openWatch } from '../../registry/generic/watch.js';
import type { WatchEvent, WatchFeed } from '../../registry/generic/watch.js';
import { ConvertingFeed } from '../../registry/converting-feed.js';
import type { EventFeed } from '../../registry/converting-feed.js';
import type { JsonObject } from '../../util/json.js';
import type { HandlerContext } from '../endpoint.js';
import { queryBool, queryInt, queryString } from '../endpoint.js';
import { builtinProtobuf } from '../../apis/protobuf.js';
import { protobufWatchMediaType } from '../../machinery/protobuf/serializer.js';
import { negotiateFor } from '../negotiate.js';
import { partialMetadata, toTable } from '../representation.js';
import { eventSizes, writeWatchEvents } from '../metrics/watch.js';
import type { EventSizes } from '../metrics/watch.js';
import { cancelResponse } from '../response.js';
import { listRequestOf } from './list-request.js';

/** Upstream's --min-request-timeout default: watches without timeoutSeconds last 30-60 minutes. */
const minRequestTimeoutSeconds = 1800;
const maxTimerMs = 2 ** 31 - 1;
/** A flush stops gathering events past this many bytes (the rest go in the next turn's write). */
const maxChunkBytes = 256 * 1024;

/**
 * Flush rounds start at most this often: under a stream of events each watch's write then carries
 * the events of several turns (a write per watch costs several times an event's share); an event
 * after a quiet spell is flushed in the next turn.
 */
const minFlushIntervalMs = 10;
/**
 * A round that took long is followed by a longer gap (twice its time, up to this): with a thousand
 * watches a round costs milliseconds, and back-to-back rounds would leave requests waiting behind
 * them; fewer, larger writes also cost less per event.
 */
const maxFlushIntervalMs = 40;

/**
 * The chunks joined in this round, by their first part: watches of one resource that were caught
 * up get the same events, encoded as the same shared Buffers, so the first watch's join is every
 * other watch's (compared part by part, by identity). Only a round's joins are kept, and only until
 * it ends: a watch also writes outside rounds (catching up after a full chunk or a 'drain', a
 * bookmark), and joins kept from those waited for the next round's end, which a server whose
 * watchers were only replaying initial events never reached (16 WatchList informers of 100 MiB of
 * Secrets left 145 MiB of event bytes held after they had synced).
 */
interface Joined {
  readonly parts: readonly Buffer[];
  readonly chunk: Buffer;
  readonly sizes: EventSizes;
}
let joinedThisRound = new Map<Buffer, Joined[]>();

function join(parts: readonly Buffer[], sizes: readonly number[]): Joined {
  const first = parts[0]!;
  const list = inRound ? joinedThisRound.get(first) : undefined;
  if (list !== undefined) for (const j of list) if (sameParts(j.parts, parts)) return j;
  const chunk = parts.length === 1 ? first : Buffer.concat(parts);
  const j: Joined = { parts: [...parts], chunk, sizes: eventSizes(sizes) };
  if (list !== undefined) list.push(j);
  else if (inRound) joinedThisRound.set(first, [j]);
  return j;
}

/** How many joins are kept now (tests: none once a round has ended and outside rounds). */
export function joinsKept(): number {
  let n = 0;
  for (const list of joinedThisRound.values()) n += list.length;
  return n;
}

function sameParts(a: readonly Buffer[], b: readonly Buffer[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A round runs in slices of about this long, other callbacks (requests, storage) running in
 * between: a round over a thousand watches takes several milliseconds, and a write waiting behind
 * whole rounds at every step of its way paid for each.
 */
const sliceMs = 4;

/** Watches with something to write: the next round's. */
let due: (() => void)[] = [];
/** The round in progress and how far it got. */
let round: (() => void)[] = [];
let roundIndex = 0;
let inRound = false;
let roundStart = 0;
let roundBusyMs = 0;
/** The next round's start is scheduled. */
let roundScheduled = false;
let nextRoundAt = -Infinity;

function scheduleRound(): void {
  roundScheduled = true;
  const wait = nextRoundAt - performance.now();
  if (wait <= 0) setImmediate(beginRound);
  else setTimeout(beginRound, wait);
}

function beginRound(): void {
  roundScheduled = false;
  inRound = true;
  round = due;
  due = [];
  roundIndex = 0;
  roundBusyMs = 0;
  roundStart = performance.now();
  continueRound();
}

function continueRound(): void {
  const t0 = performance.now();
  let now = t0;
  while (roundIndex < round.length) {
    round[roundIndex++]!();
    now = performance.now();
    if (now - t0 >= sliceMs) break;
  }
  roundBusyMs += now - t0;
  if (roundIndex < round.length) {
    setImmediate(continueRound);
    return;
  }
  inRound = false;
  round = [];
  joinedThisRound = new Map();
  nextRoundAt = roundStart + Math.min(maxFlushIntervalMs, Math.max(minFlushIntervalMs, 2 * roundBusyMs));
  if (due.length > 0) scheduleRound();
}

function scheduleFlush(flush: () => void): void {
  due.push(flush);
  if (!roundScheduled && !inRound) scheduleRound();
}

export async function handleWatch(ctx: HandlerContext): Promise<void> {
  const negotiated = negotiateFor(ctx.req.headers.accept, ctx.endpoint.info);
  const { store, info } = ctx.endpoint;
  const requested = queryInt(ctx.url, 'timeoutSeconds') ?? 0;
  // Upstream: 0 (or absent) means the server's randomized default.
  const timeout = requested !== 0 ? requested : Math.round(minRequestTimeoutSeconds * (1 + Math.random()));
  const controller = new AbortController();
  const onAbort = (): void => controller.abort();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  ctx.served.addEventListener('abort', onAbort, { once: true });
  // setTimeout fires at once past 2^31-1 ms: longer timeouts are capped there (about 24 days).
  const timer = setTimeout(onAbort, Math.min(Math.max(timeout, 0) * 1000, maxTimerMs));
  const bookmarks = queryBool(ctx.url, 'allowWatchBookmarks') === true;
  const sendInitial = queryString(ctx.url, 'sendInitialEvents');
  // Storage closed the watch because this client fell too far behind (it may not be reading).
  let stalled = false;
  let opened: WatchFeed;
  try {
    opened = await openWatch(
      store.hub,
      ctx.request.namespace,
      {
        ...store.listRequest(listRequestOf(ctx.url)),
        ...(sendInitial !== undefined ? { sendInitialEvents: sendInitial === 'true' } : {}),
        ...(bookmarks ? { allowWatchBookmarks: true } : {}),
        signal: controller.signal,
        onStalled: () => {
          stalled = true;
          controller.abort();
        },
      },
      ctx.features,
    );
  } catch (err) {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onAbort);
    ctx.served.removeEventListener('abort', onAbort);
    throw err;
  }
  // A conversion needing I/O (a CRD's webhook) runs before encoding; events then arrive converted.
  const feed: EventFeed = store.convertsAsync
    ? new ConvertingFeed(opened, (objects) => store.outMany(objects))
    : opened;
  const converted = store.convertsAsync ? (obj: KubeObject) => obj : (obj: KubeObject) => store.out(obj);
  // `as=PartialObjectMetadata`: every event's object (bookmarks too) is its metadata alone, as
  // upstream's watch Fixup transforms each one (client-go's metadata informers decode nothing else).
  const asMetadata = negotiated.as === 'metadata';
  const out = asMetadata
    ? (obj: KubeObject): JsonObject => partialMetadata(converted(obj), negotiated.asVersion)
    : converted;
  const res = ctx.res;
  const protobuf = negotiated.format === 'protobuf';
  res.writeHead(200, {
    'content-type': protobuf ? protobufWatchMediaType : 'application/json',
    'cache-control': 'no-cache, private',
  });
  res.flushHeaders?.();
  // The watch is set up and its initial events are in its feed: its APF seat is released.
  watchInitialized(ctx.req);
  const apiVersion = apiVersionOf(info);
  let headersSent = false;
  const includeObject = queryString(ctx.url, 'includeObject') ?? 'Metadata';
  // A WatchList's periodic BOOKMARKs start after the one that ends its initial events.
  let initialEventsSent = !(sendInitial === 'true' && bookmarks);
  const suffix = ` ${apiVersion}${protobuf ? ' protobuf' : ''}${asMetadata ? ` metadata ${negotiated.asVersion}` : ''}`;
  const keyAdded = `ADDED${suffix}`;
  const keyModified = `MODIFIED${suffix}`;
  const keyDeleted = `DELETED${suffix}`;
  const encode = (ev: WatchEvent): Buffer => {
    const data = ev.type === 'ADDED' || ev.type === 'MODIFIED' || ev.type === 'DELETED';
    if (data && negotiated.as === 'table') {
      const obj = converted(ev.object as KubeObject);
      const object = toTable([obj], { resourceVersion: obj.metadata.resourceVersion ?? '' }, negotiated, {
        convertor: store.table,
        includeObject,
        noHeaders: headersSent,
      });
      headersSent = true;
      return Buffer.from(`${JSON.stringify({ type: ev.type, object })}\n`, 'utf8');
    }
    if (ev.type === 'BOOKMARK') {
      initialEventsSent = true;
      return frame('BOOKMARK', bookmarkObject(ev.object));
    }
    if (!data) return frame(ev.type, ev.object);
    const key = ev.type === 'ADDED' ? keyAdded : ev.type === 'MODIFIED' ? keyModified : keyDeleted;
    // Every watcher after the first finds the event's bytes made: no closure, no string.
    const made = ctx.watch.encoder.cached(ev.object, key);
    if (made !== undefined) return made;
    if (protobuf) {
      return ctx.watch.encoder.encodeBytes(ev.object, key, () =>
        builtinProtobuf.encodeWatchEvent(ev.type, out(ev.object as KubeObject)),
      );
    }
    return ctx.watch.encoder.encode(
      ev.object,
      key,
      () => `${JSON.stringify({ type: ev.type, object: out(ev.object as KubeObject) })}\n`,
    );
  };
  const frame = (type: string, object: JsonObject): Buffer =>
    protobuf
      ? Buffer.from(builtinProtobuf.encodeWatchEvent(type, object))
      : Buffer.from(`${JSON.stringify({ type, object })}\n`, 'utf8');
  const bookmarkObject = (object: JsonObject): JsonObject =>
    asMetadata
      ? { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${negotiated.asVersion}`, ...object }
      : { kind: info.kind, apiVersion, ...object };
  const bookmark = (resourceVersion: string): Buffer =>
    frame('BOOKMARK', bookmarkObject({ metadata: { resourceVersion } }));

  // The chunks of the write being gathered, and their sizes (the events metric counts them).
  const chunks: Buffer[] = [];
  const sizes: number[] = [];
  let closed = false;
  /** A write returned false: nothing more is taken until 'drain'. */
  let blocked = false;
  /** This watch is in `due` (its flush will run this turn). */
  let scheduled = false;
  /** A bookmark tick came: send one once idle. */
  let bookmarkDue = false;
  let settle!: (err?: unknown) => void;
  const ended = new Promise<void>((resolve, reject) => {
    settle = (err) =>
      err === undefined
        ? resolve()
        : reject(err instanceof Error ? err : new Error('watch failed', { cause: err }));
  });
  const push = (chunk: Buffer): void => {
    chunks.push(chunk);
    sizes.push(chunk.byteLength);
  };
  /** Writes the gathered chunks as one; false when the response wants a 'drain' first. */
  const write = (): boolean => {
    const joined = join(chunks, sizes);
    const ok = writeWatchEvents(res, joined.chunk, joined.sizes);
    chunks.length = 0;
    sizes.length = 0;
    if (!ok) {
      blocked = true;
      res.once('drain', onDrain);
    }
    return ok;
  };
  const finish = (err?: unknown): void => {
    if (closed) return;
    closed = true;
    clearTimeout(timer);
    if (ticks !== undefined) clearInterval(ticks);
    ctx.signal.removeEventListener('abort', onAbort);
    ctx.served.removeEventListener('abort', onAbort);
    controller.signal.removeEventListener('abort', onEnd);
    res.off('drain', onDrain);
    feed.listen(undefined);
    controller.abort();
    feed.close();
    // A client too far behind is cut off (upstream's watch cache does the same; it watches again
    // from its last resourceVersion). Ending the stream politely would wait for it to read.
    try {
      if (stalled) cancelResponse(res);
      else res.end();
    } catch (endErr) {
      err ??= endErr;
    }
    settle(err);
  };
  const onEnd = (): void => finish();
  const schedule = (): void => {
    if (scheduled || closed || blocked) return;
    scheduled = true;
    scheduleFlush(flush);
  };
  /** More to write now (a full chunk was written, or the client read): next turn, not next round. */
  const resume = (): void => {
    if (scheduled || closed || blocked) return;
    scheduled = true;
    setImmediate(flush);
  };
  const onDrain = (): void => {
    blocked = false;
    resume();
  };
  const sendBookmark = (): void => {
    store.hub.currentRevision().then(
      (revision) => {
        if (closed || blocked) return;
        // Events came meanwhile: the bookmark follows them.
        if (scheduled) {
          bookmarkDue = true;
          return;
        }
        try {
          push(bookmark(String(revision)));
          write();
        } catch (err) {
          finish(err);
        }
      },
      (err: unknown) => finish(err),
    );
  };
  function flush(): void {
    scheduled = false;
    if (closed || blocked) return;
    try {
      let bytes = 0;
      while (bytes < maxChunkBytes) {
        const ev = feed.take();
        if (ev === undefined) break;
        const chunk = encode(ev);
        push(chunk);
        bytes += chunk.byteLength;
      }
      if (chunks.length > 0 && !write()) return;
      if (bytes >= maxChunkBytes) {
        resume();
        return;
      }
      if (feed.done) {
        finish();
        return;
      }
      if (bookmarkDue && feed.busy !== true) {
        // Idle here means every event the store committed so far has reached this watch (fan-out
        // and history replay are synchronous, and this runs in a later macrotask than any of
        // them), so the store's revision is this watch's progress.
        bookmarkDue = false;
        sendBookmark();
      }
    } catch (err) {
      chunks.length = 0;
      sizes.length = 0;
      finish(err);
    }
  }
  const ticks = bookmarks
    ? setInterval(() => {
        if (!initialEventsSent || blocked || closed) return;
        bookmarkDue = true;
        schedule();
      }, ctx.watch.bookmarkIntervalMs)
    : undefined;
  controller.signal.addEventListener('abort', onEnd, { once: true });
  feed.listen(schedule);
  if (controller.signal.aborted) finish();
  else schedule();
  return ended;
}
