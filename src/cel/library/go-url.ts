// The parts of Go's net/url (Go 1.20, what Kubernetes v1.27 builds with) that the Kubernetes
// URL library uses: Parse, ParseRequestURI, Hostname, Port, EscapedPath and Query, with Go's
// error texts ("parse \"x\": invalid URI for request"). Strings are handled as UTF-8 bytes where
// Go does (escaping), as UTF-16 elsewhere; the URL characters that matter are ASCII.

export interface GoUrl {
  scheme: string;
  opaque: string;
  /** userinfo is parsed and validated; the library does not expose it. */
  host: string;
  path: string;
  rawPath: string;
  forceQuery: boolean;
  rawQuery: string;
  fragment: string;
}

export class GoUrlError extends Error {
  override readonly name = 'GoUrlError';
}

type Mode = 'path' | 'pathSegment' | 'host' | 'zone' | 'userPassword' | 'queryComponent' | 'fragment';

const isHex = (c: string): boolean => /^[0-9a-fA-F]$/.test(c);

function shouldEscape(c: number, mode: Mode): boolean {
  const ch = String.fromCharCode(c);
  if (/^[a-zA-Z0-9]$/.test(ch)) return false;
  if ((mode === 'host' || mode === 'zone') && `!$&'()*+,;=:[]<>"`.includes(ch)) return false;
  if ('-_.~'.includes(ch)) return false;
  if ('$&+,/:;=?@'.includes(ch)) {
    switch (mode) {
      case 'pathSegment':
        return '/;,?'.includes(ch);
      case 'path':
        return ch === '?';
      case 'userPassword':
        return '@/?:'.includes(ch);
      case 'queryComponent':
        return true;
      case 'fragment':
        return false;
      default:
        break;
    }
  }
  if (mode === 'fragment' && '!()*'.includes(ch)) return false;
  return true;
}

const quote = (s: string): string => JSON.stringify(s);

/** url.unescape over the string's UTF-8 bytes. */
export function unescape(s: string, mode: Mode): string {
  for (let i = 0; i < s.length;) {
    const c = s[i]!;
    if (c === '%') {
      if (i + 2 >= s.length || !isHex(s[i + 1]!) || !isHex(s[i + 2]!)) {
        throw new GoUrlError(`invalid URL escape ${quote(s.slice(i, i + 3))}`);
      }
      if (mode === 'host' && parseInt(s[i + 1]!, 16) < 8 && s.slice(i, i + 3) !== '%25') {
        throw new GoUrlError(`invalid URL escape ${quote(s.slice(i, i + 3))}`);
      }
      if (mode === 'zone') {
        const v = parseInt(s.slice(i + 1, i + 3), 16);
        if (s.slice(i, i + 3) !== '%25' && v !== 0x20 && shouldEscape(v, 'host')) {
          throw new GoUrlError(`invalid URL escape ${quote(s.slice(i, i + 3))}`);
        }
      }
      i += 3;
      continue;
    }
    if (
      (mode === 'host' || mode === 'zone') &&
      c.charCodeAt(0) < 0x80 &&
      shouldEscape(c.charCodeAt(0), mode)
    ) {
      throw new GoUrlError(`invalid character ${quote(c)} in host name`);
    }
    i++;
  }
  const bytes: number[] = [];
  const enc = new TextEncoder();
  for (let i = 0; i < s.length;) {
    const c = s[i]!;
    if (c === '%') {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 3;
    } else if (c === '+' && mode === 'queryComponent') {
      bytes.push(0x20);
      i++;
    } else {
      const cp = s.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      bytes.push(...enc.encode(ch));
      i += ch.length;
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** url.escape over UTF-8 bytes, upper-case hex. */
export function escape(s: string, mode: Mode): string {
  let out = '';
  for (const b of new TextEncoder().encode(s)) {
    if (shouldEscape(b, mode)) {
      out +=
        b === 0x20 && mode === 'queryComponent' ? '+' : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    } else {
      out += String.fromCharCode(b);
    }
  }
  return out;
}

function getScheme(raw: string): { scheme: string; rest: string } {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (/[a-zA-Z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) return { scheme: '', rest: raw };
      continue;
    }
    if (c === ':') {
      if (i === 0) throw new GoUrlError('missing protocol scheme');
      return { scheme: raw.slice(0, i), rest: raw.slice(i + 1) };
    }
    return { scheme: '', rest: raw };
  }
  return { scheme: '', rest: raw };
}

function validOptionalPort(port: string): boolean {
  if (port === '') return true;
  if (port[0] !== ':') return false;
  return /^[0-9]*$/.test(port.slice(1));
}

function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const i = host.lastIndexOf(']');
    if (i < 0) throw new GoUrlError("missing ']' in host");
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort)) {
      throw new GoUrlError(`invalid port ${quote(colonPort)} after host`);
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
        throw new GoUrlError(`invalid port ${quote(colonPort)} after host`);
      }
    }
  }
  return unescape(host, 'host');
}

