/** The typed error for a non-2xx API answer. */
import { isJsonObject } from '../util/json.js';
import type { JsonObject } from '../util/json.js';

/** A non-2xx answer; `status` is the Status body when the server sent one. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: number;
  readonly reason: string;
  readonly status: JsonObject | undefined;

  constructor(code: number, body: string) {
    let status: JsonObject | undefined;
    try {
      const parsed: unknown = JSON.parse(body);
      if (isJsonObject(parsed)) status = parsed;
    } catch {
      status = undefined;
    }
    const message = typeof status?.['message'] === 'string' ? status['message'] : body.slice(0, 200);
    super(`API error ${code}: ${message}`);
    this.code = code;
    this.reason = typeof status?.['reason'] === 'string' ? status['reason'] : '';
    this.status = status;
  }
}

/**
 * Whether an error is an API answer whose Status lists a cause of `type` (StatusCause.Type, sent
 * as `reason` on the wire), e.g. `NamespaceTerminating` from NamespaceLifecycle, as client-go's
 * apierrors.HasStatusCause.
 */
export function hasStatusCause(err: unknown, type: string): boolean {
  if (!(err instanceof ApiError)) return false;
  const details = err.status?.['details'];
  const causes = isJsonObject(details) ? details['causes'] : undefined;
  return Array.isArray(causes) && causes.some((c) => isJsonObject(c) && c['reason'] === type);
}
