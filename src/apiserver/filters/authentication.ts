/**
 * Authentication (upstream WithAuthentication): the authenticator names the user from the
 * request's credentials; a request whose credentials do not verify gets 401 Unauthorized, and
 * warnings the authenticator raised (a legacy service-account token) go with the answer. The
 * Authorization header is not passed further down. A request from a component in this process
 * (in-process.ts) is made as the user the server gave that component.
 */
import type { Authenticator } from '../../auth/authenticator.js';
import { apiErrors } from '../../machinery/errors.js';
import type { Logger } from '../../util/log.js';
import type { Filter } from '../context.js';
import { inProcessCaller } from '../in-process.js';
import { addRequestWarnings } from '../response.js';
import { clientCertificate } from './tls-peer.js';

export function withAuthentication(authenticator: Authenticator, log: Logger): Filter {
  return async (ctx, next) => {
    // A request from this process (in-process.ts) carries its caller; no network request can.
    const caller = inProcessCaller(ctx.req);
    if (caller !== undefined) return next({ ...ctx, user: caller });
    const certificate = clientCertificate(ctx.req);
    const authorization = ctx.req.headers.authorization;
    const result = await authenticator.authenticate({
      ...(certificate !== undefined ? { certificate } : {}),
      ...(authorization !== undefined ? { authorization } : {}),
    });
    if (result.kind !== 'authenticated') {
      log.v(
        2,
        `unable to authenticate the request ${ctx.audit.id}: ${result.kind === 'failed' ? result.reason : 'no credentials'}`,
      );
      throw apiErrors.unauthorized();
    }
    delete ctx.req.headers.authorization;
    if (result.warnings !== undefined) addRequestWarnings(ctx.res, result.warnings);
    for (const [k, v] of Object.entries(result.auditAnnotations ?? {})) ctx.audit.annotations.set(k, v);
    return next({ ...ctx, user: result.user });
  };
}
