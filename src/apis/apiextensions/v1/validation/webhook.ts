/**
 * Webhook client configuration checks as k8s.io/apiserver/pkg/util/webhook (v0.27):
 * ValidateWebhookURL and ValidateWebhookService, with the part of Go's net/url.Parse they rely on.
 */
import { fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError, FieldPath } from '../../../../machinery/field/errors.js';
import { isDNS1123Subdomain, isValidPortNum } from '../../../../machinery/validation/names.js';

export interface ParsedURL {
  readonly scheme: string;
  readonly host: string;
  /** The userinfo before '@', undefined without one. */
  readonly user: string | undefined;
  readonly rawQuery: string;
  readonly fragment: string;
}

/**
 * Go's url.Parse, reduced to what the webhook checks read (scheme, host, userinfo, query,
 * fragment) and to the errors it reports for them. Returns the error text when parsing fails.
 */
export function parseGoURL(raw: string): ParsedURL | string {
  const fail = (msg: string): string => `parse ${JSON.stringify(raw)}: ${msg}`;
  let rest = raw;
  let fragment = '';
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    fragment = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
  }

  if (/[\x00-\x1f\x7f]/.test(rest)) return fail('net/url: invalid control character in URL');
  let scheme = '';
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(rest);
  if (rest.startsWith(':')) return fail('missing protocol scheme');
  if (m !== null) {
    scheme = m[1]!.toLowerCase();
    rest = rest.slice(m[0].length);
  }
  let rawQuery = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    rawQuery = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  let host = '';
  let user: string | undefined;
  if (!rest.startsWith('/') && scheme !== '') {
    // An opaque URL (mailto:x): no host.
    return { scheme, host, user, rawQuery, fragment };
  }
  if (rest.startsWith('//')) {
    const after = rest.slice(2);
    const slash = after.indexOf('/');
    let authority = slash >= 0 ? after.slice(0, slash) : after;
    rest = slash >= 0 ? after.slice(slash) : '';
    const at = authority.lastIndexOf('@');
    if (at >= 0) {
      user = authority.slice(0, at);
      authority = authority.slice(at + 1);
    }
    const portMatch = /^(\[[^\]]*\]|[^:]*)(:.*)?$/.exec(authority);
    const port = portMatch?.[2];
    if (port !== undefined && !/^:[0-9]*$/.test(port)) {
      return fail(`invalid port ${JSON.stringify(port)} after host`);
    }
    host = authority;
  } else if (scheme === '') {
    const firstSegment = rest.split('/')[0] ?? '';
    if (firstSegment.includes(':')) return fail('first path segment in URL cannot contain colon');
  }
  return { scheme, host, user, rawQuery, fragment };
}

/** Upstream ValidateWebhookURL. */
export function validateWebhookURL(path: FieldPath, url: string, forceHttps: boolean): FieldError[] {
  const form = '; desired format: https://host[/path]';
  const u = parseGoURL(url);
  if (typeof u === 'string') return [fieldErrors.required(path, `url must be a valid URL: ${u}${form}`)];
  const errs: FieldError[] = [];
  if (forceHttps && u.scheme !== 'https') {
    errs.push(fieldErrors.invalid(path, u.scheme, `'https' is the only allowed URL scheme${form}`));
  }
  if (u.host === '') errs.push(fieldErrors.invalid(path, u.host, `host must be specified${form}`));
  if (u.user !== undefined) {
    errs.push(fieldErrors.invalid(path, u.user, 'user information is not permitted in the URL'));
  }
  if (u.fragment !== '') {
    errs.push(fieldErrors.invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  }
  if (u.rawQuery !== '') {
    errs.push(fieldErrors.invalid(path, u.rawQuery, 'query parameters are not permitted in the URL'));
  }
  return errs;
}

/** Upstream ValidateWebhookService. */
export function validateWebhookService(
  path: FieldPath,
  namespace: string,
  name: string,
  urlPath: string | undefined,
  port: number,
): FieldError[] {
  const errs: FieldError[] = [];
  if (name === '') errs.push(fieldErrors.required(path.child('name'), 'service name is required'));
  if (namespace === '') {
    errs.push(fieldErrors.required(path.child('namespace'), 'service namespace is required'));
  }
  const portErrs = isValidPortNum(port);
  if (portErrs.length > 0) {
    errs.push(fieldErrors.invalid(path.child('port'), port, `port is not valid: ${portErrs.join(', ')}`));
  }
  if (urlPath === undefined || urlPath === '/' || urlPath === '') return errs;
  const p = path.child('path');
  if (urlPath === '//') {
    errs.push(fieldErrors.invalid(p, urlPath, 'segment[0] may not be empty'));
    return errs;
  }
  if (!urlPath.startsWith('/')) errs.push(fieldErrors.invalid(p, urlPath, "must start with a '/'"));
  let check = urlPath.slice(1);
  if (check.endsWith('/')) check = check.slice(0, -1);
  check.split('/').forEach((step, i) => {
    if (step === '') {
      errs.push(fieldErrors.invalid(p, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const failure of isDNS1123Subdomain(step)) {
      errs.push(fieldErrors.invalid(p, urlPath, `segment[${i}]: ${failure}`));
    }
  });
  return errs;
}
