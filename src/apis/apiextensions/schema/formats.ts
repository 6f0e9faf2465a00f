/**
 * String formats a custom resource's values are checked against: the kube-openapi strfmt default
 * registry (kube-openapi pkg/validation/strfmt default.go, time.go, date.go, duration.go, bson.go,
 * with the govalidator checks they call), limited to the formats apiextensions-apiserver v0.27
 * keeps (pkg/apiserver/validation/formats.go; others are stripped from the schema and not checked).
 * Names are normalized as strfmt does: dashes removed (`date-time` is `datetime`).
 */
import { isIPv6 } from 'node:net';
import type { RE2JS } from 're2js';
import { re2 } from '../../../util/re2.js';

/** strfmt's DefaultNameNormalizer. */
export function normalizeFormatName(name: string): string {
  return name.replaceAll('-', '');
}

let hostname: RE2JS | undefined;
const hostnamePattern = (): RE2JS =>
  (hostname ??= re2().compile(
    '^([a-zA-Z0-9\\p{S}\\p{L}]((-?[a-zA-Z0-9\\p{S}\\p{L}]{0,62})?)|([a-zA-Z0-9\\p{S}\\p{L}](([a-zA-Z0-9-\\p{S}\\p{L}]{0,61}[a-zA-Z0-9\\p{S}\\p{L}])?)(\\.)){1,}([a-zA-Z\\p{L}]){2,63})$',
  ));
const uuid = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const uuid3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const uuid4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const uuid5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
const hexColor = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const rgbPart = '(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])';
const rgbColor = new RegExp(`^rgb\\(\\s*${rgbPart}\\s*,\\s*${rgbPart}\\s*,\\s*${rgbPart}\\s*\\)$`);
const ssn = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/;
const creditCard =
  /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|(222[1-9]|22[3-9][0-9]|2[3-6][0-9]{2}|27[01][0-9]|2720)[0-9]{12}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11}|6[27][0-9]{14})$/;
const dateTimeTail = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;
const goDuration = /^[-+]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|\u00b5s|\u03bcs|ms|s|m|h))+$/;

function isHostname(s: string): boolean {
  if (!hostnamePattern().matcher(s).find()) return false;
  if (Buffer.byteLength(s) > 255) return false;
  return s.split('.').every((p) => Buffer.byteLength(p) <= 63);
}

/** Go's net.ParseIP (sloppy: IPv4 parts may have leading zeros) accepting the text. */
function parseIPv4Sloppy(s: string): boolean {
  const parts = s.split('.');
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

function parsesAsIP(s: string): boolean {
  if (parseIPv4Sloppy(s)) return true;
  if (s.includes('%')) return false;
  return isIPv6(s);
}

function isCIDR(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const ip = s.slice(0, slash);
  const bits = s.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits)) return false;
  if (parseIPv4Sloppy(ip)) return Number(bits) <= 32;
  return !ip.includes('%') && isIPv6(ip) && Number(bits) <= 128;
}

/** Go's net.ParseMAC: 6, 8 or 20 octets as `aa:bb:..`, `aa-bb-..` or `aabb.ccdd...`. */
function isMAC(s: string): boolean {
  const octets = [6, 8, 20];
  for (const sep of [':', '-']) {
    const parts = s.split(sep);
    if (octets.includes(parts.length) && parts.every((p) => /^[0-9a-fA-F]{2}$/.test(p))) return true;
  }
  const dotted = s.split('.');
  return octets.includes(dotted.length * 2) && dotted.every((p) => /^[0-9a-fA-F]{4}$/.test(p));
}

/** Go's mail.ParseAddress, approximately: `local@domain` or `Name <local@domain>`. */
function isEmail(s: string): boolean {
  const addr = /<([^<>]*)>\s*$/.exec(s)?.[1] ?? s.trim();
  return /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+$/.test(addr) && !addr.endsWith('.');
}

/** govalidator.IsRequestURI (Go's url.ParseRequestURI): an absolute URI or an absolute path. */
function isRequestURI(s: string): boolean {
  if (s === '' || /[\x00-\x20\x7f]/.test(s)) return false;
  if (s.startsWith('/')) return true;
  return /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(s);
}

