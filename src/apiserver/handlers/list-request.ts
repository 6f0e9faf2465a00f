/** Decodes list/watch query parameters into a ListRequest. */
import { apiErrors } from '../../machinery/errors.js';
import type { ListRequest } from '../../registry/options.js';
import { queryString } from '../endpoint.js';

export function listRequestOf(url: URL): ListRequest {
  const limitText = queryString(url, 'limit');
  let limit: number | undefined;
  if (limitText !== undefined && limitText !== '') {
    limit = Number(limitText);
    if (!Number.isInteger(limit))
      throw apiErrors.badRequest(`limit: Invalid value: "${limitText}": must be an integer`);
  }
  const r: { -readonly [K in keyof ListRequest]: ListRequest[K] } = {};
  const labelSelector = queryString(url, 'labelSelector');
  if (labelSelector !== undefined) r.labelSelector = labelSelector;
  const fieldSelector = queryString(url, 'fieldSelector');
  if (fieldSelector !== undefined) r.fieldSelector = fieldSelector;
  const cont = queryString(url, 'continue');
  if (cont !== undefined) r.continue = cont;
  const rv = queryString(url, 'resourceVersion');
  if (rv !== undefined) r.resourceVersion = rv;
  const match = queryString(url, 'resourceVersionMatch');
  if (match !== undefined) r.resourceVersionMatch = match;
  if (limit !== undefined) r.limit = limit;
  return r;
}
