/**
 * HTTP and plain TCP/UDP to the servers in simulated pods: the API server's proxies ask a pod's
 * port directly; a command in a pod (`nc`, `curl`, `wget`) or a server (agnhost guestbook) asks
 * others by name over the cluster network (network/cluster-network.ts). Only pods of the nodes in
 * this process answer; a connection to any other address times out, as to a host that is not
 * there. Everything is synchronous once the network's informers have synced (`ready`).
 */
import { STATUS_CODES } from 'node:http';
import { goHttpErrorAnswer } from '../util/go-http-answer.js';
import { joinHostPort } from '../util/host-port.js';
import type {
  PodHttpOutcome,
  SimConnection,
  SimHttpRequest,
  SimHttpResponse,
} from '../machinery/http-exchange.js';
import { connectToPod } from './pod-connection.js';
import { DialError, HandlerPanic, UnknowableAnswer } from './containers/http-answer.js';
import type { ServeContext } from './containers/http-answer.js';
import type { PodSim } from './containers/pod-sim.js';
import { NetFailure } from './containers/shell-net.js';
import type { ShellNet } from './containers/shell-net.js';
import { ShellUnsupported } from './containers/shell-parse.js';
import { NetworkError } from './network/cluster-network.js';
import type { ClusterNetwork } from './network/cluster-network.js';

/** A running pod of these nodes, found by its address. */
export interface PodAtAddress {
  readonly namespace: string;
  readonly ip: string;
  readonly sim: PodSim | undefined;
  /** A pod on its node's network: the node's name (its loopback is the node's). */
  readonly hostNetworkOf?: string;
}

export interface PodHttpOptions {
  /** The pod of these nodes with the address (undefined: none of theirs). */
  readonly podAt: (ip: string) => PodAtAddress | undefined;
  /** Opens the cluster network (its Services and EndpointSlices synced). */
  readonly open: () => Promise<ClusterNetwork>;
  readonly now: () => number;
}

/** How many servers a request may pass through (a loop of servers asking each other ends). */
const maxHops = 8;

