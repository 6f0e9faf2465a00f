/**
 * The parts of Go's `net/url.Parse` (Go 1.20, as kube-apiserver v1.27 is built with) that webhook
 * URL validation looks at: the scheme, host, user information, raw query and fragment, and the
 * exact error text of a URL Go refuses. Only ASCII is classified; other characters pass through.
 */
import { goQuote } from '../../../machinery/field/errors.js';

type Mode = 'path' | 'host' | 'zone' | 'userPassword' | 'fragment';

export interface GoUserinfo {
  readonly username: string;
  readonly password?: string;
}

export interface GoURL {
  readonly scheme: string;
  readonly opaque: string;
  readonly user: GoUserinfo | undefined;
  readonly host: string;
  readonly path: string;
  readonly rawQuery: string;
  readonly fragment: string;
}

class URLSyntaxError extends Error {}

const isAlpha = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c);

/** Go's shouldEscape for the modes used here. */
function shouldEscape(c: string, mode: Mode): boolean {
  if (isAlpha(c) || isDigit(c)) return false;
  if ((mode === 'host' || mode === 'zone') && `!$&'()*+,;=:[]<>"`.includes(c)) return false;
  if ('-_.~'.includes(c)) return false;
  if ('$&+,/:;=?@'.includes(c)) {
    switch (mode) {
      case 'path':
        return c === '?';
      case 'userPassword':
        return c === '@' || c === '/' || c === '?' || c === ':';
      case 'fragment':
        return false;
      default:
        break;
    }
  }
  if (mode === 'fragment' && '!()*'.includes(c)) return false;
  return true;
}

/** Go's unescape: `%XX` decoding with its escape and host-character errors. */
function unescape(s: string, mode: Mode): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length;) {
    const c = s[i]!;
    if (c === '%') {
      if (i + 2 >= s.length || !isHex(s[i + 1]) || !isHex(s[i + 2])) {
        throw new URLSyntaxError(`invalid URL escape ${goQuote(s.slice(i, i + 3))}`);
      }
      const value = parseInt(s.slice(i + 1, i + 3), 16);
      if (mode === 'host' && parseInt(s[i + 1]!, 16) < 8 && s.slice(i, i + 3) !== '%25') {
        throw new URLSyntaxError(`invalid URL escape ${goQuote(s.slice(i, i + 3))}`);
      }
      bytes.push(value);
      i += 3;
      continue;
    }
    if ((mode === 'host' || mode === 'zone') && c.charCodeAt(0) < 0x80 && shouldEscape(c, mode)) {
      throw new URLSyntaxError(`invalid character ${goQuote(c)} in host name`);
    }
    bytes.push(...Buffer.from(c, 'utf8'));
    i++;
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Go's escape (upper-case hex), for Userinfo.String. */
function escape(s: string, mode: Mode): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b);
    out += b < 0x80 && !shouldEscape(c, mode) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** `user:password` as Go's Userinfo.String prints it. */
export function userinfoString(u: GoUserinfo): string {
  const name = escape(u.username, 'userPassword');
  return u.password === undefined ? name : `${name}:${escape(u.password, 'userPassword')}`;
}

function validOptionalPort(port: string): boolean {
  if (port === '') return true;
  if (port[0] !== ':') return false;
  for (const c of port.slice(1)) if (!isDigit(c)) return false;
  return true;
}

function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const i = host.lastIndexOf(']');
    if (i < 0) throw new URLSyntaxError("missing ']' in host");
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort)) {
      throw new URLSyntaxError(`invalid port ${goQuote(colonPort)} after host`);
    }
    const zone = host.slice(0, i).indexOf('%25');
    if (zone >= 0) {
      return (
        unescape(host.slice(0, zone), 'host') +
        unescape(host.slice(zone, i), 'zone') +
        unescape(host.slice(i), 'host')
      );
    }
  } else {
    const i = host.lastIndexOf(':');
    if (i !== -1) {
      const colonPort = host.slice(i);
      if (!validOptionalPort(colonPort)) {
        throw new URLSyntaxError(`invalid port ${goQuote(colonPort)} after host`);
      }
    }
  }
  return unescape(host, 'host');
}

function validUserinfo(s: string): boolean {
  for (const c of s) {
    if (isAlpha(c) || isDigit(c)) continue;
    if (!"-._:~!$&'()*+,;=%@".includes(c)) return false;
  }
  return true;
}

function parseAuthority(authority: string): { user: GoUserinfo | undefined; host: string } {
  const i = authority.lastIndexOf('@');
  const host = parseHost(i < 0 ? authority : authority.slice(i + 1));
  if (i < 0) return { user: undefined, host };
  const userinfo = authority.slice(0, i);
  if (!validUserinfo(userinfo)) throw new URLSyntaxError('net/url: invalid userinfo');
  const colon = userinfo.indexOf(':');
  if (colon < 0) return { user: { username: unescape(userinfo, 'userPassword') }, host };
  return {
    user: {
      username: unescape(userinfo.slice(0, colon), 'userPassword'),
      password: unescape(userinfo.slice(colon + 1), 'userPassword'),
    },
    host,
  };
}

function getScheme(raw: string): [scheme: string, rest: string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (isAlpha(c)) continue;
    if (isDigit(c) || c === '+' || c === '-' || c === '.') {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === ':') {
      if (i === 0) throw new URLSyntaxError('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

function hasControlByte(s: string): boolean {
  for (const c of s) {
    const code = c.charCodeAt(0);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function parseWithoutFragment(raw: string): GoURL {
  if (hasControlByte(raw)) throw new URLSyntaxError('net/url: invalid control character in URL');
  const empty = { scheme: '', opaque: '', user: undefined, host: '', path: '', rawQuery: '', fragment: '' };
  if (raw === '*') return { ...empty, path: '*' };
  const [schemeRaw, afterScheme] = getScheme(raw);
  const scheme = schemeRaw.toLowerCase();
  let rest = afterScheme;
  let rawQuery = '';
  if (rest.endsWith('?') && rest.split('?').length === 2) {
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (scheme !== '') return { ...empty, scheme, opaque: rest, rawQuery };
    const segment = rest.split('/')[0] ?? '';
    if (segment.includes(':')) throw new URLSyntaxError('first path segment in URL cannot contain colon');
  }
  let user: GoUserinfo | undefined;
  let host = '';
  if ((scheme !== '' || !rest.startsWith('///')) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const slash = authority.indexOf('/');
    if (slash >= 0) {
      rest = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    ({ user, host } = parseAuthority(authority));
  }
  const path = unescape(rest, 'path');
  return { scheme, opaque: '', user, host, path, rawQuery, fragment: '' };
}

/** Go's url.Parse: the URL, or the text of Go's *url.Error. */
export function parseGoURL(raw: string): GoURL | { readonly error: string } {
  const hash = raw.indexOf('#');
  const beforeFragment = hash < 0 ? raw : raw.slice(0, hash);
  const frag = hash < 0 ? '' : raw.slice(hash + 1);
  let url: GoURL;
  try {
    url = parseWithoutFragment(beforeFragment);
  } catch (e) {
    if (e instanceof URLSyntaxError) return { error: `parse ${goQuote(beforeFragment)}: ${e.message}` };
    throw e;
  }
  if (frag === '') return url;
  try {
    return { ...url, fragment: unescape(frag, 'fragment') };
  } catch (e) {
    if (e instanceof URLSyntaxError) return { error: `parse ${goQuote(raw)}: ${e.message}` };
    throw e;
  }
}
