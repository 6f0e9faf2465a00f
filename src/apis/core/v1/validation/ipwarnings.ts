/**
 * Warnings for IP addresses that the sloppy parser accepts but Go's strict netip.ParseAddr does
 * not (leading zeros), or IPv6 addresses not in RFC 5952 form (upstream service getWarningsForIP).
 */
import { parseIPSloppy } from '../../../../machinery/validation/ip.js';
import { formatIPv6Groups } from '../../../../util/ipv6-text.js';

/** Go's netip.ParseAddr error for an address the sloppy parser accepted, or undefined. */
function strictParseError(address: string): string | undefined {
  const quoted = JSON.stringify(address);
  const v4 = address.includes(':') ? /(?:^|:)([0-9.]+)$/.exec(address)?.[1] : address;
  if (v4 !== undefined && v4.includes('.')) {
    for (const field of v4.split('.')) {
      if (field.length > 1 && field.startsWith('0')) {
        return `ParseAddr(${quoted}): IPv4 field has octet with leading zero`;
      }
    }
  }
  return undefined;
}

/** RFC 5952 text of a 16-byte address (Go's Addr.String for IPv6). */
function canonicalIPv6(bytes: Uint8Array): string {
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((bytes[i]! << 8) | bytes[i + 1]!);
  const isV4Mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (isV4Mapped) return `::ffff:${bytes[12]}.${bytes[13]}.${bytes[14]}.${bytes[15]}`;
  return formatIPv6Groups(groups);
}

/** Warnings for one accepted IP address at `field` (e.g. `spec.clusterIPs[0]`). */
export function warningsForIP(field: string, address: string): string[] {
  const err = strictParseError(address);
  if (err !== undefined) {
    return [`${field}: IP address was accepted, but will be invalid in a future Kubernetes release: ${err}`];
  }
  const bytes = parseIPSloppy(address);
  if (bytes?.length === 16) {
    const canonical = canonicalIPv6(bytes);
    if (canonical !== address) {
      return [
        `${field}: IPv6 address ${JSON.stringify(address)} is not in RFC 5952 canonical format (${JSON.stringify(canonical)}), which may cause controller apply-loops`,
      ];
    }
  }
  return [];
}
