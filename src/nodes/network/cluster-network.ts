/**
 * The simulated pods' network: how a connection from a pod to `host:port` finds its way, as the
 * cluster's DNS and kube-proxy would route it, to a port of a pod.
 *
 * - A name is looked up as the pod's resolver would (cluster.local, ndots 5: the search domains
 *   `<ns>.svc.cluster.local`, `svc.cluster.local`, `cluster.local` first): a Service's name gives
 *   its cluster IP (a headless Service its ready endpoints' addresses); `<host>.<subdomain>` a
 *   pod's address; an ExternalName Service names a host outside the cluster, which simulated pods
 *   cannot reach.
 * - A cluster IP's port goes to one of its ready endpoints (kube-proxy's iptables picks at random,
 *   or the same one for a client under ClientIP session affinity); without one, kube-proxy rejects
 *   the connection.
 * - A node's address with a Service's node port goes to one of that Service's ready endpoints (on
 *   that node only under `externalTrafficPolicy: Local`).
 * - A pod IP is the pod itself.
 */
import { isIP } from 'node:net';
import type { JsonObject } from '../../util/json.js';
import { metaOf, numAt, objAt, objsAt, strAt, strsAt } from '../json.js';
import { ClusterDns } from './cluster-dns.js';
import { serviceNamed } from './network-view.js';
import type { NetworkView } from './network-view.js';

export type { NetworkView } from './network-view.js';

/** A connection that could not be made, in the words of Go's net package. */
export class NetworkError extends Error {}

export const clusterDomain = 'cluster.local';

/** A pod's address and port a connection reaches. */
export interface Destination {
  readonly ip: string;
  readonly port: number;
}

export class ClusterNetwork {
  readonly #view: NetworkView;
  /** ClientIP affinity: `serviceIP:port/clientIP` to the endpoint chosen. */
  readonly #sticky = new Map<string, string>();

  /** The cluster's DNS server (answering on `view.dnsServers`). */
  readonly dns: ClusterDns;

  constructor(view: NetworkView) {
    this.#view = view;
    this.dns = new ClusterDns(view);
  }

  /** Whether the cluster's DNS server answers on `ip`. */
  isDnsServer(ip: string): boolean {
    return this.#view.dnsServers?.includes(ip) === true;
  }

  /** The addresses `host` resolves to for a pod of `namespace` (throws NetworkError). */
  resolve(namespace: string, host: string): string[] {
    if (isIP(host) !== 0) return [host];
    const name = host.toLowerCase();
    const candidates = name.endsWith('.')
      ? [name.slice(0, -1)]
      : [
          ...(name.split('.').length - 1 < 5
            ? [
                `${name}.${namespace}.svc.${clusterDomain}`,
                `${name}.svc.${clusterDomain}`,
                `${name}.${clusterDomain}`,
              ]
            : []),
          name,
        ];
    for (const fqdn of candidates) {
      const ips = this.#lookup(fqdn);
      if (ips !== undefined) return ips;
    }
    throw new NetworkError(`dial tcp: lookup ${host}: no such host`);
  }

  /** What `fqdn` names in the cluster's zone; undefined: no such name. */
  #lookup(fqdn: string): string[] | undefined {
    const suffix = `.svc.${clusterDomain}`;
    if (!fqdn.endsWith(suffix)) return undefined;
    const labels = fqdn.slice(0, -suffix.length).split('.');
    if (labels.length === 2) {
      const [svc, ns] = labels as [string, string];
      const service = this.#service(ns, svc);
      if (service === undefined) return undefined;
      const spec = objAt(service, 'spec');
      if (strAt(spec, 'type') === 'ExternalName') {
        throw new NetworkError(`dial tcp: lookup ${strAt(spec, 'externalName') ?? ''}: no such host`);
      }
      const clusterIP = strAt(spec, 'clusterIP') ?? '';
      if (clusterIP !== '' && clusterIP !== 'None') return [clusterIP];
      const ips = this.#readyAddresses(ns, svc);
      return ips.length > 0 ? ips : undefined;
    }
    if (labels.length === 3) {
      // <hostname>.<subdomain>.<ns>: a pod whose subdomain is a headless Service.
      const [hostname, subdomain, ns] = labels as [string, string, string];
      if (this.#service(ns, subdomain) === undefined) return undefined;
      for (const pod of this.#view.pods()) {
        const spec = objAt(pod, 'spec');
        if (strAt(metaOf(pod), 'namespace') !== ns) continue;
        if (strAt(spec, 'hostname') !== hostname || strAt(spec, 'subdomain') !== subdomain) continue;
        const ips = objsAt(objAt(pod, 'status'), 'podIPs').map((p) => strAt(p, 'ip') ?? '');
        if (ips.length > 0) return ips;
      }
    }
    return undefined;
  }

