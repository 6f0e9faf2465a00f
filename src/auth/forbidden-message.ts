/** The text of a 403 (upstream responsewriters.Forbidden and forbiddenMessage). */
import { goQuote } from '../machinery/field/errors.js';
import { goSprintfWithoutArgs } from '../util/go-sprintf.js';
import type { AuthorizationAttributes } from './authorizer.js';

/** Upstream escapes HTML-significant characters in error texts it writes (its `sanitizer`). */
export function sanitize(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function forbiddenMessage(a: AuthorizationAttributes): string {
  return sanitize(unsanitized(a));
}

/**
 * The error a refusal carries (before NewForbidden names the resource): the message, then the
 * authorizer's reason after a colon. Upstream passes that text to fmt.Errorf as its format, so a
 * `%` from a path, a user name or a resource reads as a verb without operand (`%!s(MISSING)`).
 */
export function forbiddenReason(a: AuthorizationAttributes, reason: string): string {
  const message = forbiddenMessage(a);
  return goSprintfWithoutArgs(reason === '' ? message : `${message}: ${reason}`);
}

function unsanitized(a: AuthorizationAttributes): string {
  const user = goQuote(a.user.name);
  if (!a.isResourceRequest) return `User ${user} cannot ${a.verb} path ${goQuote(a.path)}`;
  const resource = a.subresource === '' ? a.resource : `${a.resource}/${a.subresource}`;
  const what = `User ${user} cannot ${a.verb} resource ${goQuote(resource)} in API group ${goQuote(a.apiGroup)}`;
  return a.namespace !== ''
    ? `${what} in the namespace ${goQuote(a.namespace)}`
    : `${what} at the cluster scope`;
}
