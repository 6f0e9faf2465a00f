/**
 * Go's net/netip (Go 1.20, what kube-apiserver v1.27 is built with): ParseAddr with its exact
 * error texts, and Addr.String's canonical form (dotted quad; RFC 5952 for IPv6; `::ffff:a.b.c.d`
 * for IPv4-mapped addresses). Unlike net.ParseIP, leading zeros in IPv4 octets are refused.
 */

export interface Addr {
  /** 4 bytes for an IPv4 address, 16 for an IPv6 one. */
  readonly bytes: Uint8Array;
  /** IPv6 zone (`fe80::1%eth0`), '' without one. */
  readonly zone: string;
}

export class ParseAddrError extends Error {
  constructor(input: string, msg: string, at = '') {
    const q = JSON.stringify;
    super(`ParseAddr(${q(input)}): ${msg}${at === '' ? '' : ` (at ${q(at)})`}`);
  }
}

function parseIPv4(s: string): Uint8Array {
  const fields = new Uint8Array(4);
  let val = 0;
  let pos = 0;
  let digLen = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c >= '0' && c <= '9') {
      if (digLen === 1 && val === 0) throw new ParseAddrError(s, 'IPv4 field has octet with leading zero');
      val = val * 10 + (s.charCodeAt(i) - 48);
      digLen++;
      if (val > 255) throw new ParseAddrError(s, 'IPv4 field has value >255');
    } else if (c === '.') {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.') {
        throw new ParseAddrError(s, 'IPv4 field must have at least one digit', s.slice(i));
      }
      if (pos === 3) throw new ParseAddrError(s, 'IPv4 address too long');
      fields[pos++] = val;
      val = 0;
      digLen = 0;
    } else {
      throw new ParseAddrError(s, 'unexpected character', s.slice(i));
    }
  }
  if (pos < 3) throw new ParseAddrError(s, 'IPv4 address too short');
  fields[3] = val;
  return fields;
}

function hexValue(c: string): number {
  if (c >= '0' && c <= '9') return c.charCodeAt(0) - 48;
  if (c >= 'a' && c <= 'f') return c.charCodeAt(0) - 87;
  if (c >= 'A' && c <= 'F') return c.charCodeAt(0) - 55;
  return -1;
}

function parseIPv6(input: string): Addr {
  let s = input;
  let zone = '';
  const pct = s.indexOf('%');
  if (pct >= 0) {
    zone = s.slice(pct + 1);
    s = s.slice(0, pct);
    if (zone === '') throw new ParseAddrError(input, 'zone must be a non-empty string');
  }
  const ip = new Uint8Array(16);
  let ellipsis = -1;
  if (s.length >= 2 && s[0] === ':' && s[1] === ':') {
    ellipsis = 0;
    s = s.slice(2);
    if (s.length === 0) return { bytes: ip, zone };
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    for (; off < s.length; off++) {
      const d = hexValue(s[off]!);
      if (d < 0) break;
      acc = acc * 16 + d;
      if (acc > 0xffff) throw new ParseAddrError(input, 'IPv6 field has value >=2^16', s);
    }
    if (off === 0) {
      throw new ParseAddrError(input, 'each colon-separated field must have at least one digit', s);
    }
    if (off < s.length && s[off] === '.') {
      if (ellipsis < 0 && i !== 12) {
        throw new ParseAddrError(
          input,
          'embedded IPv4 address must replace the final 2 fields of the address',
          s,
        );
      }
      if (i + 4 > 16) {
        throw new ParseAddrError(
          input,
          'too many hex fields to fit an embedded IPv4 at the end of the address',
          s,
        );
      }
      let ip4: Uint8Array;
      try {
        ip4 = parseIPv4(s);
      } catch (err) {
        throw new ParseAddrError(input, (err as Error).message, s);
      }
      ip.set(ip4, i);
      s = '';
      i += 4;
      break;
    }
    ip[i] = acc >> 8;
    ip[i + 1] = acc & 0xff;
    i += 2;
    s = s.slice(off);
    if (s.length === 0) break;
    if (s[0] !== ':') throw new ParseAddrError(input, 'unexpected character, want colon', s);
    if (s.length === 1) throw new ParseAddrError(input, 'colon must be followed by more characters', s);
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) throw new ParseAddrError(input, 'multiple :: in address', s);
      ellipsis = i;
      s = s.slice(1);
      if (s.length === 0) break;
    }
  }
  if (s.length !== 0) throw new ParseAddrError(input, 'trailing garbage after address', s);
  if (i < 16) {
    if (ellipsis < 0) throw new ParseAddrError(input, 'address string too short');
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j]!;
    for (let j = ellipsis + n - 1; j >= ellipsis; j--) ip[j] = 0;
  } else if (ellipsis >= 0) {
    throw new ParseAddrError(input, 'the :: must expand to at least one field of zeros');
  }
  return { bytes: ip, zone };
}

/** netip.ParseAddr: throws a ParseAddrError with Go's message. */
export function parseAddr(s: string): Addr {
  for (const c of s) {
    if (c === '.') return { bytes: parseIPv4(s), zone: '' };
    if (c === ':') return parseIPv6(s);
    if (c === '%') throw new ParseAddrError(s, 'missing IPv6 address');
  }
  throw new ParseAddrError(s, 'unable to parse IP');
}

function string4(b: Uint8Array): string {
  return `${b[0]}.${b[1]}.${b[2]}.${b[3]}`;
}

function string6(b: Uint8Array): string {
  const groups: number[] = [];
  for (let i = 0; i < 8; i++) groups.push((b[2 * i]! << 8) | b[2 * i + 1]!);
  // The first longest run of at least two zero groups becomes "::".
  let zeroStart = -1;
  let zeroEnd = -1;
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i >= 2 && j - i > zeroEnd - zeroStart) {
      zeroStart = i;
      zeroEnd = j;
    }
  }
  let out = '';
  for (let i = 0; i < 8; i++) {
    if (i === zeroStart) {
      out += '::';
      i = zeroEnd - 1;
      continue;
    }
    if (i > 0 && i !== zeroEnd) out += ':';
    out += groups[i]!.toString(16);
  }
  return out;
}

function is4In6(b: Uint8Array): boolean {
  if (b.length !== 16) return false;
  for (let i = 0; i < 10; i++) if (b[i] !== 0) return false;
  return b[10] === 0xff && b[11] === 0xff;
}

/** Addr.String: the canonical text of an address. */
export function addrString(a: Addr): string {
  const zone = a.zone === '' ? '' : `%${a.zone}`;
  if (a.bytes.length === 4) return string4(a.bytes);
  if (is4In6(a.bytes)) return `::ffff:${string4(a.bytes.subarray(12))}${zone}`;
  return string6(a.bytes) + zone;
}
