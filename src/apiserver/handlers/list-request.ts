/** Decodes list/watch query parameters into a ListRequest. */
import type { ListRequest } from '../../registry/options.js';
import { queryInt, queryString } from '../endpoint.js';

export function listRequestOf(url: URL): ListRequest {
  const limit = queryInt(url, 'limit');
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
