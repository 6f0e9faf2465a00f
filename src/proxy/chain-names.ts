/**
 * kube-proxy's iptables chain names (pkg/proxy/iptables/proxier.go): the first 16 characters of
 * the base32 (RFC 4648, upper case) SHA-256 of the service port's name and protocol — and, for an
 * endpoint's chain, its `ip:port` — with no separator: `ns1/svc1:p80` + `tcp` →
 * `KUBE-SVC-XPGD46QRK7WJZT7O`. The same hash names a service port's SVC, SVL, EXT and FW chains.
 */
import { createHash } from 'node:crypto';

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 of `bytes`, the first `length` characters only. */
function base32Prefix(bytes: Uint8Array, length: number): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const b of bytes) {
    buffer = (buffer << 8) | b;
    bits += 8;
    while (bits >= 5 && out.length < length) {
      out += alphabet.charAt((buffer >>> (bits - 5)) & 31);
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
    if (out.length >= length) break;
  }
  return out;
}

function hash16(input: string): string {
  return base32Prefix(createHash('sha256').update(input).digest(), 16);
}

export interface ServiceChains {
  /** KUBE-SVC-: every endpoint the cluster policy allows. */
  readonly svc: string;
  /** KUBE-SVL-: the node's local endpoints. */
  readonly svl: string;
  /** KUBE-EXT-: traffic from outside (external IPs, load balancers, node ports). */
  readonly ext: string;
  /** KUBE-FW-: load balancer traffic checked against loadBalancerSourceRanges. */
  readonly fw: string;
}

/** `servicePortName` is `ns/name` or `ns/name:port` (ServicePortName.String()); protocol lower case. */
export function serviceChains(servicePortName: string, protocol: string): ServiceChains {
  const h = hash16(servicePortName + protocol);
  return { svc: `KUBE-SVC-${h}`, svl: `KUBE-SVL-${h}`, ext: `KUBE-EXT-${h}`, fw: `KUBE-FW-${h}` };
}

/** KUBE-SEP- for one endpoint (`ip:port`, IPv6 in brackets) of a service port. */
export function endpointChain(servicePortName: string, protocol: string, endpoint: string): string {
  return `KUBE-SEP-${hash16(servicePortName + protocol + endpoint)}`;
}

/** The chains the proxy owns per service (and may delete when stale): upstream isServiceChainName. */
export function isServiceChain(name: string): boolean {
  return /^KUBE-(SVC|SVL|EXT|FW|SEP)-/.test(name);
}
