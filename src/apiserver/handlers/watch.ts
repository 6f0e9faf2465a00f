/**
 * Watch: a stream of JSON watch events, one per line (or length-prefixed protobuf WatchEvent frames),
 * over chunked HTTP/1.1 or an HTTP/2 stream.
 * Events come from storage in the storage version; each is converted to the served version and
 * serialized once, the bytes shared by every watcher (Table output is per watcher: it carries
 * column headers only in its first event). BOOKMARKs carry the store's progress.
 */
import { apiVersionOf } from '../../apis/resource.js';
import type { KubeObject } from '../../machinery/object.js';
import { openWatch } from '../../registry/generic/watch.js';
import type { WatchEvent } from '../../registry/generic/watch.js';
import type { JsonObject } from '../../util/json.js';
import type { HandlerContext } from '../endpoint.js';
import { queryBool, queryInt, queryString } from '../endpoint.js';
import { builtinProtobuf } from '../../apis/protobuf.js';
import { protobufWatchMediaType } from '../../machinery/protobuf/serializer.js';
import { negotiateFor } from '../negotiate.js';
import { toTable } from '../representation.js';
import { cancelResponse } from '../response.js';
import { listRequestOf } from './list-request.js';

/** Upstream's --min-request-timeout default: watches without timeoutSeconds last 30-60 minutes. */
const minRequestTimeoutSeconds = 1800;
const maxTimerMs = 2 ** 31 - 1;

const TICK = Symbol('bookmark tick');

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
  let events: AsyncIterable<WatchEvent>;
  try {
    events = await openWatch(
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
  const res = ctx.res;
  const protobuf = negotiated.format === 'protobuf';
  res.writeHead(200, {
    'content-type': protobuf ? protobufWatchMediaType : 'application/json',
    'cache-control': 'no-cache, private',
  });
  res.flushHeaders?.();
  const apiVersion = apiVersionOf(info);
  let headersSent = false;
  const includeObject = queryString(ctx.url, 'includeObject') ?? 'Metadata';
  // A WatchList's periodic BOOKMARKs start after the one that ends its initial events.
  let initialEventsSent = !(sendInitial === 'true' && bookmarks);
  const encode = (ev: WatchEvent): string | Buffer => {
    const data = ev.type === 'ADDED' || ev.type === 'MODIFIED' || ev.type === 'DELETED';
    if (data && negotiated.as === 'table') {
      const obj = store.out(ev.object as KubeObject);
      const object = toTable([obj], { resourceVersion: obj.metadata.resourceVersion ?? '' }, negotiated, {
        convertor: store.table,
        includeObject,
        noHeaders: headersSent,
      });
      headersSent = true;
      return `${JSON.stringify({ type: ev.type, object })}\n`;
    }
    if (ev.type === 'BOOKMARK') {
      initialEventsSent = true;
      return frame('BOOKMARK', { kind: info.kind, apiVersion, ...ev.object });
    }
    if (!data) return frame(ev.type, ev.object);
    if (protobuf) {
      return ctx.watch.encoder.encodeBytes(ev.object, `${ev.type} ${apiVersion} protobuf`, () =>
        builtinProtobuf.encodeWatchEvent(ev.type, store.out(ev.object as KubeObject)),
      );
    }
    return ctx.watch.encoder.encode(
      ev.object,
      `${ev.type} ${apiVersion}`,
      () => `${JSON.stringify({ type: ev.type, object: store.out(ev.object as KubeObject) })}\n`,
    );
  };
  const frame = (type: string, object: JsonObject): string | Buffer =>
    protobuf
      ? Buffer.from(builtinProtobuf.encodeWatchEvent(type, object))
      : `${JSON.stringify({ type, object })}\n`;
  const bookmark = (resourceVersion: string): string | Buffer =>
    frame('BOOKMARK', { kind: info.kind, apiVersion, metadata: { resourceVersion } });
  let tick: (() => void) | undefined;
  const ticks = bookmarks ? setInterval(() => tick?.(), ctx.watch.bookmarkIntervalMs) : undefined;
  const it = events[Symbol.asyncIterator]();
  try {
    let pending: Promise<IteratorResult<WatchEvent>> | undefined;
    for (;;) {
      pending ??= it.next();
      const next = await Promise.race([
        pending,
        new Promise<typeof TICK>((resolve) => {
          tick = () => resolve(TICK);
          controller.signal.addEventListener('abort', tick, { once: true });
        }),
      ]);
      if (tick !== undefined) controller.signal.removeEventListener('abort', tick);
      tick = undefined;
      if (controller.signal.aborted) break;
      let chunk: string | Buffer;
      if (next === TICK) {
        if (!initialEventsSent) continue;
        // Idle here means every event the store committed so far has reached this watch (fan-out
        // and history replay are synchronous, and this runs in a later macrotask than any of them),
        // so the store's revision is this watch's progress.
        chunk = bookmark(String(await store.hub.currentRevision()));
      } else {
        pending = undefined;
        if (next.done === true) break;
        chunk = encode(next.value);
      }
      if (!res.write(chunk)) {
        await new Promise<void>((resolve) => {
          const done = (): void => {
            controller.signal.removeEventListener('abort', done);
            res.off('drain', done);
            resolve();
          };
          res.once('drain', done);
          controller.signal.addEventListener('abort', done, { once: true });
        });
      }
      if (controller.signal.aborted) break;
    }
  } finally {
    clearTimeout(timer);
    if (ticks !== undefined) clearInterval(ticks);
    ctx.signal.removeEventListener('abort', onAbort);
    ctx.served.removeEventListener('abort', onAbort);
    controller.abort();
    await it.return?.();
    // A client too far behind is cut off (upstream's watch cache does the same; it watches again
    // from its last resourceVersion). Ending the stream politely would wait for it to read.
    if (stalled) cancelResponse(res);
    else res.end();
  }
}
