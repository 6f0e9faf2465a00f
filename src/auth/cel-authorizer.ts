/**
 * The server's authorizer behind CEL's `authorizer` variable (AM-06, upstream
 * pkg/cel/library/authz.go over the apiserver's authorizer): a check made in an expression is
 * asked of the same authorizer chain as a request (system:masters, then RBAC/Node…), as the
 * request's user, or as `authorizer.serviceAccount(ns, name)`'s service account. CEL evaluates
 * synchronously, so the chain must answer synchronously (every built-in authorizer does); one that
 * cannot makes the check a CEL error rather than an answer.
 */
import type { UserInfo } from '../machinery/user.js';
import type { AuthorizationAttributes, Authorizer, Decision } from './authorizer.js';

/** What CEL's authz library asks (structurally its CelAuthorizationAttributes). */
export interface CelCheck {
  /** Undefined: the request's own user. */
  readonly user: { readonly name: string; readonly groups: readonly string[] } | undefined;
  readonly verb: string;
  readonly resourceRequest: boolean;
  readonly path: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
}

export interface CelCheckAuthorizer {
  authorize(check: CelCheck): { readonly decision: Decision; readonly reason: string };
}

export function celAuthorizer(authorizer: Authorizer, requester: UserInfo): CelCheckAuthorizer {
  return {
    authorize(check) {
      const user: UserInfo =
        check.user === undefined
          ? requester
          : { name: check.user.name, uid: '', groups: check.user.groups, extra: {} };
      const attributes: AuthorizationAttributes = {
        user,
        verb: check.verb,
        isResourceRequest: check.resourceRequest,
        path: check.path,
        namespace: check.namespace,
        apiGroup: check.apiGroup,
        apiVersion: check.apiVersion,
        resource: check.resource,
        subresource: check.subresource,
        name: check.name,
      };
      const result = authorizer.authorize(attributes);
      if (result instanceof Promise) {
        void result.catch(() => undefined);
        throw new Error('the authorizer cannot answer synchronously');
      }
      return result;
    },
  };
}
