/**
 * The request path as upstream sees it: percent-decoded (Go's URL.Path) and never resolved. The
 * WHATWG URL parser would fold `.`/`..` segments (also `%2e%2e`) into the path, turning
 * `DELETE .../configmaps/%2e%2e` into a delete of the namespace; such names are refused instead.
 */
import { apiErrors } from '../machinery/errors.js';

/** The decoded path of a request target (`/a/b?x=y` -> `/a/b`); 400 for malformed escapes or dot segments. */
export function decodedRequestPath(target: string): string {
  const q = target.indexOf('?');
  const raw = q < 0 ? target : target.slice(0, q);
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    throw apiErrors.badRequest(`invalid URL escape in path ${JSON.stringify(raw)}`);
  }
  for (const segment of path.split('/')) {
    if (segment === '.' || segment === '..') {
      throw apiErrors.badRequest(`Name parameter invalid: "${segment}": may not be '${segment}'`);
    }
  }
  return path;
}
