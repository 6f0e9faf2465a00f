/**
 * Request deadlines (upstream WithRequestDeadline + WithTimeoutForNonLongRunningRequests): a request
 * that is not long-running must end within `--request-timeout` (60 s) or the shorter `?timeout=`
 * it asks for. At the deadline its signal aborts and, when nothing was answered yet, the client
 * gets upstream's 504; whatever the handler writes later is dropped.
 */
import { StatusError, apiErrors } from '../../machinery/errors.js';
import { GoDurationError, parseGoDuration } from '../../util/go-duration.js';
import type { Filter } from '../context.js';
import type { ServerResponseLike } from '../response.js';
import { writeError } from '../response.js';

const invalidTimeout = 'invalid timeout specified in the request URL';
const deadlinePassed = new Error('the request deadline passed');

/** Upstream's NewTimeoutError("request did not complete within requested timeout - context deadline exceeded", 0). */
function timedOut(): StatusError {
  return new StatusError(
    504,
    'Timeout',
    'Timeout: request did not complete within requested timeout - context deadline exceeded',
    {},
  );
}

/** The response as the handler sees it: once the deadline answered, the handler's writes go nowhere. */
class DeadlineResponse implements ServerResponseLike {
  readonly #res: ServerResponseLike;
  #expired = false;

  constructor(res: ServerResponseLike) {
    this.#res = res;
  }

  /** Answers 504 unless the handler already started answering; true when it did. */
  expire(): boolean {
    if (this.#res.headersSent) return false;
    writeError(this.#res, timedOut());
    this.#expired = true;
    return true;
  }

  get headersSent(): boolean {
    return this.#expired || this.#res.headersSent;
  }

  get statusCode(): number | undefined {
    return this.#res.statusCode;
  }

  /** Resets the wrapped response (cancelResponse: a stream cut off mid-way, e.g. a long list). */
  destroy(): void {
    const res: unknown = this.#res;
    if (typeof res === 'object' && res !== null && 'destroy' in res && typeof res.destroy === 'function') {
      (res.destroy as () => void).call(res);
      return;
    }
    this.#res.end();
  }

  /** The request the wrapped response answers (pretty-printing reads its headers). */
  get req(): unknown {
    return 'req' in this.#res ? this.#res.req : undefined;
  }

  writeHead(code: number, headers?: Record<string, string | string[]>): unknown {
    return this.#expired ? this : this.#res.writeHead(code, headers);
  }

  setHeader(name: string, value: string | string[]): unknown {
    return this.#expired ? this : this.#res.setHeader(name, value);
  }

  write(chunk: string | Uint8Array): boolean {
    return this.#expired ? true : this.#res.write(chunk);
  }

  end(chunk?: string | Uint8Array): unknown {
    return this.#expired ? this : this.#res.end(chunk);
  }

  once(event: 'drain' | 'close', listener: () => void): unknown {
    return this.#res.once(event, listener);
  }

  off(event: 'drain' | 'close', listener: () => void): unknown {
    return this.#res.off(event, listener);
  }

  flushHeaders(): void {
    if (!this.#expired) this.#res.flushHeaders?.();
  }
}

export function withRequestDeadline(maximumMs: number): Filter {
  return async (ctx, next) => {
    if (ctx.longRunning) return next(ctx);
    const value = ctx.url.searchParams.get('timeout') ?? '';
    let timeout = maximumMs;
    if (value !== '') {
      let asked: number;
      try {
        asked = parseGoDuration(value);
      } catch (err) {
        if (err instanceof GoDurationError) throw apiErrors.badRequest(`${invalidTimeout} - ${err.message}`);
        throw err;
      }
      if (asked > 0 && asked < maximumMs) timeout = asked;
    }
    const started = Number(ctx.received / 1_000_000n);
    const remaining = Math.max(0, timeout - (Number(process.hrtime.bigint() / 1_000_000n) - started));
    const res = new DeadlineResponse(ctx.res);
    let expired!: () => void;
    const deadline = new Promise<void>((resolve) => (expired = resolve));
    const timer = setTimeout(() => {
      // The request's own signal aborts at the deadline (no second signal per request).
      ctx.abort(deadlinePassed);
      if (res.expire()) expired();
    }, remaining);
    try {
      const handled = next({ ...ctx, res, deadline: Date.now() + remaining });
      // A handler still running at the deadline goes on in the background; its outcome is dropped.
      handled.catch(() => undefined);
      await Promise.race([handled, deadline]);
    } finally {
      clearTimeout(timer);
    }
  };
}
