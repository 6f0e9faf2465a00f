/** The text of a 403 (upstream responsewriters.forbiddenMessage). */
import type { AuthorizationAttributes } from './authorizer.js';

/** Upstream escapes HTML-significant characters in error texts it writes (its `sanitizer`). */
export function sanitize(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function forbiddenMessage(a: AuthorizationAttributes): string {
  return sanitize(unsanitized(a));
}

function unsanitized(a: AuthorizationAttributes): string {
  const user = JSON.stringify(a.user.name);
  if (!a.isResourceRequest) return `User ${user} cannot ${a.verb} path ${JSON.stringify(a.path)}`;
  const resource = a.subresource === '' ? a.resource : `${a.resource}/${a.subresource}`;
  const what = `User ${user} cannot ${a.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(a.apiGroup)}`;
  return a.namespace !== ''
    ? `${what} in the namespace ${JSON.stringify(a.namespace)}`
    : `${what} at the cluster scope`;
}
