/**
 * The audit stage (upstream WithAudit): once the user is known, the request becomes an audit event
 * (audit.k8s.io/v1 Event shape, stage ResponseComplete) handed to the configured sink when the
 * response ends. Policy files and the log backend (issue #12) plug in as sinks; with none, nothing
 * is recorded.
 */
import type { UserInfo } from '../../machinery/user.js';
import type { Filter, RequestContext } from '../context.js';
import { userOf } from '../context.js';

export interface AuditEvent {
  readonly auditID: string;
  readonly stage: 'ResponseComplete';
  readonly requestURI: string;
  readonly verb: string;
  readonly user: UserInfo;
  readonly impersonatedUser?: UserInfo;
  readonly objectRef?: {
    readonly resource: string;
    readonly namespace?: string;
    readonly name?: string;
    readonly apiGroup?: string;
    readonly apiVersion: string;
    readonly subresource?: string;
  };
  readonly responseStatus: { readonly code: number };
  readonly annotations: Readonly<Record<string, string>>;
  readonly requestReceivedTimestamp: string;
  readonly stageTimestamp: string;
}

export interface AuditSink {
  process(event: AuditEvent): void;
}

function objectRef(ctx: RequestContext): AuditEvent['objectRef'] {
  const i = ctx.info;
  if (!i.isResourceRequest) return undefined;
  return {
    resource: i.resource,
    ...(i.namespace !== '' ? { namespace: i.namespace } : {}),
    ...(i.name !== '' ? { name: i.name } : {}),
    ...(i.group !== '' ? { apiGroup: i.group } : {}),
    apiVersion: i.version,
    ...(i.subresource !== '' ? { subresource: i.subresource } : {}),
  };
}

export function withAudit(sink: AuditSink | undefined): Filter {
  return (ctx, next) => {
    if (sink === undefined) return next(ctx);
    const received = new Date().toISOString();
    ctx.res.once('close', () => {
      try {
        record();
      } catch {
        // A failing sink must not take the server down with it (this runs in an event listener).
      }
    });
    const record = (): void => {
      const impersonated = ctx.audit.impersonatedUser;
      const ref = objectRef(ctx);
      sink.process({
        auditID: ctx.audit.id,
        stage: 'ResponseComplete',
        requestURI: ctx.url.pathname + ctx.url.search,
        verb: ctx.info.isResourceRequest ? ctx.info.verb : ctx.info.method,
        user: userOf(ctx),
        ...(impersonated !== undefined ? { impersonatedUser: impersonated } : {}),
        ...(ref !== undefined ? { objectRef: ref } : {}),
        responseStatus: { code: ctx.res.statusCode ?? 0 },
        annotations: Object.fromEntries(ctx.audit.annotations),
        requestReceivedTimestamp: received,
        stageTimestamp: new Date().toISOString(),
      });
    };
    return next(ctx);
  };
}
