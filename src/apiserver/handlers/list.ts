/** GET on a collection. */
import type { ListMeta } from '../../machinery/object.js';
import type { HandlerContext } from '../endpoint.js';
import { queryString } from '../endpoint.js';
import { negotiateFor, isPrettyPrint } from '../negotiate.js';
import { representList } from '../representation.js';
import { isStreamableList, writeJsonListStream } from '../list-stream.js';
import { writeObject } from '../response.js';
import { auditResponseObject } from '../audit/recorder.js';
import { listRequestOf } from './list-request.js';

export async function handleList(ctx: HandlerContext): Promise<void> {
  const negotiated = negotiateFor(ctx.req.headers.accept, ctx.endpoint.info);
  const { store, info } = ctx.endpoint;
  const result = await store.list(ctx.request.namespace, listRequestOf(ctx.url));
  const meta: ListMeta = { resourceVersion: result.resourceVersion };
  if (result.continue !== undefined) meta.continue = result.continue;
  if (result.remainingItemCount !== undefined) meta.remainingItemCount = result.remainingItemCount;
  const body = representList(info, result.items, meta, negotiated, {
    convertor: store.table,
    includeObject: queryString(ctx.url, 'includeObject') ?? 'Metadata',
  });
  const pretty = isPrettyPrint(ctx.req);
  // Compact JSON lists (and PartialObjectMetadataLists) go out item by item; pretty,
  // YAML, protobuf and Table answers are written whole.
  if (negotiated.format === 'json' && !pretty && isStreamableList(body)) {
    auditResponseObject(ctx.res, body);
    // Items of the object form are made one for one from the listed objects: when those are the
    // watch cache's, the encodings it keeps serve them.
    const sources =
      negotiated.as === 'object' && result.encodings !== undefined
        ? { objects: result.items, encodings: result.encodings }
        : undefined;
    await writeJsonListStream(ctx.res, 200, body, {
      signal: ctx.signal,
      req: ctx.req,
      ...(sources !== undefined ? { sources } : {}),
    });
    return;
  }
  writeObject(ctx.res, 200, body, { format: negotiated.format, pretty });
}
