/**
 * The network as a command in a simulated container sees it (`nc`, `curl`, `wget`): names to
 * resolve, TCP exchanges, UDP datagrams and HTTP requests to other pods' servers. Synchronous:
 * every server the simulator follows answers at once, in the container's virtual time.
 */
import type { SimHttpRequest, SimHttpResponse } from '../../machinery/http-exchange.js';
import type { DnsResponse, DnsType } from '../network/cluster-dns.js';

/** A connection that failed, as the OS would report it. */
export class NetFailure extends Error {
  constructor(
    readonly code: 'refused' | 'timeout' | 'unresolved',
    message: string,
  ) {
    super(message);
  }
}

export interface ShellNet {
  /** The addresses of `host` (throws NetFailure 'unresolved'). */
  resolve(host: string): string[];
  /** A TCP exchange: `data` sent, the server's bytes until it closes (throws NetFailure). */
  tcp(ip: string, port: number, data: string): string;
  /** A UDP datagram: the answer, or undefined when none comes (throws NetFailure). */
  udp(ip: string, port: number, data: string): string | undefined;
  /** An HTTP request over a connection to ip:port (throws NetFailure). */
  http(ip: string, port: number, req: SimHttpRequest): SimHttpResponse;
  /**
   * One DNS question to the server at `server` port 53 (over TCP or UDP): its answer (throws
   * NetFailure 'timeout' when nothing answers there). Absent: DNS is not known.
   */
  dns?(server: string, name: string, type: DnsType, tcp: boolean): DnsResponse;
}