function validUserinfo(s: string): boolean {
  return /^[a-zA-Z0-9\-._:~!$&'()*+,;=%@]*$/.test(s);
}

function parseAuthority(authority: string): string {
  const i = authority.lastIndexOf('@');
  const host = parseHost(i < 0 ? authority : authority.slice(i + 1));
  if (i < 0) return host;
  const userinfo = authority.slice(0, i);
  if (!validUserinfo(userinfo)) throw new GoUrlError('net/url: invalid userinfo');
  const colon = userinfo.indexOf(':');
  if (colon < 0) unescape(userinfo, 'userPassword');
  else {
    unescape(userinfo.slice(0, colon), 'userPassword');
    unescape(userinfo.slice(colon + 1), 'userPassword');
  }
  return host;
}

function parse(raw: string, viaRequest: boolean): GoUrl {
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new GoUrlError('net/url: invalid control character in URL');
  if (raw === '' && viaRequest) throw new GoUrlError('empty url');
  const url: GoUrl = {
    scheme: '',
    opaque: '',
    host: '',
    path: '',
    rawPath: '',
    forceQuery: false,
    rawQuery: '',
    fragment: '',
  };
  if (raw === '*') {
    url.path = '*';
    return url;
  }
  const got = getScheme(raw);
  url.scheme = got.scheme.toLowerCase();
  let rest = got.rest;
  if (rest.endsWith('?') && rest.split('?').length === 2) {
    url.forceQuery = true;
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      url.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (url.scheme !== '') {
      url.opaque = rest;
      return url;
    }
    if (viaRequest) throw new GoUrlError('invalid URI for request');
    const slash = rest.indexOf('/');
    const segment = slash < 0 ? rest : rest.slice(0, slash);
    if (segment.includes(':')) {
      throw new GoUrlError('first path segment in URL cannot contain colon');
    }
  }
  if ((url.scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const i = authority.indexOf('/');
    if (i >= 0) {
      rest = authority.slice(i);
      authority = authority.slice(0, i);
    }
    url.host = parseAuthority(authority);
  }
  url.path = unescape(rest, 'path');
  url.rawPath = escape(url.path, 'path') === rest ? '' : rest;
  return url;
}

function wrap<T>(raw: string, f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof GoUrlError) throw new GoUrlError(`parse ${quote(raw)}: ${err.message}`);
    throw err;
  }
}

/** url.Parse: the fragment after '#' is split off first. */
export function parseUrl(raw: string): GoUrl {
  return wrap(raw, () => {
    const hash = raw.indexOf('#');
    const url = parse(hash < 0 ? raw : raw.slice(0, hash), false);
    if (hash >= 0) url.fragment = unescape(raw.slice(hash + 1), 'fragment');
    return url;
  });
}

/** url.ParseRequestURI: an absolute URI or absolute path, no fragment handling. */
export function parseRequestUri(raw: string): GoUrl {
  return wrap(raw, () => parse(raw, true));
}

function splitHostPort(hostPort: string): { host: string; port: string } {
  let host = hostPort;
  let port = '';
  const colon = host.lastIndexOf(':');
  if (colon !== -1 && validOptionalPort(host.slice(colon))) {
    port = host.slice(colon + 1);
    host = host.slice(0, colon);
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return { host, port };
}

export const hostname = (u: GoUrl): string => splitHostPort(u.host).host;
export const port = (u: GoUrl): string => splitHostPort(u.host).port;

function validEncoded(s: string): boolean {
  for (const ch of s) {
    if ("!$&'()*+,;=:@[]".includes(ch) || ch === '%') continue;
    if (ch.charCodeAt(0) >= 0x80 || shouldEscape(ch.charCodeAt(0), 'path')) return false;
  }
  return true;
}

/** URL.EscapedPath. */
export function escapedPath(u: GoUrl): string {
  if (u.rawPath !== '' && validEncoded(u.rawPath)) {
    try {
      if (unescape(u.rawPath, 'path') === u.path) return u.rawPath;
    } catch {
      // fall through to escaping Path
    }
  }
  if (u.path === '*') return '*';
  return escape(u.path, 'path');
}

/** url.ParseQuery, ignoring malformed pairs as URL.Query does; keys in first-seen order. */
export function query(u: GoUrl): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of u.rawQuery.split('&')) {
    if (part === '' || part.includes(';')) continue;
    const eq = part.indexOf('=');
    const rawKey = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? '' : part.slice(eq + 1);
    let key: string;
    let value: string;
    try {
      key = unescape(rawKey, 'queryComponent');
      value = unescape(rawValue, 'queryComponent');
    } catch {
      continue;
    }
    const list = out.get(key);
    if (list === undefined) out.set(key, [value]);
    else list.push(value);
  }
  return out;
}
