/**
 * HTTP to the servers in simulated pods: the API server's proxies ask a pod's port directly; a
 * server in a pod (agnhost guestbook) asks others by name over the cluster network
 * (network/cluster-network.ts). Only pods of the nodes in this process answer; a connection to
 * any other address times out, as to a host that is not there.
 */
import { joinHostPort } from '../util/host-port.js';
import type { PodHttpOutcome, SimHttpRequest, SimHttpResponse } from '../machinery/http-exchange.js';
import { DialError, UnknowableAnswer } from './containers/http-answer.js';
import type { ServeContext } from './containers/http-answer.js';
import type { PodSim } from './containers/pod-sim.js';
import { NetworkError } from './network/cluster-network.js';
import type { ClusterNetwork } from './network/cluster-network.js';

/** A running pod of these nodes, found by its address. */
export interface PodAtAddress {
  readonly namespace: string;
  readonly ip: string;
  readonly sim: PodSim | undefined;
}

export interface PodHttpOptions {
  /** The pod of these nodes with the address (undefined: none of theirs). */
  readonly podAt: (ip: string) => PodAtAddress | undefined;
  /** The cluster network, once its Services and EndpointSlices are known. */
  readonly network: () => Promise<ClusterNetwork>;
  readonly now: () => number;
}

/** The promise's value, or AbortError's rejection once the signal aborts first. */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void =>
      reject(signal.reason instanceof Error ? signal.reason : new Error('the request was aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** How many servers a request may pass through (a loop of servers asking each other ends). */
const maxHops = 8;

export class PodHttp {
  readonly #o: PodHttpOptions;

  constructor(o: PodHttpOptions) {
    this.#o = o;
  }

  /** A request to `port` of `pod` (the API server's pods/proxy and services/proxy). */
  async request(
    pod: PodAtAddress,
    port: number,
    req: SimHttpRequest,
    signal: AbortSignal,
    hops = 0,
  ): Promise<PodHttpOutcome> {
    const target = joinHostPort(pod.ip, String(port));
    const sim = pod.sim;
    if (sim === undefined)
      return { kind: 'failed', error: `dial tcp ${target}: connect: connection refused` };
    const now = this.#o.now();
    const l = sim.listening(port, now);
    if (l.kind === 'refused')
      return { kind: 'failed', error: `dial tcp ${target}: connect: connection refused` };
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
    const ctx: ServeContext = {
      hostname: l.hostname,
      podIP: pod.ip,
      fs: l.fs,
      state: l.state,
      now,
      get: async (host, toPort, pathAndQuery) => {
        if (hops + 1 >= maxHops)
          throw new DialError(`dial tcp ${joinHostPort(host, String(toPort))}: i/o timeout`);
        return this.#fromPod(pod, host, toPort, pathAndQuery, signal, hops + 1);
      },
    };
    try {
      return { kind: 'answer', response: await listener.serve(req, ctx) };
    } catch (err) {
      if (err instanceof UnknowableAnswer) return { kind: 'unknowable', reason: err.message };
      throw err;
    }
  }

  /** A GET from a server in `from` to `host:port` over the cluster network. */
  async #fromPod(
    from: PodAtAddress,
    host: string,
    port: number,
    pathAndQuery: string,
    signal: AbortSignal,
    hops: number,
  ): Promise<SimHttpResponse> {
    const network = await untilAborted(this.#o.network(), signal);
    let dest;
    try {
      const ip = network.resolve(from.namespace, host)[0] ?? host;
      dest = network.route(ip, port, from.ip);
    } catch (err) {
      if (err instanceof NetworkError) throw new DialError(err.message);
      throw err;
    }
    const pod = this.#o.podAt(dest.ip);
    if (pod === undefined) {
      throw new DialError(`dial tcp ${joinHostPort(dest.ip, String(dest.port))}: i/o timeout`);
    }
    const q = pathAndQuery.indexOf('?');
    const out = await this.request(
      pod,
      dest.port,
      {
        method: 'GET',
        path: q < 0 ? pathAndQuery : pathAndQuery.slice(0, q),
        rawQuery: q < 0 ? '' : pathAndQuery.slice(q + 1),
        headers: { host: joinHostPort(host, String(port)), 'user-agent': 'Go-http-client/1.1' },
        body: '',
        tls: false,
      },
      signal,
      hops,
    );
    if (out.kind === 'answer') return out.response;
    if (out.kind === 'failed') throw new DialError(out.error);
    throw new UnknowableAnswer(out.reason);
  }
}
