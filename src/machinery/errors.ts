/**
 * API errors: a StatusError carries the exact metav1.Status kube-apiserver would send. Storage and
 * validation errors are translated into these at one seam (the registry); handlers only serialize.
 */
import type { FieldError } from './field/errors.js';
import { goQuote } from './field/errors.js';
import type { Status, StatusCause, StatusDetails, StatusReason } from './status.js';

/** `pods` or `deployments.apps`: upstream's GroupResource.String(). */
export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

/** `Pod` or `Deployment.apps`: upstream's GroupKind.String(). */
export interface GroupKind {
  readonly group: string;
  readonly kind: string;
}

export function groupResourceString(gr: GroupResource): string {
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}

export function groupKindString(gk: GroupKind): string {
  return gk.group === '' ? gk.kind : `${gk.kind}.${gk.group}`;
}

export class StatusError extends Error {
  override readonly name = 'StatusError';
  readonly status: Status;

  constructor(code: number, reason: StatusReason, message: string, details?: StatusDetails) {
    super(message);
    // Field order follows upstream's JSON: kind, apiVersion, metadata, status, message, reason, details, code.
    const status: Status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message,
      ...(reason !== '' ? { reason } : {}),
      ...(details !== undefined ? { details } : {}),
      code,
    };
    this.status = status;
  }

  get code(): number {
    return this.status.code;
  }

  get reason(): StatusReason {
    return this.status.reason ?? '';
  }
}

function grDetails(gr: GroupResource, name: string): StatusDetails {
  const d: StatusDetails = {};
  if (name !== '') d.name = name;
  if (gr.group !== '') d.group = gr.group;
  d.kind = gr.resource;
  return d;
}

export const apiErrors = {
  notFound(gr: GroupResource, name: string): StatusError {
    return new StatusError(
      404,
      'NotFound',
      `${groupResourceString(gr)} ${goQuote(name)} not found`,
      grDetails(gr, name),
    );
  },
  alreadyExists(gr: GroupResource, name: string): StatusError {
    return new StatusError(
      409,
      'AlreadyExists',
      `${groupResourceString(gr)} ${goQuote(name)} already exists`,
      grDetails(gr, name),
    );
  },
  conflict(gr: GroupResource, name: string, detail: string): StatusError {
    return new StatusError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${groupResourceString(gr)} ${goQuote(name)}: ${detail}`,
      grDetails(gr, name),
    );
  },
  /** The optimistic-concurrency conflict message upstream uses. */
  modifiedConflict(gr: GroupResource, name: string): StatusError {
    return apiErrors.conflict(
      gr,
      name,
      'the object has been modified; please apply your changes to the latest version and try again',
    );
  },
  invalid(gk: GroupKind, name: string, errs: readonly FieldError[]): StatusError {
    const causes: StatusCause[] = errs.map((e) => ({ reason: e.type, message: e.body(), field: e.field }));
    const seen = new Set<string>();
    const msgs: string[] = [];
    for (const e of errs) {
      const s = e.toString();
      if (!seen.has(s)) {
        seen.add(s);
        msgs.push(s);
      }
    }
    const agg = msgs.length === 1 ? msgs[0]! : `[${msgs.join(', ')}]`;
    const details: StatusDetails = { name };
    if (gk.group !== '') details.group = gk.group;
    details.kind = gk.kind;
    details.causes = causes;
    return new StatusError(
      422,
      'Invalid',
      `${groupKindString(gk)} ${goQuote(name)} is invalid: ${agg}`,
      details,
    );
  },
  badRequest(message: string): StatusError {
    return new StatusError(400, 'BadRequest', message);
  },
  methodNotSupported(gr: GroupResource, action: string): StatusError {
    return new StatusError(
      405,
      'MethodNotAllowed',
      `${action} is not supported on resources of kind "${groupResourceString(gr)}"`,
      grDetails(gr, ''),
    );
  },
  resourceExpired(message: string, continueToken?: string): StatusError {
    const err = new StatusError(410, 'Expired', message);
    // A compacted continue token's answer carries one that continues at the latest revision.
    if (continueToken !== undefined) err.status.metadata = { continue: continueToken };
    return err;
  },
  gone(message: string): StatusError {
    return new StatusError(410, 'Gone', message);
  },
  requestEntityTooLarge(message: string): StatusError {
    return new StatusError(413, 'RequestEntityTooLarge', `Request entity too large: ${message}`);
  },
  unsupportedMediaType(contentType: string, accepted: readonly string[]): StatusError {
    return new StatusError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
      contentType === '' ? undefined : {},
    );
  },
  notAcceptable(accepted: readonly string[]): StatusError {
    return new StatusError(
      406,
      'NotAcceptable',
      `only the following media types are accepted: ${accepted.join(', ')}`,
    );
  },
  internal(err: unknown): StatusError {
    const msg = err instanceof Error ? err.message : String(err);
    return new StatusError(500, 'InternalError', `Internal error occurred: ${msg}`, {
      causes: [{ message: msg }],
    });
  },
  timeout(message: string, retryAfterSeconds: number): StatusError {
    return new StatusError(504, 'Timeout', `Timeout: ${message}`, { retryAfterSeconds });
  },
  tooLargeResourceVersion(requested: number, current: number, retryAfterSeconds: number): StatusError {
    return new StatusError(
      504,
      'Timeout',
      `Timeout: Too large resource version: ${requested}, current: ${current}`,
      {
        causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
        retryAfterSeconds,
      },
    );
  },
  /** Upstream NewServerTimeoutForKind: the client should retry (e.g. a generateName collision). */
  serverTimeoutForKind(gk: GroupKind, operation: string): StatusError {
    const details: StatusDetails = { name: operation };
    if (gk.group !== '') details.group = gk.group;
    details.kind = gk.kind;
    return new StatusError(
      500,
      'ServerTimeout',
      `The ${operation} operation against ${groupKindString(gk)} could not be completed at this time, please try again.`,
      details,
    );
  },
  forbidden(gr: GroupResource, name: string, reason: string): StatusError {
    const subject = name === '' ? groupResourceString(gr) : `${groupResourceString(gr)} ${goQuote(name)}`;
    return new StatusError(403, 'Forbidden', `${subject} is forbidden: ${reason}`, grDetails(gr, name));
  },
  /** A 403 for a request the authorizer did not allow (upstream NewForbidden with the authorizer's text). */
  forbiddenRequest(gr: GroupResource, name: string, message: string): StatusError {
    if (gr.group === '' && gr.resource === '') {
      return new StatusError(403, 'Forbidden', `forbidden: ${message}`, {});
    }
    return apiErrors.forbidden(gr, name, message);
  },
  unauthorized(): StatusError {
    return new StatusError(401, 'Unauthorized', 'Unauthorized');
  },
  notFoundPath(): StatusError {
    return new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
  },
  serviceUnavailable(message: string): StatusError {
    return new StatusError(503, 'ServiceUnavailable', message);
  },
} as const;
