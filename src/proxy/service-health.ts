/**
 * The health check node ports of LoadBalancer Services with `externalTrafficPolicy: Local`
 * (upstream pkg/proxy/healthcheck service_health.go, v1.27): one HTTP server per port, on any
 * path, answering 200 while this node has a ready endpoint of the Service and 503 otherwise, so
 * a load balancer sends traffic only to nodes that can serve it locally. The body is kube-proxy's:
 *
 *     {
 *     	"service": {
 *     		"namespace": "ns",
 *     		"name": "name"
 *     	},
 *     	"localEndpoints": 1
 *     }
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';

export interface HealthCheckTarget {
  /** `ns/name`. */
  readonly service: string;
  readonly port: number;
}

/** What a health check node port answers: kube-proxy's status and body for the Service. */
export interface HealthAnswer {
  readonly status: number;
  readonly body: string;
}

export const healthAnswerHeaders = {
  'Content-Type': 'application/json',
  'X-Content-Type-Options': 'nosniff',
} as const;

/**
 * The health check node ports of one node and what they answer, without listening: the state
 * the listening servers below answer from, and all the in-process proxies of simulated nodes
 * have (their ports are reached through nodes/{name}:{port}/proxy).
 */
export class ServiceHealth {
  #ports: ReadonlyMap<number, string> = new Map();
  #counts: ReadonlyMap<string, number> = new Map();

  /** The ports to serve now, and each Service's local ready endpoint count. */
  sync(targets: readonly HealthCheckTarget[], counts: ReadonlyMap<string, number>): void {
    this.#counts = counts;
    this.#ports = new Map(targets.map((t) => [t.port, t.service]));
  }

  /** The ports served, each with its Service (`ns/name`). */
  ports(): ReadonlyMap<number, string> {
    return this.#ports;
  }

  /** What `port` answers on any path; undefined when no Service has it. */
  answer(port: number): HealthAnswer | undefined {
    const service = this.#ports.get(port);
    if (service === undefined) return undefined;
    const count = this.#counts.get(service) ?? 0;
    const slash = service.indexOf('/');
    const body = [
      '{',
      '\t"service": {',
      `\t\t"namespace": ${JSON.stringify(service.slice(0, slash))},`,
      `\t\t"name": ${JSON.stringify(service.slice(slash + 1))}`,
      '\t},',
      `\t"localEndpoints": ${count}`,
      '}',
    ].join('\n');
    return { status: count > 0 ? 200 : 503, body };
  }
}

interface Listener {
  readonly service: string;
  readonly servers: readonly Server[];
}

/**
 * The health check node ports as HTTP servers on the proxy's host: on every address (IPv4 and
 * IPv6, as kube-proxy's `:port`), or on each of `hosts` (the node's addresses that
 * `--nodeport-addresses` selects).
 */
export class ServiceHealthServers {
  readonly #hosts: readonly (string | undefined)[];
  readonly #listeners = new Map<number, Listener>();
  readonly #state = new ServiceHealth();
  readonly #onError: ((err: unknown) => void) | undefined;

  constructor(o: { readonly hosts?: readonly string[]; readonly onError?: (err: unknown) => void } = {}) {
    this.#hosts = o.hosts ?? [undefined];
    this.#onError = o.onError;
  }

  /** The ports to serve now, and each Service's local ready endpoint count. */
  sync(targets: readonly HealthCheckTarget[], counts: ReadonlyMap<string, number>): void {
    this.#state.sync(targets, counts);
    const want = this.#state.ports();
    for (const [port, l] of this.#listeners) {
      if (want.get(port) !== l.service) {
        for (const server of l.servers) server.close();
        this.#listeners.delete(port);
      }
    }
    for (const [port, service] of want) {
      if (this.#listeners.has(port)) continue;
      const servers = this.#hosts.map((host) => {
        const server = createServer((_req, res) => {
          const a = this.#state.answer(port) ?? { status: 503, body: '' };
          res.writeHead(a.status, healthAnswerHeaders).end(a.body);
        });
        server.on('error', (err) => {
          this.#onError?.(
            new Error(
              `health check node port ${port} of ${service}${host === undefined ? '' : ` on ${host}`}: ${err.message}`,
            ),
          );
        });
        if (host === undefined) server.listen(port);
        else server.listen(port, host);
        return server;
      });
      this.#listeners.set(port, { service, servers });
    }
  }

  /** Closes every server. */
  close(): void {
    for (const l of this.#listeners.values()) for (const server of l.servers) server.close();
    this.#listeners.clear();
  }
}
