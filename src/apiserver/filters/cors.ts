/**
 * CORS (upstream WithCORS, k8s.io/apiserver pkg/server/filters/cors.go; AM-22): a request whose
 * Origin matches one of the allowed patterns gets the origin echoed with the allowed methods,
 * headers, exposed headers and credentials; a preflight OPTIONS from such an origin is answered
 * 204 here, before authentication. Other requests pass untouched. The patterns are checked at
 * start by {@link validateCorsAllowedOrigins} (v1.27, #112809: each must pin the start and end of
 * the host, CVE-2022-1996).
 */
import type { Filter } from '../context.js';

const allowMethods = ['POST', 'GET', 'OPTIONS', 'PUT', 'DELETE', 'PATCH'].join(', ');
const allowHeaders = [
  'Content-Type',
  'Content-Length',
  'Accept-Encoding',
  'X-CSRF-Token',
  'Authorization',
  'X-Requested-With',
  'If-Modified-Since',
].join(', ');
const exposeHeaders = 'Date';

const helpText =
  'List of allowed origins for CORS, comma separated. ' +
  'An allowed origin can be a regular expression to support subdomain matching. ' +
  'If this list is empty CORS will not be enabled. ' +
  "Please ensure each expression matches the entire hostname by anchoring to the start with '^' or " +
  "including the '//' prefix, and by anchoring to the end with '$' or including the ':' port separator " +
  "suffix. Examples of valid expressions are '//example\\.com(:|$)' and '^https://example\\.com(:|$)'";

/**
 * Compiles a Go RE2 pattern as a JavaScript RegExp (the syntax the flag's patterns use is common to
 * both); undefined with the compile error when it is not valid here.
 */
function compile(pattern: string): RegExp | string {
  try {
    return new RegExp(pattern);
  } catch (err) {
    return err instanceof Error ? err.message.replace(/^Invalid regular expression: /, '') : String(err);
  }
}

/**
 * upstream validateCorsAllowedOriginList: every entry non-empty, a valid expression, containing
 * `^` or `//` (pins the start of the host) and `$` or `:` (pins its end). Returns the errors' text
 * (empty when valid), as kube-apiserver prints them.
 */
export function validateCorsAllowedOrigins(patterns: readonly string[]): string[] {
  const errors: string[] = [];
  for (const p of patterns) {
    if (p === '') {
      errors.push(`empty value in --cors-allowed-origins, help: ${helpText}`);
      continue;
    }
    const re = compile(p);
    let problem: string | undefined;
    if (typeof re === 'string') problem = `error parsing regexp: ${re}`;
    else {
      const pinStart = p.includes('^') || p.includes('//');
      const pinEnd = p.includes('$') || p.includes(':');
      if (!pinStart || !pinEnd)
        problem = 'regular expression does not pin to start/end of host in the origin header';
    }
    if (problem !== undefined)
      errors.push(`--cors-allowed-origins has an invalid regular expression: ${problem}, help: ${helpText}`);
  }
  return errors;
}

/** The CORS stage; with no patterns it is not installed (a pass-through). */
export function withCORS(patterns: readonly string[]): Filter {
  if (patterns.length === 0) return (ctx, next) => next(ctx);
  const res = patterns.map((p) => {
    const re = compile(p);
    if (typeof re === 'string') throw new Error(`Invalid CORS allowed origin ${p}: ${re}`);
    return re;
  });
  return (ctx, next) => {
    const header: unknown = ctx.req.headers['origin'];
    const origin = typeof header === 'string' ? header : '';
    if (origin === '' || !res.some((re) => re.test(origin))) return next(ctx);
    ctx.res.setHeader('access-control-allow-origin', origin);
    ctx.res.setHeader('access-control-allow-methods', allowMethods);
    ctx.res.setHeader('access-control-allow-headers', allowHeaders);
    ctx.res.setHeader('access-control-expose-headers', exposeHeaders);
    ctx.res.setHeader('access-control-allow-credentials', 'true');
    if (ctx.method === 'OPTIONS') {
      ctx.res.writeHead(204);
      ctx.res.end();
      return Promise.resolve();
    }
    return next(ctx);
  };
}
