/**
 * The audit stages (upstream WithAudit and WithFailedAuthenticationAudit, AM-17). Once the user is
 * known, the policy decides the request's level; above None its event goes to the sink at each
 * stage the policy keeps: RequestReceived, ResponseStarted (long-running requests: when the
 * headers go out), ResponseComplete when the response ends, or Panic when a bug escaped the
 * handler. A request that failed authentication is audited (stage ResponseStarted only) by the
 * stage placed before authentication. Without a configuration nothing is done at all.
 */
import { StatusError } from '../../machinery/errors.js';
import type { UserInfo } from '../../machinery/user.js';
import type { Logger } from '../../util/log.js';
import type { AuditSink } from '../audit/event.js';
import { auditUser, nowMicros, sourceIPs, truncatedUserAgent } from '../audit/event.js';
import type { AuditAttributes, AuditPolicy } from '../audit/policy.js';
import { evaluatePolicy } from '../audit/policy.js';
import { observeAuditLevel } from '../audit/metrics.js';
import { AuditRecorder, attachAuditRecorder, auditEvaluated, markAuditEvaluated } from '../audit/recorder.js';
import type { Filter, RequestContext } from '../context.js';
import { userOf } from '../context.js';
import { inProcessCaller } from '../in-process.js';
import { ChainResponseError } from './chain-response.js';

export type { AuditEvent, AuditSink } from '../audit/event.js';

export interface AuditConfig {
  readonly policy: AuditPolicy;
  readonly sink: AuditSink;
}

function attributesOf(ctx: RequestContext, user: UserInfo | undefined): AuditAttributes {
  const i = ctx.info;
  return {
    ...(user !== undefined ? { user } : {}),
    verb: i.isResourceRequest && i.verb !== '' ? i.verb : i.method,
    isResourceRequest: i.isResourceRequest,
    path: ctx.path,
    namespace: i.namespace,
    apiGroup: i.group,
    resource: i.resource,
    subresource: i.subresource,
    name: i.name,
  };
}

function remoteAddress(ctx: RequestContext): string | undefined {
  // A component in this process: upstream's loopback client connects from 127.0.0.1.
  if (inProcessCaller(ctx.req) !== undefined) return '127.0.0.1';
  const req: unknown = ctx.req;
  if (typeof req !== 'object' || req === null || !('socket' in req)) return undefined;
  const socket: unknown = req.socket;
  if (typeof socket !== 'object' || socket === null || !('remoteAddress' in socket)) return undefined;
  return typeof socket.remoteAddress === 'string' ? socket.remoteAddress : undefined;
}

/** When the request arrived, in epoch microseconds (the chain keeps it on the hrtime clock). */
function receivedMicros(ctx: RequestContext): number {
  return nowMicros() - Number((process.hrtime.bigint() - ctx.received) / 1000n);
}

function recorderFor(
  ctx: RequestContext,
  config: AuditConfig,
  user: UserInfo | undefined,
  log: Logger | undefined,
): AuditRecorder | undefined {
  const attrs = attributesOf(ctx, user);
  const rac = evaluatePolicy(config.policy, attrs);
  observeAuditLevel(rac.level);
  if (rac.level === 'None') return undefined;
  const i = ctx.info;
  const audit = ctx.audit;
  const recorder = new AuditRecorder({
    config: rac,
    sink: config.sink,
    auditID: audit.id,
    requestURI: ctx.url.pathname + ctx.url.search,
    verb: attrs.verb,
    user: user === undefined ? {} : auditUser(user),
    sourceIPs: sourceIPs(ctx.req.headers, remoteAddress(ctx)),
    userAgent: truncatedUserAgent(ctx.req.headers['user-agent']),
    ...(i.isResourceRequest
      ? {
          objectRef: {
            ...(i.resource !== '' ? { resource: i.resource } : {}),
            ...(i.namespace !== '' ? { namespace: i.namespace } : {}),
            ...(i.name !== '' ? { name: i.name } : {}),
            ...(i.group !== '' ? { apiGroup: i.group } : {}),
            ...(i.version !== '' ? { apiVersion: i.version } : {}),
            ...(i.subresource !== '' ? { subresource: i.subresource } : {}),
          },
        }
      : {}),
    requestReceivedMicros: receivedMicros(ctx),
    annotations: audit.annotations,
    impersonatedUser: () =>
      audit.impersonatedUser === undefined ? undefined : auditUser(audit.impersonatedUser),
    onWarning: (message) => log?.info(message),
    onDropped: (err) =>
      log?.error(
        `audit: event of request ${audit.id} not stored: ${err instanceof Error ? err.message : String(err)}`,
      ),
  });
  attachAuditRecorder(ctx.req, ctx.res, recorder);
  return recorder;
}

/** Calls `onCode` when the response's status line goes out (first writeHead or write). */
function onHeaders(ctx: RequestContext, onCode: (code: number) => void): void {
  const res = ctx.res as RequestContext['res'] & {
    writeHead: RequestContext['res']['writeHead'];
    write: RequestContext['res']['write'];
  };
  const writeHead = res.writeHead.bind(res);
  const write = res.write.bind(res);
  let seen = false;
  const once = (code: number): void => {
    if (seen) return;
    seen = true;
    onCode(code);
  };
  res.writeHead = function (this: unknown, code: number, headers?: Record<string, string | string[]>) {
    once(code);
    return writeHead(code, headers);
  };
  res.write = function (this: unknown, chunk: string | Uint8Array) {
    once(res.statusCode ?? 200);
    return write(chunk);
  };
}

/** Whether an error leaving the handler is a bug (upstream: a panic), not an answer. */
function isPanic(err: unknown): boolean {
  return !(err instanceof StatusError) && !(err instanceof ChainResponseError);
}

export function withAudit(config: AuditConfig | undefined, log?: Logger): Filter {
  if (config === undefined) return (ctx, next) => next(ctx);
  return async (ctx, next) => {
    markAuditEvaluated(ctx.res);
    const recorder = recorderFor(ctx, config, userOf(ctx), log);
    if (recorder === undefined) return next(ctx);
    recorder.emit('RequestReceived');
    const longRunning = ctx.longRunning;
    if (longRunning) onHeaders(ctx, (code) => recorder.codeSent(code, true));
    // Errors are answered by the chain's outer end: the event completes when the response does.
    ctx.res.once('close', () => {
      recorder.complete(ctx.res.headersSent ? (ctx.res.statusCode ?? 200) : undefined, longRunning);
    });
    try {
      await next(ctx);
    } catch (err) {
      // Work stopped because the client left or the deadline passed is not a bug.
      if (isPanic(err) && !ctx.signal.aborted) recorder.panic(err);
      throw err;
    }
  };
}

/**
 * Before authentication (upstream WithFailedAuthenticationAudit): a request refused with 401 is
 * audited with no user, its policy evaluated on what is known, stage ResponseStarted only.
 */
export function withFailedAuthenticationAudit(config: AuditConfig | undefined, log?: Logger): Filter {
  if (config === undefined) return (ctx, next) => next(ctx);
  return async (ctx, next) => {
    try {
      await next(ctx);
    } catch (err) {
      if (err instanceof StatusError && err.code === 401 && !auditEvaluated(ctx.res)) {
        const recorder = recorderFor(ctx, config, undefined, log);
        // The 401 is written by the chain's outer end, past any wrapper of this response.
        if (recorder !== undefined)
          ctx.res.once('close', () => recorder.codeSent(ctx.res.statusCode ?? 401, true));
      }
      throw err;
    }
  };
}
