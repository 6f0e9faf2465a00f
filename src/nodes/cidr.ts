/**
 * IPv4/IPv6 address and CIDR arithmetic for handing out node podCIDRs, node addresses and pod IPs
 * (dual-stack, NW-08). Addresses are bigints; IPv6 is printed in RFC 5952's canonical form.
 */
import { formatIPv6Groups } from '../util/ipv6-text.js';

export type IpFamily = 4 | 6;

export interface Cidr {
  readonly family: IpFamily;
  /** The network address (host bits cleared). */
  readonly base: bigint;
  readonly prefix: number;
}

function bitsOf(family: IpFamily): number {
  return family === 4 ? 32 : 128;
}

function parseIPv4(s: string): bigint | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  let v = 0n;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    v = (v << 8n) | BigInt(p);
  }
  return v;
}

function parseIPv6(s: string): bigint | undefined {
  let text = s;
  let tail: bigint[] = [];
  // An embedded IPv4 tail (::ffff:1.2.3.4).
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    const v4 = parseIPv4(text.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    tail = [v4 >> 16n, v4 & 0xffffn];
    text = `${text.slice(0, lastColon + 1)}${tail.length > 0 ? '0:0' : ''}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const group = (h: string): bigint[] | undefined => {
    if (h === '') return [];
    const out: bigint[] = [];
    for (const g of h.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
      out.push(BigInt(`0x${g}`));
    }
    return out;
  };
  const head = group(halves[0] ?? '');
  const rest = halves.length === 2 ? group(halves[1] ?? '') : [];
  if (head === undefined || rest === undefined) return undefined;
  let groups: bigint[];
  if (halves.length === 2) {
    const missing = 8 - head.length - rest.length;
    if (missing < 1) return undefined;
    groups = [...head, ...new Array<bigint>(missing).fill(0n), ...rest];
  } else {
    groups = head;
  }
  if (groups.length !== 8) return undefined;
  if (tail.length > 0) groups = [...groups.slice(0, 6), ...tail];
  return groups.reduce((acc, g) => (acc << 16n) | g, 0n);
}

/** An address and its family, or undefined when `s` is not an IP address. */
export function parseIp(s: string): { readonly family: IpFamily; readonly value: bigint } | undefined {
  if (s.includes(':')) {
    const value = parseIPv6(s);
    return value === undefined ? undefined : { family: 6, value };
  }
  const value = parseIPv4(s);
  return value === undefined ? undefined : { family: 4, value };
}

export function formatIp(family: IpFamily, value: bigint): string {
  if (family === 4) {
    return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
  }
  const groups: number[] = [];
  for (let i = 7; i >= 0; i--) groups.push(Number((value >> BigInt(i * 16)) & 0xffffn));
  return formatIPv6Groups(groups);
}

/** Parses `a.b.c.d/n` or `x::/n`; throws on anything else. Host bits are cleared. */
export function parseCidr(s: string): Cidr {
  const slash = s.indexOf('/');
  const ip = slash < 0 ? undefined : parseIp(s.slice(0, slash));
  const prefixText = slash < 0 ? '' : s.slice(slash + 1);
  if (ip === undefined || !/^\d{1,3}$/.test(prefixText) || Number(prefixText) > bitsOf(ip.family)) {
    throw new Error(`invalid CIDR address: ${s}`);
  }
  const prefix = Number(prefixText);
  const hostBits = BigInt(bitsOf(ip.family) - prefix);
  return { family: ip.family, base: (ip.value >> hostBits) << hostBits, prefix };
}

export function formatCidr(c: Cidr): string {
  return `${formatIp(c.family, c.base)}/${c.prefix}`;
}

/** How many subnets of size `/prefix` `c` holds (Infinity past 2^53). */
export function subnetCount(c: Cidr, prefix: number): number {
  if (prefix < c.prefix) return 0;
  return prefix - c.prefix >= 53 ? Infinity : 2 ** (prefix - c.prefix);
}

/** The `index`th subnet of size `/prefix` inside `c`. */
export function subnet(c: Cidr, prefix: number, index: number): Cidr {
  if (index < 0 || index >= subnetCount(c, prefix)) {
    throw new Error(`${formatCidr(c)} has no /${prefix} subnet number ${index}`);
  }
  return {
    family: c.family,
    base: c.base + (BigInt(index) << BigInt(bitsOf(c.family) - prefix)),
    prefix,
  };
}

/** Addresses in `c` (Infinity past 2^53). */
export function cidrSize(c: Cidr): number {
  const hostBits = bitsOf(c.family) - c.prefix;
  return hostBits >= 53 ? Infinity : 2 ** hostBits;
}

/** The address `offset` past the network address of `c`. */
export function addressIn(c: Cidr, offset: number): string {
  return formatIp(c.family, c.base + BigInt(offset));
}

/** `ip` plus `n` (node addresses are handed out consecutively from a first one). */
export function addToIp(ip: string, n: number): string {
  const parsed = parseIp(ip);
  if (parsed === undefined) throw new Error(`invalid IP address: ${ip}`);
  const max = (1n << BigInt(bitsOf(parsed.family))) - 1n;
  const value = parsed.value + BigInt(n);
  if (value > max) throw new Error(`${ip} + ${n} leaves the IPv${parsed.family} address space`);
  return formatIp(parsed.family, value);
}