  #service(namespace: string, name: string): JsonObject | undefined {
    return serviceNamed(this.#view, namespace, name);
  }

  #readyAddresses(namespace: string, name: string): string[] {
    const ips: string[] = [];
    for (const slice of this.#view.slicesOf(namespace, name)) {
      for (const e of objsAt(slice, 'endpoints')) {
        if (objAt(e, 'conditions')?.['ready'] === false) continue;
        const ip = strsAt(e, 'addresses')[0];
        if (ip !== undefined && !ips.includes(ip)) ips.push(ip);
      }
    }
    return ips;
  }

  /**
   * Where a TCP connection from `clientIP` to `ip:port` lands: a Service's cluster IP is
   * load-balanced over its ready endpoints; any other address is taken as a pod's.
   */
  route(ip: string, port: number, clientIP: string, protocol: 'tcp' | 'udp' = 'tcp'): Destination {
    for (const service of this.#view.services()) {
      const spec = objAt(service, 'spec');
      const clusterIPs = strsAt(spec, 'clusterIPs');
      if (strAt(spec, 'type') === 'ExternalName') continue;
      if (!(clusterIPs.length > 0 ? clusterIPs : [strAt(spec, 'clusterIP') ?? '']).includes(ip)) continue;
      const target = `${ip}:${port}`;
      const sp = objsAt(spec, 'ports').find(
        (p) => numAt(p, 'port') === port && (strAt(p, 'protocol') ?? 'TCP') === protocol.toUpperCase(),
      );
      // kube-proxy rejects what no rule accepts: an unknown port, or no ready endpoint.
      if (sp === undefined) throw new NetworkError(`dial tcp ${target}: connect: connection refused`);
      const meta = metaOf(service);
      const ready = this.#readyEndpoints(
        strAt(meta, 'namespace') ?? '',
        strAt(meta, 'name') ?? '',
        strAt(sp, 'name') ?? '',
        isIP(ip),
      );
      if (ready.length === 0) throw new NetworkError(`dial tcp ${target}: connect: connection refused`);
      return this.#pick(ready, `${target}/${clientIP}`, strAt(spec, 'sessionAffinity') === 'ClientIP');
    }
    const node = this.#nodeWithAddress(ip);
    if (node !== undefined) {
      return this.#hostPort(node, ip, port, protocol) ?? this.#nodePort(node, ip, port, clientIP, protocol);
    }
    return { ip, port };
  }

  /** A connection to a node's loopback (from a pod on its network): a host port bound there. */
  routeLoopback(node: string, port: number, protocol: 'tcp' | 'udp'): Destination {
    const dest = this.#hostPort(node, '127.0.0.1', port, protocol);
    if (dest === undefined) throw new NetworkError(`dial tcp 127.0.0.1:${port}: connect: connection refused`);
    return dest;
  }

  /** The pod whose container port is bound to `ip:port` of its node (hostPort, hostIP). */
  #hostPort(node: string, ip: string, port: number, protocol: 'tcp' | 'udp'): Destination | undefined {
    for (const pod of this.#view.pods()) {
      const spec = objAt(pod, 'spec');
      if (strAt(spec, 'nodeName') !== node) continue;
      const podIP = strAt(objAt(pod, 'status'), 'podIP');
      if (podIP === undefined || podIP === '') continue;
      for (const c of objsAt(spec, 'containers')) {
        for (const p of objsAt(c, 'ports')) {
          if (numAt(p, 'hostPort') !== port || (strAt(p, 'protocol') ?? 'TCP') !== protocol.toUpperCase())
            continue;
          const hostIP = strAt(p, 'hostIP') ?? '';
          if (hostIP !== '' && hostIP !== '0.0.0.0' && hostIP !== '::' && hostIP !== ip) continue;
          return { ip: podIP, port: numAt(p, 'containerPort') ?? port };
        }
      }
    }
    return undefined;
  }

  #nodeWithAddress(ip: string): string | undefined {
    for (const n of this.#view.nodes()) {
      if (objsAt(objAt(n, 'status'), 'addresses').some((a) => strAt(a, 'address') === ip)) {
        return strAt(metaOf(n), 'name');
      }
    }
    return undefined;
  }

  /** A node port of `node`: a ready endpoint of the Service that has it; else nothing listens. */
  #nodePort(node: string, ip: string, port: number, clientIP: string, protocol: 'tcp' | 'udp'): Destination {
    const target = `${ip}:${port}`;
    for (const service of this.#view.services()) {
      const spec = objAt(service, 'spec');
      if (strAt(spec, 'type') !== 'NodePort' && strAt(spec, 'type') !== 'LoadBalancer') continue;
      const sp = objsAt(spec, 'ports').find(
        (p) => numAt(p, 'nodePort') === port && (strAt(p, 'protocol') ?? 'TCP') === protocol.toUpperCase(),
      );
      if (sp === undefined) continue;
      const meta = metaOf(service);
      const local = strAt(spec, 'externalTrafficPolicy') === 'Local';
      const ready = this.#readyEndpoints(
        strAt(meta, 'namespace') ?? '',
        strAt(meta, 'name') ?? '',
        strAt(sp, 'name') ?? '',
        isIP(ip),
        local ? node : undefined,
      );
      if (ready.length === 0) throw new NetworkError(`dial tcp ${target}: connect: connection refused`);
      return this.#pick(ready, `${target}/${clientIP}`, strAt(spec, 'sessionAffinity') === 'ClientIP');
    }
    // Nothing else listens on a simulated node's ports for pods.
    throw new NetworkError(`dial tcp ${target}: connect: connection refused`);
  }

  /** One of the ready endpoints, at random, or the one a client had under ClientIP affinity. */
  #pick(ready: readonly Destination[], key: string, sticky: boolean): Destination {
    const known = sticky ? this.#sticky.get(key) : undefined;
    const chosen =
      ready.find((e) => `${e.ip}:${e.port}` === known) ?? ready[Math.floor(Math.random() * ready.length)]!;
    if (sticky) this.#sticky.set(key, `${chosen.ip}:${chosen.port}`);
    return chosen;
  }

  /** The ready endpoints of a Service's port (by name) in its slices of the address's family. */
  #readyEndpoints(
    namespace: string,
    name: string,
    portName: string,
    family: number,
    onNode?: string,
  ): Destination[] {
    const out: Destination[] = [];
    for (const slice of this.#view.slicesOf(namespace, name)) {
      if (strAt(slice, 'addressType') !== (family === 6 ? 'IPv6' : 'IPv4')) continue;
      const p = objsAt(slice, 'ports').find((x) => (strAt(x, 'name') ?? '') === portName);
      const port = numAt(p, 'port');
      if (port === undefined) continue;
      for (const e of objsAt(slice, 'endpoints')) {
        if (objAt(e, 'conditions')?.['ready'] === false) continue;
        if (onNode !== undefined && strAt(e, 'nodeName') !== onNode) continue;
        const addr = strsAt(e, 'addresses')[0];
        if (addr !== undefined && !out.some((d) => d.ip === addr && d.port === port))
          out.push({ ip: addr, port });
      }
    }
    return out;
  }
}