function isISBN10(s: string): boolean {
  const x = s.replace(/[\s-]+/g, '');
  if (!/^(?:[0-9]{9}X|[0-9]{10})$/.test(x)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (i + 1) * Number(x[i]);
  sum += x[9] === 'X' ? 100 : 10 * Number(x[9]);
  return sum % 11 === 0;
}

function isISBN13(s: string): boolean {
  const x = s.replace(/[\s-]+/g, '');
  if (!/^(?:[0-9]{13})$/.test(x)) return false;
  const factor = [1, 3];
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += factor[i % 2]! * Number(x[i]);
  return (10 - (sum % 10)) % 10 === Number(x[12]);
}

function isCreditCard(s: string): boolean {
  const x = s.replace(/[^0-9]+/g, '');
  if (!creditCard.test(x)) return false;
  let sum = 0;
  let double = false;
  for (let i = x.length - 1; i >= 0; i--) {
    let d = Number(x[i]);
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Go's time.Parse("2006-01-02", s). */
export function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m === null) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return d <= days;
}

/** strfmt IsDateTime: a date, a `t`, and a time with a zone (compared as text, as upstream). */
function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0]!)) return false;
  const m = dateTimeTail.exec(parts[1]!);
  if (m === null) return false;
  return m[1]! <= '23' && m[2]! <= '59' && m[3]! <= '59';
}

const timeUnits: readonly (readonly string[])[] = [
  ['ns', 'nano'],
  ['us', 'µs', 'micro'],
  ['ms', 'milli'],
  ['s', 'sec'],
  ['m', 'min'],
  ['h', 'hr', 'hour'],
  ['d', 'day'],
  ['w', 'wk', 'week'],
];

/** strfmt ParseDuration: Go's time.ParseDuration, else `<n> <unit>` pairs with known units. */
function isDuration(s: string): boolean {
  if (s === '0' || s === '+0' || s === '-0' || goDuration.test(s)) return true;
  for (const m of s.matchAll(/((\d+)[\t\n\f\r ]*([A-Za-z\u00b5]+))/g)) {
    const unit = (m[3] ?? '').trim().toLowerCase();
    for (const variants of timeUnits) {
      const last = variants.length - 1;
      if (variants.some((v, i) => (i === last && unit.startsWith(v)) || v === unit)) return true;
    }
  }
  return false;
}

const validators: ReadonlyMap<string, (s: string) => boolean> = new Map([
  ['uri', isRequestURI],
  ['email', isEmail],
  ['hostname', isHostname],
  ['ipv4', (s: string) => parsesAsIP(s) && s.includes('.')],
  ['ipv6', (s: string) => parsesAsIP(s) && s.includes(':')],
  ['cidr', isCIDR],
  ['mac', isMAC],
  ['uuid', (s: string) => uuid.test(s)],
  ['uuid3', (s: string) => uuid3.test(s)],
  ['uuid4', (s: string) => uuid4.test(s)],
  ['uuid5', (s: string) => uuid5.test(s)],
  ['isbn', (s: string) => isISBN10(s) || isISBN13(s)],
  ['isbn10', isISBN10],
  ['isbn13', isISBN13],
  ['creditcard', isCreditCard],
  ['ssn', (s: string) => s.length === 11 && ssn.test(s)],
  ['hexcolor', (s: string) => hexColor.test(s)],
  ['rgbcolor', (s: string) => rgbColor.test(s)],
  ['byte', (s: string) => base64.test(s)],
  ['password', () => true],
  ['date', isDate],
  ['datetime', isDateTime],
  ['duration', isDuration],
  ['bsonobjectid', (s: string) => /^[0-9a-fA-F]{24}$/.test(s)],
]);

/** Whether the format is one apiextensions-apiserver keeps and strfmt checks. */
export function isKnownFormat(format: string): boolean {
  return validators.has(normalizeFormatName(format));
}

/** Whether the string is valid in the (known) format. */
export function validatesFormat(format: string, value: string): boolean {
  const v = validators.get(normalizeFormatName(format));
  return v === undefined ? true : v(value);
}
