/**
 * String-format checks as k8s.io/apimachinery/pkg/util/validation (v0.27): each returns the list of
 * problems (empty when valid) with upstream's exact wording, plus the ValidateNameFunc variants used
 * for `metadata.name` / `metadata.generateName`.
 */
import { parseIPSloppy } from './ip.js';

const qnameCharFmt = '[A-Za-z0-9]';
const qnameExtCharFmt = '[-A-Za-z0-9_.]';
const qualifiedNameFmt = `(${qnameCharFmt}${qnameExtCharFmt}*)?${qnameCharFmt}`;
const qualifiedNameErrMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const qualifiedNameMaxLength = 63;
const qualifiedNameRegexp = new RegExp(`^${qualifiedNameFmt}$`);

const labelValueFmt = `(${qualifiedNameFmt})?`;
const labelValueErrMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
/** Longest label value upstream accepts. */
export const labelValueMaxLength = 63;
const labelValueRegexp = new RegExp(`^${labelValueFmt}$`);

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123LabelErrMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
export const dns1123LabelMaxLength = 63;
const dns1123LabelRegexp = new RegExp(`^${dns1123LabelFmt}$`);

const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123SubdomainErrorMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
export const dns1123SubdomainMaxLength = 253;
const dns1123SubdomainRegexp = new RegExp(`^${dns1123SubdomainFmt}$`);

const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1035LabelErrMsg =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
export const dns1035LabelMaxLength = 63;
const dns1035LabelRegexp = new RegExp(`^${dns1035LabelFmt}$`);

const cIdentifierFmt = '[A-Za-z_][A-Za-z0-9_]*';
const identifierErrMsg =
  "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'";
const cIdentifierRegexp = new RegExp(`^${cIdentifierFmt}$`);

const percentFmt = '[0-9]+%';
const percentErrMsg = "a valid percent string must be a numeric string followed by an ending '%'";
const percentRegexp = new RegExp(`^${percentFmt}$`);

/** Go's len(): the UTF-8 byte length. */
function byteLen(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** Upstream MaxLenError. */
export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** Upstream RegexError: the message, the examples, then the regex. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let s = `${msg} (e.g. `;
  examples.forEach((ex, i) => {
    if (i > 0) s += ' or ';
    s += `'${ex}', `;
  });
  return `${s}regex used for validation is '${fmt}')`;
}

/** Upstream EmptyError. */
export function emptyError(): string {
  return 'must be non-empty';
}

/** Upstream InclusiveRangeError. */
export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

/** `[prefix/]name` where prefix is a DNS subdomain and name a 63-character qualified name. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push(`prefix part ${emptyError()}`);
    else for (const m of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${m}`);
  } else {
    errs.push(
      `a qualified name ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    );
    return errs;
  }
  if (name.length === 0) errs.push(`name part ${emptyError()}`);
  else if (byteLen(name) > qualifiedNameMaxLength)
    errs.push(`name part ${maxLenError(qualifiedNameMaxLength)}`);
  if (!qualifiedNameRegexp.test(name)) {
    errs.push(
      `name part ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')}`,
    );
  }
  return errs;
}

export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > labelValueMaxLength) errs.push(maxLenError(labelValueMaxLength));
  if (!labelValueRegexp.test(value)) {
    errs.push(regexError(labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345'));
  }
  return errs;
}

export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > dns1123LabelMaxLength) errs.push(maxLenError(dns1123LabelMaxLength));
  if (!dns1123LabelRegexp.test(value)) {
    // A valid subdomain that is not a label can only be failing on its dots.
    if (dns1123SubdomainRegexp.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(dns1123LabelErrMsg, dns1123LabelFmt, 'my-name', '123-abc'));
  }
  return errs;
}

export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > dns1123SubdomainMaxLength) errs.push(maxLenError(dns1123SubdomainMaxLength));
  if (!dns1123SubdomainRegexp.test(value)) {
    errs.push(regexError(dns1123SubdomainErrorMsg, dns1123SubdomainFmt, 'example.com'));
  }
  return errs;
}

export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > dns1035LabelMaxLength) errs.push(maxLenError(dns1035LabelMaxLength));
  if (!dns1035LabelRegexp.test(value)) {
    errs.push(regexError(dns1035LabelErrMsg, dns1035LabelFmt, 'my-name', 'abc-123'));
  }
  return errs;
}

export function isCIdentifier(value: string): string[] {
  if (!cIdentifierRegexp.test(value)) {
    return [regexError(identifierErrMsg, cIdentifierFmt, 'my_name', 'MY_NAME', 'MyName')];
  }
  return [];
}

export function isValidPortNum(port: number): string[] {
  if (1 <= port && port <= 65535) return [];
  return [inclusiveRangeError(1, 65535)];
}

export function isInRange(value: number, min: number, max: number): string[] {
  if (value >= min && value <= max) return [];
  return [inclusiveRangeError(min, max)];
}

/** IANA service name rules: at most 15 of [-a-z0-9], a letter, no `--`, no leading/trailing `-`. */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (byteLen(port) > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) {
    errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  }
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) {
    errs.push('must not begin or end with a hyphen');
  }
  return errs;
}

/** IPv4 or IPv6, with IPv4 octets allowed leading zeros (netutils.ParseIPSloppy). */
export function isValidIP(value: string): string[] {
  if (parseIPSloppy(value) === undefined) {
    return ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
  }
  return [];
}

export function isValidPercent(percent: string): string[] {
  if (!percentRegexp.test(percent)) return [regexError(percentErrMsg, percentFmt, '1%', '93%')];
  return [];
}

/** Names that become one URL path segment: not `.`/`..`, no `/` or `%` (path.IsValidPathSegmentName). */
export function isValidPathSegmentName(name: string): string[] {
  for (const bad of ['.', '..']) if (name === bad) return [`may not be '${bad}'`];
  return isValidPathSegmentPrefix(name);
}

/** A prefix of a path segment name: only the `/` and `%` rules apply. */
export function isValidPathSegmentPrefix(name: string): string[] {
  const errs: string[] = [];
  for (const bad of ['/', '%']) if (name.includes(bad)) errs.push(`may not contain '${bad}'`);
  return errs;
}

/** Upstream ValidateNameFunc: `prefix` is true when validating generateName. */
export type ValidateNameFunc = (name: string, prefix: boolean) => string[];

/**
 * Upstream maskTrailingDash: a generateName may end in '-'. Upstream drops the last two characters
 * and appends 'a' (a quirk kept here so results match).
 */
function maskTrailingDash(name: string): string {
  if (name.length > 1 && name.endsWith('-')) return `${name.slice(0, name.length - 2)}a`;
  return name;
}

export function nameIsDNSSubdomain(name: string, prefix: boolean): string[] {
  return isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
}

export function nameIsDNSLabel(name: string, prefix: boolean): string[] {
  return isDNS1123Label(prefix ? maskTrailingDash(name) : name);
}

export function nameIsDNS1035Label(name: string, prefix: boolean): string[] {
  return isDNS1035Label(prefix ? maskTrailingDash(name) : name);
}

export function validatePathSegmentName(name: string, prefix: boolean): string[] {
  return prefix ? isValidPathSegmentPrefix(name) : isValidPathSegmentName(name);
}
