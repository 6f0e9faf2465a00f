/**
 * CIDR parsing and containment as k8s.io/utils/net ParseCIDRSloppy and Go's net.IPNet (Contains,
 * Mask.Size), enough for NetworkPolicy ipBlock rules.
 */
import { parseIPSloppy } from '../../../../machinery/validation/ip.js';

export interface IPNet {
  /** The network address: 4 bytes for an IPv4 CIDR, 16 for an IPv6 one. */
  readonly ip: Uint8Array;
  /** Prefix length (the mask's ones). */
  readonly ones: number;
  /** Mask length in bits: 32 or 128. */
  readonly bits: number;
}

const big = 0xffffff;

/** Go's dtoi: the decimal number at the start of `s` and the digits used; undefined when none. */
function dtoi(s: string): [number, number] | undefined {
  let n = 0;
  let i = 0;
  for (; i < s.length && s[i]! >= '0' && s[i]! <= '9'; i++) {
    n = n * 10 + (s.charCodeAt(i) - 48);
    if (n >= big) return undefined;
  }
  return i === 0 ? undefined : [n, i];
}

function maskBytes(ones: number, bits: number): Uint8Array {
  const m = new Uint8Array(bits / 8);
  for (let i = 0; i < m.length; i++) {
    const take = Math.max(0, Math.min(8, ones - i * 8));
    m[i] = take === 0 ? 0 : (0xff << (8 - take)) & 0xff;
  }
  return m;
}

/** `a.b.c.d/n` or `x::y/n` (IPv4 octets may have leading zeros); undefined when malformed. */
export function parseCIDRSloppy(s: string): IPNet | undefined {
  const slash = s.indexOf('/');
  if (slash < 0) return undefined;
  const ip = parseIPSloppy(s.slice(0, slash));
  if (ip === undefined) return undefined;
  const maskText = s.slice(slash + 1);
  const bits = ip.length * 8;
  const d = dtoi(maskText);
  if (d === undefined || d[1] !== maskText.length || d[0] > bits) return undefined;
  const mask = maskBytes(d[0], bits);
  const network = ip.map((b, i) => b & mask[i]!);
  return { ip: network, ones: d[0], bits };
}

/** Go's IP.To4: the IPv4 form of a 4-byte or IPv4-mapped 16-byte address. */
function to4(ip: Uint8Array): Uint8Array | undefined {
  if (ip.length === 4) return ip;
  if (ip.length !== 16) return undefined;
  for (let i = 0; i < 10; i++) if (ip[i] !== 0) return undefined;
  if (ip[10] !== 0xff || ip[11] !== 0xff) return undefined;
  return ip.slice(12);
}

/** Go's IPNet.Contains. */
export function cidrContains(net: IPNet, ip: Uint8Array): boolean {
  const nn = to4(net.ip) ?? net.ip;
  let m = maskBytes(net.ones, net.bits);
  if (m.length === 4 && nn.length !== 4) return false;
  if (m.length === 16 && nn.length === 4) m = m.slice(12);
  const x = to4(ip) ?? ip;
  if (x.length !== nn.length) return false;
  for (let i = 0; i < x.length; i++) {
    if ((nn[i]! & m[i]!) !== (x[i]! & m[i]!)) return false;
  }
  return true;
}
