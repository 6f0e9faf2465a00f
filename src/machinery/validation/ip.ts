/**
 * IP parsing as k8s.io/utils/net ParseIPSloppy (Go 1.16's net.ParseIP): IPv4 octets may carry
 * leading zeros ("010.001.0.1" is 10.1.0.1), IPv6 may embed a dotted IPv4 tail, no zones.
 */
import { formatIPv6Groups } from '../../util/ipv6-text.js';

const big = 0xffffff;

/** Decimal digits at the start of `s`: [value, consumed]; undefined when none or too large. */
function dtoi(s: string): [number, number] | undefined {
  let n = 0;
  let i = 0;
  for (; i < s.length && s[i]! >= '0' && s[i]! <= '9'; i++) {
    n = n * 10 + (s.charCodeAt(i) - 48);
    if (n >= big) return undefined;
  }
  return i === 0 ? undefined : [n, i];
}

/** Hex digits at the start of `s`: [value, consumed]; undefined when none or too large. */
function xtoi(s: string): [number, number] | undefined {
  let n = 0;
  let i = 0;
  for (; i < s.length; i++) {
    const d = parseInt(s[i]!, 16);
    if (Number.isNaN(d)) break;
    n = n * 16 + d;
    if (n >= big) return undefined;
  }
  return i === 0 ? undefined : [n, i];
}

function parseIPv4(input: string): Uint8Array | undefined {
  let s = input;
  const out = new Uint8Array(4);
  for (let j = 0; j < 4; j++) {
    if (s.length === 0) return undefined;
    if (j > 0) {
      if (s[0] !== '.') return undefined;
      s = s.slice(1);
    }
    const r = dtoi(s);
    if (r === undefined || r[0] > 0xff) return undefined;
    out[j] = r[0];
    s = s.slice(r[1]);
  }
  return s.length === 0 ? out : undefined;
}

function parseIPv6(input: string): Uint8Array | undefined {
  let s = input;
  const ip = new Uint8Array(16);
  let ellipsis = -1;
  if (s.length >= 2 && s[0] === ':' && s[1] === ':') {
    ellipsis = 0;
    s = s.slice(2);
    if (s.length === 0) return ip;
  }
  let i = 0;
  while (i < 16) {
    const r = xtoi(s);
    if (r === undefined || r[0] > 0xffff) return undefined;
    const [n, c] = r;
    if (c < s.length && s[c] === '.') {
      if (ellipsis < 0 && i !== 12) return undefined;
      if (i + 4 > 16) return undefined;
      const ip4 = parseIPv4(s);
      if (ip4 === undefined) return undefined;
      ip.set(ip4, i);
      s = '';
      i += 4;
      break;
    }
    ip[i] = n >> 8;
    ip[i + 1] = n & 0xff;
    i += 2;
    s = s.slice(c);
    if (s.length === 0) break;
    if (s[0] !== ':' || s.length === 1) return undefined;
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) return undefined;
      ellipsis = i;
      s = s.slice(1);
      if (s.length === 0) break;
    }
  }
  if (s.length !== 0) return undefined;
  if (i < 16) {
    if (ellipsis < 0) return undefined;
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j]!;
    for (let j = ellipsis + n - 1; j >= ellipsis; j--) ip[j] = 0;
  } else if (ellipsis >= 0) {
    return undefined;
  }
  return ip;
}

/** The address bytes (4 for IPv4, 16 for IPv6), or undefined when `s` is not an IP address. */
export function parseIPSloppy(s: string): Uint8Array | undefined {
  for (const ch of s) {
    if (ch === '.') return parseIPv4(s);
    if (ch === ':') return parseIPv6(s);
  }
  return undefined;
}

/**
 * Go's net.IP.String of 4 or 16 bytes: IPv4 (and IPv4-mapped IPv6) dotted, other IPv6 in RFC 5952
 * form (lower-case hex, the longest run of two or more zero groups as `::`, the first on a tie).
 */
export function formatIPBytes(b: Uint8Array): string {
  const v4 =
    b.length === 4
      ? b
      : b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff
        ? b.slice(12)
        : undefined;
  if (v4 !== undefined) return [...v4].join('.');
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((b[i]! << 8) | b[i + 1]!);
  return formatIPv6Groups(groups);
}
