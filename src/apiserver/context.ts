/**
 * The per-request context every stage of the request chain reads and extends (upstream keeps it
 * in context.Context): the parsed request, who made it, its audit ID, when it must end, and a
 * signal that aborts when the client goes away, the deadline passes or the server shuts down.
 */
import type { UserInfo } from '../machinery/user.js';
import type { ServerRequest } from './body.js';
import type { RequestInfo } from './request-info.js';
import type { ServerResponseLike } from './response.js';

export interface AuditContext {
  /** The audit ID: the client's `Audit-ID` header, or a new UUID; echoed as `Audit-Id`. */
  readonly id: string;
  /** Annotations stages add for the audit event (admission, authorization decisions). */
  readonly annotations: Map<string, string>;
  /** Set by impersonation: the user the request acts as. */
  impersonatedUser?: UserInfo;
}

export interface RequestContext {
  readonly req: ServerRequest;
  /** The HTTP method, upper case. */
  readonly method: string;
  readonly res: ServerResponseLike;
  readonly url: URL;
  /** The decoded request path (dot segments refused). */
  readonly path: string;
  readonly info: RequestInfo;
  readonly audit: AuditContext;
  /** Set by authentication (impersonation may replace it); absent before. */
  readonly user?: UserInfo;
  /** Epoch milliseconds by which a non-long-running request must finish. */
  readonly deadline?: number;
  /** Long-running requests (watch, exec, logs…) are exempt from deadlines and in-flight limits. */
  readonly longRunning: boolean;
  readonly signal: AbortSignal;
  /** Aborts `signal` (the deadline passed): the request's work stops early. */
  readonly abort: (reason: Error) => void;
  /** When the request arrived (hrtime, ns). */
  readonly received: bigint;
}

/** A stage of the request chain: may answer itself, or call `next` with a (possibly extended) context. */
export type Filter = (ctx: RequestContext, next: (ctx: RequestContext) => Promise<void>) => Promise<void>;

/** Composes filters, outermost first, around the final handler. */
export function buildChain(
  filters: readonly Filter[],
  handler: (ctx: RequestContext) => Promise<void>,
): (ctx: RequestContext) => Promise<void> {
  return filters.reduceRight<(ctx: RequestContext) => Promise<void>>(
    (next, filter) => (ctx) => filter(ctx, next),
    handler,
  );
}

/** The authenticated user; a chain without authentication is a wiring bug. */
export function userOf(ctx: RequestContext): UserInfo {
  if (ctx.user === undefined)
    throw new Error('request reached a stage that needs a user before authentication');
  return ctx.user;
}
