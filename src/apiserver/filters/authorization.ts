/**
 * Authorization (upstream WithAuthorization): the request's attributes go to the authorizer; only
 * an allow passes, anything else is upstream's 403 naming the user, verb and resource or path.
 */
import type { AuthorizationAttributes, Authorizer } from '../../auth/authorizer.js';
import { forbiddenReason } from '../../auth/forbidden-message.js';
import { apiErrors } from '../../machinery/errors.js';
import type { Filter, RequestContext } from '../context.js';
import { userOf } from '../context.js';

export function attributesOf(ctx: RequestContext): AuthorizationAttributes {
  const i = ctx.info;
  return {
    user: userOf(ctx),
    verb: i.isResourceRequest && i.verb !== '' ? i.verb : i.method,
    isResourceRequest: i.isResourceRequest,
    path: ctx.path,
    namespace: i.namespace,
    apiGroup: i.group,
    apiVersion: i.version,
    resource: i.resource,
    subresource: i.subresource,
    name: i.name,
  };
}

export function withAuthorization(authorizer: Authorizer): Filter {
  return async (ctx, next) => {
    const attributes = attributesOf(ctx);
    const result = await authorizer.authorize(attributes);
    // Upstream records the authorizer's reason beside the decision (e.g. RBAC's binding).
    ctx.audit.annotations.set('authorization.k8s.io/reason', result.reason);
    if (result.decision === 'allow') {
      ctx.audit.annotations.set('authorization.k8s.io/decision', 'allow');
      ctx.audit.annotations.set('authorization.k8s.io/reason', result.reason);
      return next(ctx);
    }
    ctx.audit.annotations.set('authorization.k8s.io/decision', 'forbid');
    ctx.audit.annotations.set('authorization.k8s.io/reason', result.reason);
    throw apiErrors.forbiddenRequest(
      attributes.isResourceRequest
        ? { group: attributes.apiGroup, resource: attributes.resource }
        : { group: '', resource: '' },
      attributes.name,
      forbiddenReason(attributes, result.reason),
    );
  };
}
