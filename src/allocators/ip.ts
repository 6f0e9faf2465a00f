/**
 * IP addresses and CIDRs as integers, for the allocators (which import nothing but util): strict
 * dotted-quad IPv4 and RFC 4291 IPv6 text in, canonical text out (RFC 5952, as Go's net.IP String:
 * lowercase, longest zero run compressed, IPv4-mapped addresses printed dotted).
 */
import { formatIPv6Groups } from '../util/ipv6-text.js';

export type IPFamily = 4 | 6;

export interface IPValue {
  readonly family: IPFamily;
  readonly value: bigint;
}

export interface CIDR {
  readonly family: IPFamily;
  /** The network address (host bits cleared). */
  readonly base: bigint;
  readonly prefix: number;
  /** Number of addresses in the network (2^(bits-prefix)). */
  readonly size: bigint;
}

const bitsOf = (family: IPFamily): number => (family === 4 ? 32 : 128);

function parseV4(s: string): bigint | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  let v = 0n;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    v = (v << 8n) | BigInt(n);
  }
  return v;
}

function parseV6(s: string): bigint | undefined {
  if (s.includes('%')) return undefined;
  let text = s;
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    // A dotted IPv4 tail stands for the last two groups.
    const v4 = parseV4(text.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    text = `${text.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const group = (part: string): bigint[] | undefined => {
    if (part === '') return [];
    const out: bigint[] = [];
    for (const g of part.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
      out.push(BigInt(`0x${g}`));
    }
    return out;
  };
  const head = group(halves[0]!);
  const rest = halves.length === 2 ? group(halves[1]!) : [];
  if (head === undefined || rest === undefined) return undefined;
  const given = head.length + rest.length;
  let groups: bigint[];
  if (halves.length === 2) {
    if (given > 7) return undefined;
    groups = [...head, ...Array<bigint>(8 - given).fill(0n), ...rest];
  } else {
    if (given !== 8) return undefined;
    groups = head;
  }
  return groups.reduce((acc, g) => (acc << 16n) | g, 0n);
}

/** Parses an IPv4 or IPv6 address; undefined when it is neither. */
export function parseIP(s: string): IPValue | undefined {
  if (s.includes(':')) {
    const v = parseV6(s);
    return v === undefined ? undefined : { family: 6, value: v };
  }
  const v = parseV4(s);
  return v === undefined ? undefined : { family: 4, value: v };
}

/** The canonical text of an address. */
export function formatIP(ip: IPValue): string {
  if (ip.family === 4) {
    const v = ip.value;
    return [24n, 16n, 8n, 0n].map((s) => String((v >> s) & 0xffn)).join('.');
  }
  if (ip.value >> 32n === 0xffffn) return formatIP({ family: 4, value: ip.value & 0xffffffffn });
  const groups: number[] = [];
  for (let i = 7; i >= 0; i--) groups.push(Number((ip.value >> BigInt(i * 16)) & 0xffffn));
  return formatIPv6Groups(groups);
}

/** Parses `ip/prefix`; the address is reduced to its network (as Go's net.ParseCIDR). */
export function parseCIDR(s: string): CIDR | undefined {
  const slash = s.indexOf('/');
  if (slash < 0) return undefined;
  const ip = parseIP(s.slice(0, slash));
  const p = s.slice(slash + 1);
  if (ip === undefined || !/^\d{1,3}$/.test(p)) return undefined;
  const bits = bitsOf(ip.family);
  const prefix = Number(p);
  if (prefix > bits) return undefined;
  const hostBits = BigInt(bits - prefix);
  const base = (ip.value >> hostBits) << hostBits;
  return { family: ip.family, base, prefix, size: 1n << hostBits };
}

/** The CIDR's text with its network address, as Go's IPNet String. */
export function formatCIDR(c: CIDR): string {
  return `${formatIP({ family: c.family, value: c.base })}/${c.prefix}`;
}
