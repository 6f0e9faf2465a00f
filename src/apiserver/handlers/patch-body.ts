/** Reading a PATCH body: a supported patch media type, JSON, bounded nesting. */
import { apiErrors } from '../../machinery/errors.js';
import { readBody } from '../body.js';
import type { ServerRequest } from '../body.js';
import { exceedsJsonDepth } from '../json-depth.js';
import { bodyMediaType } from '../negotiate.js';

export const patchTypes = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
];

/** The patch media type of the request, or 415 UnsupportedMediaType. */
export function patchMediaType(req: ServerRequest): string {
  const media = bodyMediaType(req.headers['content-type']);
  if (!patchTypes.includes(media)) throw apiErrors.unsupportedMediaType(media, patchTypes);
  return media;
}

/** Reads and parses the patch document (400 BadRequest when it is not JSON or nests too deeply). */
export async function readPatch(req: ServerRequest): Promise<unknown> {
  const text = (await readBody(req)).toString('utf8');
  let patch: unknown;
  try {
    patch = JSON.parse(text);
  } catch (err) {
    throw apiErrors.badRequest(`error decoding patch: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (exceedsJsonDepth(patch)) throw apiErrors.badRequest('error decoding patch: exceeded max depth');
  return patch;
}
