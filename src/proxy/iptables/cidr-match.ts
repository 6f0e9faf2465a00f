/** Whether a CIDR (as the API accepts it) holds an IP, as Go's net.IPNet.Contains says. */
import { cidrContains, parseCIDRSloppy } from '../../apis/networking/v1/validation/cidr.js';
import { parseIPSloppy } from '../../machinery/validation/ip.js';

export function containsIP(cidr: string, ip: string): boolean {
  const net = parseCIDRSloppy(cidr);
  const addr = parseIPSloppy(ip);
  return net !== undefined && addr !== undefined && cidrContains(net, addr);
}
