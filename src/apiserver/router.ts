/** Routes a resource request to the handler of its verb, by what the endpoint can do. */
import { apiErrors } from '../machinery/errors.js';
import type { Handler, HandlerContext } from './endpoint.js';
import { addRequestWarnings } from './response.js';
import { handleCreate } from './handlers/create.js';
import { handleDelete, handleDeleteCollection } from './handlers/delete.js';
import { handleGet } from './handlers/get.js';
import { handleList } from './handlers/list.js';
import { handlePatch } from './handlers/patch.js';
import { handleScale } from './handlers/scale.js';
import { handleUpdate } from './handlers/update.js';
import { handleWatch } from './handlers/watch.js';

const verbs: Readonly<Record<string, Handler>> = {
  get: handleGet,
  list: handleList,
  watch: handleWatch,
  create: handleCreate,
  update: handleUpdate,
  patch: handlePatch,
  delete: handleDelete,
  deletecollection: handleDeleteCollection,
};

export async function routeResource(ctx: HandlerContext): Promise<void> {
  const { request, endpoint } = ctx;
  const info = endpoint.info;
  const gr = { group: info.group, resource: info.resource };
  if (info.deprecationWarning !== undefined) addRequestWarnings(ctx.res, [info.deprecationWarning]);
  if (!info.namespaced && request.namespace !== '' && info.resource !== 'namespaces')
    throw apiErrors.notFoundPath();
  if (info.namespaced && request.namespace === '' && request.verb !== 'list' && request.verb !== 'watch') {
    throw apiErrors.notFoundPath();
  }
  const sub = request.subresource;
  if (sub === 'scale') {
    if (info.scale === undefined) throw apiErrors.notFoundPath();
    return handleScale(ctx);
  }
  const extra = info.extraSubresources?.find((s) => s.name === sub);
  if (extra !== undefined) {
    // Computed subresources (pods/binding, pods/eviction) are answered before routing gets here.
    if (extra.computed === true) throw apiErrors.notFoundPath();
    if (!extra.verbs.includes(request.verb)) {
      throw apiErrors.methodNotSupported({ ...gr, resource: `${info.resource}/${sub}` }, request.verb);
    }
    if (request.verb === 'update') return handleUpdate(ctx);
    if (request.verb === 'patch') return handlePatch(ctx);
    return handleGet(ctx);
  }
  if (sub !== '') {
    if (sub !== 'status' || info.statusSubresource !== true) throw apiErrors.notFoundPath();
    if (request.verb === 'get') return handleGet(ctx);
    if (request.verb === 'update') return handleUpdate(ctx);
    if (request.verb === 'patch') return handlePatch(ctx);
    throw apiErrors.methodNotSupported({ ...gr, resource: `${info.resource}/status` }, request.verb);
  }
  const handler = verbs[request.verb];
  if (handler === undefined || !info.verbs.includes(request.verb)) {
    throw apiErrors.methodNotSupported(gr, request.verb === '' ? request.method : request.verb);
  }
  return handler(ctx);
}
