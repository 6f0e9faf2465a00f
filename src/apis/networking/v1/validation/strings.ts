/**
 * String checks of k8s.io/apimachinery/pkg/util/validation (v0.27) the networking kinds need and
 * the shared machinery lacks: wildcard DNS subdomains and domain-prefixed paths.
 */
import { fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError, FieldPath } from '../../../../machinery/field/errors.js';
import {
  dns1123SubdomainMaxLength,
  isDNS1123Subdomain,
  maxLenError,
  regexError,
} from '../../../../machinery/validation/names.js';

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const wildcardDNS1123SubdomainFmt = `\\*\\.${dns1123SubdomainFmt}`;
const wildcardDNS1123SubdomainErrMsg =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";
const wildcardDNS1123SubdomainRegexp = new RegExp(`^${wildcardDNS1123SubdomainFmt}$`);

/** Upstream IsWildcardDNS1123Subdomain: `*.` followed by a DNS subdomain (RFC 1034 4.3.3). */
export function isWildcardDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (Buffer.byteLength(value, 'utf8') > dns1123SubdomainMaxLength) {
    errs.push(maxLenError(dns1123SubdomainMaxLength));
  }
  if (!wildcardDNS1123SubdomainRegexp.test(value)) {
    errs.push(regexError(wildcardDNS1123SubdomainErrMsg, wildcardDNS1123SubdomainFmt, '*.example.com'));
  }
  return errs;
}

/** RFC 3986 path characters: unreserved, percent-encoded octets, sub-delims and ':'. */
const httpPathFmt = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const httpPathRegexp = new RegExp(`^${httpPathFmt}$`);

/**
 * Upstream IsDomainPrefixedPath: `acme.io/foo`, a DNS subdomain before the first '/' and HTTP path
 * characters after it.
 */
export function isDomainPrefixedPath(path: FieldPath, value: string): FieldError[] {
  if (value.length === 0) return [fieldErrors.required(path, '')];
  const slash = value.indexOf('/');
  const host = slash < 0 ? value : value.slice(0, slash);
  const rest = slash < 0 ? '' : value.slice(slash + 1);
  if (slash < 0 || host.length === 0 || rest.length === 0) {
    return [fieldErrors.invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  }
  const errs = isDNS1123Subdomain(host).map((m) => fieldErrors.invalid(path, host, m));
  if (!httpPathRegexp.test(rest)) {
    errs.push(fieldErrors.invalid(path, rest, regexError('Invalid path', httpPathFmt)));
  }
  return errs;
}
