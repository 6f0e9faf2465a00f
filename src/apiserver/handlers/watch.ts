/** Watch: a stream of JSON watch events, one per line, over chunked HTTP/1.1 or an HTTP/2 stream. */
import { apiVersionOf } from '../../apis/resource.js';
import type { KubeObject } from '../../machinery/object.js';
import { openWatch } from '../../registry/generic/watch.js';
import type { WatchEvent } from '../../registry/generic/watch.js';
import type { JsonObject } from '../../util/json.js';
import type { HandlerContext } from '../endpoint.js';
import { queryBool, queryInt, queryString } from '../endpoint.js';
import { negotiateObject } from '../negotiate.js';
import { toTable } from '../representation.js';
import { listRequestOf } from './list-request.js';

/** Upstream's --min-request-timeout default: watches without timeoutSeconds last 30-60 minutes. */
const minRequestTimeoutSeconds = 1800;
const bookmarkIntervalMs = 60_000;
const maxTimerMs = 2 ** 31 - 1;

export async function handleWatch(ctx: HandlerContext): Promise<void> {
  const negotiated = negotiateObject(ctx.req.headers.accept);
  const { store, info } = ctx.endpoint;
  const requested = queryInt(ctx.url, 'timeoutSeconds') ?? 0;
  // Upstream: 0 (or absent) means the server's randomized default.
  const timeout = requested !== 0 ? requested : Math.round(minRequestTimeoutSeconds * (1 + Math.random()));
  const controller = new AbortController();
  const onAbort = (): void => controller.abort();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  // setTimeout fires at once past 2^31-1 ms: longer timeouts are capped there (about 24 days).
  const timer = setTimeout(onAbort, Math.min(Math.max(timeout, 0) * 1000, maxTimerMs));
  const bookmarks = queryBool(ctx.url, 'allowWatchBookmarks') === true;
  const sendInitial = queryString(ctx.url, 'sendInitialEvents');
  let events: AsyncIterable<WatchEvent>;
  try {
    events = await openWatch(
      store,
      ctx.request.namespace,
      {
        ...listRequestOf(ctx.url),
        ...(sendInitial !== undefined ? { sendInitialEvents: sendInitial === 'true' } : {}),
        ...(bookmarks ? { allowWatchBookmarks: true } : {}),
        signal: controller.signal,
      },
      ctx.features,
    );
  } catch (err) {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onAbort);
    throw err;
  }
  const res = ctx.res;
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache, private' });
  res.flushHeaders?.();
  let lastRV = ctx.url.searchParams.get('resourceVersion') ?? '';
  let headersSent = false;
  const includeObject = queryString(ctx.url, 'includeObject') ?? 'Metadata';
  const encode = (ev: WatchEvent): string => {
    let object: JsonObject = ev.object;
    if (
      negotiated.as === 'table' &&
      (ev.type === 'ADDED' || ev.type === 'MODIFIED' || ev.type === 'DELETED')
    ) {
      const obj = ev.object as KubeObject;
      object = toTable([obj], { resourceVersion: obj.metadata.resourceVersion ?? '' }, negotiated, {
        convertor: store.resource.table,
        includeObject,
        noHeaders: headersSent,
      });
      headersSent = true;
    }
    return `${JSON.stringify({ type: ev.type, object })}\n`;
  };
  const bookmarkTimer = bookmarks
    ? setInterval(() => {
        if (lastRV === '') return;
        const object = {
          kind: info.kind,
          apiVersion: apiVersionOf(info),
          metadata: { resourceVersion: lastRV },
        };
        res.write(`${JSON.stringify({ type: 'BOOKMARK', object })}\n`);
      }, bookmarkIntervalMs)
    : undefined;
  try {
    for await (const ev of events) {
      const rv = (ev.object as KubeObject).metadata?.resourceVersion;
      if (typeof rv === 'string') lastRV = rv;
      if (!res.write(encode(ev))) {
        await new Promise<void>((resolve) => {
          const done = (): void => {
            controller.signal.removeEventListener('abort', done);
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
    if (bookmarkTimer !== undefined) clearInterval(bookmarkTimer);
    ctx.signal.removeEventListener('abort', onAbort);
    controller.abort();
    res.end();
  }
}
