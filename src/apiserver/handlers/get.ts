/** GET on a single object. */
import type { HandlerContext } from '../endpoint.js';
import { queryString } from '../endpoint.js';
import { negotiateFor, isPrettyPrint } from '../negotiate.js';
import { representObject } from '../representation.js';
import { writeObject } from '../response.js';

export async function handleGet(ctx: HandlerContext): Promise<void> {
  const negotiated = negotiateFor(ctx.req.headers.accept, ctx.endpoint.info);
  const { store } = ctx.endpoint;
  const obj = await store.get(
    ctx.request.namespace,
    ctx.request.name,
    queryString(ctx.url, 'resourceVersion'),
  );
  const body = representObject(obj, negotiated, {
    convertor: store.table,
    includeObject: queryString(ctx.url, 'includeObject') ?? 'Metadata',
  });
  writeObject(ctx.res, 200, body, { format: negotiated.format, pretty: isPrettyPrint(ctx.req) });
}