/** The promise's value, or a rejection once the signal aborts first. */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void =>
      reject(signal.reason instanceof Error ? signal.reason : new Error('the request was aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** An answer as it goes over the wire (HTTP/1.1). */
function wireResponse(r: SimHttpResponse): string {
  const head = Object.entries(r.headers).map(([k, v]) => `${k}: ${v}\r\n`);
  return `HTTP/1.1 ${r.status} ${STATUS_CODES[r.status] ?? ''}\r\n${head.join('')}\r\n${r.body}`;
}

/** A request read off a connection: undefined while incomplete, 'malformed' when it is not HTTP. */
function parseWireRequest(data: string): SimHttpRequest | 'malformed' | undefined {
  const end = data.search(/\r?\n\r?\n/);
  const firstLine = /^([^\r\n]*)\r?\n/.exec(data)?.[1];
  if (firstLine === undefined) return undefined;
  const m = /^([A-Z]+) (\S+) HTTP\/1\.[01]$/.exec(firstLine);
  if (m === null) return 'malformed';
  if (end < 0) return undefined;
  const headers: Record<string, string> = {};
  for (const line of data.slice(firstLine.length, end).split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const target = m[2]!;
  const q = target.indexOf('?');
  return {
    method: m[1]!,
    path: q < 0 ? target : target.slice(0, q),
    rawQuery: q < 0 ? '' : target.slice(q + 1),
    headers,
    body: data.slice(end).replace(/^\r?\n\r?\n/, ''),
    tls: false,
  };
}

export class PodHttp {
  readonly #o: PodHttpOptions;
  #network: ClusterNetwork | undefined;
  #opening: Promise<ClusterNetwork> | undefined;

  constructor(o: PodHttpOptions) {
    this.#o = o;
  }

  /** Whether the cluster network is known. */
  isReady(): boolean {
    return this.#network !== undefined;
  }

  /** Starts learning the cluster network once; the same promise after that. */
  #open(): Promise<ClusterNetwork> {
    return (this.#opening ??= this.#o.open().then((n) => (this.#network = n)));
  }

  /** Waits until the cluster network is known (its informers synced). */
  async ready(signal: AbortSignal): Promise<void> {
    if (this.#network !== undefined) return;
    await untilAborted(this.#open(), signal);
  }

  #context(
    pod: PodAtAddress,
    l: Pick<ServeContext, 'hostname' | 'fs' | 'state' | 'log'>,
    hops: number,
  ): ServeContext {
    return {
      log: l.log,
      hostname: l.hostname,
      podIP: pod.ip,
      fs: l.fs,
      state: l.state,
      now: this.#o.now(),
      net: this.fromPod(pod, hops + 1),
      get: (host, toPort, pathAndQuery) => {
        try {
          if (hops + 1 >= maxHops)
            throw new NetFailure('timeout', `dial tcp ${joinHostPort(host, String(toPort))}: i/o timeout`);
          const q = pathAndQuery.indexOf('?');
          const net = this.fromPod(pod, hops + 1);
          const ip = net.resolve(host)[0] ?? host;
          return net.http(ip, toPort, {
            method: 'GET',
            path: q < 0 ? pathAndQuery : pathAndQuery.slice(0, q),
            rawQuery: q < 0 ? '' : pathAndQuery.slice(q + 1),
            headers: { host: joinHostPort(host, String(toPort)), 'user-agent': 'Go-http-client/1.1' },
            body: '',
            tls: false,
          });
        } catch (err) {
          // Go's words: a failed lookup, a refused or timed-out dial.
          if (err instanceof NetFailure)
            throw new DialError(
              err.message.replace(/^(?!dial )/, `dial tcp ${joinHostPort(host, String(toPort))}: `),
            );
          throw err;
        }
      },
    };
  }

  /** An HTTP request to `port` of `pod` (the API server's pods/proxy and services/proxy). */
  request(pod: PodAtAddress, port: number, req: SimHttpRequest, hops = 0): PodHttpOutcome {
    const target = joinHostPort(pod.ip, String(port));
    const refused = { kind: 'failed', error: `dial tcp ${target}: connect: connection refused` } as const;
    const sim = pod.sim;
    if (sim === undefined) return refused;
    const l = sim.listening(port, this.#o.now());
    if (l.kind === 'refused') return refused;
    if (l.kind === 'unknowable') return l;
    const { listener } = l;
    if (listener.protocol !== 'http' || listener.serve === undefined) {
      return {
        kind: 'unknowable',
        reason: `the simulated node does not know what container ${JSON.stringify(l.container)} answers on port ${port}`,
      };
    }
    // The two sides of TLS disagree: Go's client and server say so.
    if (req.tls && listener.tls !== true) {
      return { kind: 'failed', error: 'http: server gave HTTP response to HTTPS client' };
    }
    if (!req.tls && listener.tls === true) {
      return {
        kind: 'answer',
        response: {
          status: 400,
          headers: { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' },
          body: 'Client sent an HTTP request to an HTTPS server.\n',
        },
      };
    }
    try {
      return { kind: 'answer', response: listener.serve(req, this.#context(pod, l, hops)) };
    } catch (err) {
      if (err instanceof UnknowableAnswer) return { kind: 'unknowable', reason: err.message };
      // The server dropped the connection without an answer.
      if (err instanceof HandlerPanic) return { kind: 'failed', error: 'EOF' };
      throw err;
    }
  }

  /**
   * A TCP connection to `port` of the pod with address `ip`, carrying real HTTP (and TLS) to its
   * server; undefined when no pod of these nodes has the address.
   */
  dial(ip: string, port: number): SimConnection | undefined {
    const pod = this.#o.podAt(ip);
    if (pod === undefined) return undefined;
    // The servers' handlers may reach other pods by name: learn the network meanwhile.
    this.#open().catch(() => undefined);
    const listening = pod.sim?.listening(port, this.#o.now()) ?? { kind: 'refused' as const };
    return connectToPod({
      listening,
      // A kept-alive connection to a pod that has since gone (or whose address another pod now
      // has) is cut, as the connection to a removed container is.
      request: (req) =>
        this.#o.podAt(ip)?.sim === pod.sim && pod.sim !== undefined
          ? this.request(pod, port, req)
          : { kind: 'failed', error: 'EOF' },
    });
  }

  /** The network as commands and servers in `from` see it (throws ShellUnsupported where unknowable). */
  fromPod(from: PodAtAddress, hops = 0): ShellNet {
    const network = (): ClusterNetwork => {
      if (this.#network === undefined) throw new ShellUnsupported('the cluster network is not known yet');
      return this.#network;
    };
    /** The pod a connection to ip:port lands on (throws NetFailure). */
    const land = (ip: string, port: number, protocol: 'tcp' | 'udp'): { pod: PodAtAddress; port: number } => {
      const loopback = ip === '127.0.0.1' || ip === '::1' || ip === 'localhost';
      // A pod's loopback is its own; a host-network pod's is its node's (host ports bound there).
      const own = loopback && from.hostNetworkOf === undefined;
      let dest = { ip: own ? from.ip : ip, port };
      try {
        if (loopback && from.hostNetworkOf !== undefined) {
          dest = network().routeLoopback(from.hostNetworkOf, port, protocol);
        } else if (!own) dest = network().route(ip, port, from.ip, protocol);
      } catch (err) {
        if (err instanceof NetworkError) throw new NetFailure('refused', err.message);
        throw err;
      }
      const pod = own ? from : this.#o.podAt(dest.ip);
      if (pod === undefined) {
        throw new NetFailure('timeout', `dial tcp ${joinHostPort(dest.ip, String(dest.port))}: i/o timeout`);
      }
      return { pod, port: dest.port };
    };
    const unknowable = (reason: string): never => {
      throw new ShellUnsupported(reason);
    };
    return {
      resolve: (host) => {
        if (host === 'localhost') return ['127.0.0.1'];
        try {
          return network().resolve(from.namespace, host);
        } catch (err) {
          if (err instanceof NetworkError) throw new NetFailure('unresolved', err.message);
          throw err;
        }
      },
      http: (ip, port, req) => {
        const to = land(ip, port, 'tcp');
        const out = this.request(to.pod, to.port, req, hops);
        if (out.kind === 'answer') return out.response;
        if (out.kind === 'unknowable') return unknowable(out.reason);
        throw new NetFailure(/refused/.test(out.error) ? 'refused' : 'timeout', out.error);
      },
      tcp: (ip, port, data) => {
        const to = land(ip, port, 'tcp');
        const sim = to.pod.sim;
        const l = sim?.listening(to.port, this.#o.now()) ?? { kind: 'refused' as const };
        const target = joinHostPort(to.pod.ip, String(to.port));
        if (l.kind === 'refused')
          throw new NetFailure('refused', `dial tcp ${target}: connect: connection refused`);
        if (l.kind === 'unknowable') return unknowable(l.reason);
        const { listener } = l;
        const ctx = { ...this.#context(to.pod, l, hops), clientIP: from.ip };
        if (listener.raw !== undefined) {
          try {
            return listener.raw(data, ctx) ?? '';
          } catch (err) {
            if (err instanceof UnknowableAnswer) return unknowable(err.message);
            throw err;
          }
        }
        // A TLS or gRPC server closes on bytes that are not its protocol.
        if (listener.tls === true || listener.protocol === 'grpc') return '';
        if (listener.protocol !== 'http' || listener.serve === undefined) {
          return unknowable(`what container ${JSON.stringify(l.container)} answers on port ${to.port}`);
        }
        const req = parseWireRequest(data);
        // Go's server answers what is not HTTP with a 400 and closes; it waits for the rest of a request.
        if (req === 'malformed') {
          return goHttpErrorAnswer('400 Bad Request');
        }
        if (req === undefined) return '';
        try {
          return wireResponse(listener.serve(req, ctx));
        } catch (err) {
          if (err instanceof UnknowableAnswer) return unknowable(err.message);
          if (err instanceof HandlerPanic) return '';
          throw err;
        }
      },
      dns: (server, name, type) => {
        const net = network();
        if (net.isDnsServer(server)) return net.dns.query(name, type);
        // A DNS server in a pod (or anywhere else) is not one the simulator knows the answers of.
        if (this.#o.podAt(server) !== undefined)
          return unknowable(`what the DNS server at ${server} answers`);
        throw new NetFailure('timeout', `connection timed out; no servers could be reached`);
      },
      udp: (ip, port, data) => {
        const to = land(ip, port, 'udp');
        const l = to.pod.sim?.listening(to.port, this.#o.now(), 'udp') ?? { kind: 'refused' as const };
        // Nothing listening: an ICMP port unreachable, which nc reports as refused.
        if (l.kind === 'refused') throw new NetFailure('refused', `read udp: connection refused`);
        if (l.kind === 'unknowable') return unknowable(l.reason);
        try {
          return l.listener.raw?.(data, { ...this.#context(to.pod, l, hops), clientIP: from.ip });
        } catch (err) {
          if (err instanceof UnknowableAnswer) return unknowable(err.message);
          throw err;
        }
      },
    };
  }
}
