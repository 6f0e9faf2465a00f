/**
 * The cluster's DNS server as simulated pods query it: CoreDNS v1.10 with the kubernetes plugin
 * as kubeadm configures it (`kubernetes cluster.local in-addr.arpa ip6.arpa { pods insecure;
 * fallthrough in-addr.arpa ip6.arpa; ttl 30 }`), answering from the Services, EndpointSlices and
 * pods the nodes see:
 *
 * - `<svc>.<ns>.svc.cluster.local`: a Service's cluster IPs of the family asked (A, AAAA); a
 *   headless Service's ready endpoint addresses; an ExternalName Service's CNAME (followed in the
 *   zone when the question is for addresses).
 * - `<endpoint>.<svc>.<ns>.svc.cluster.local`: an endpoint of a headless Service, by its hostname
 *   or its dashed address (`10-244-1-5`).
 * - `_<port>._<proto>.<svc>.<ns>.svc.cluster.local` SRV: the Service's port (a headless Service's
 *   endpoints), weights shared out of 100 as CoreDNS does.
 * - `<a-b-c-d>.<ns>.pod.cluster.local`: the dashed address (`pods insecure` does not check it).
 * - PTR in in-addr.arpa and ip6.arpa: a cluster IP to its Service, an endpoint's address to its name.
 *
 * CoreDNS forwards every other name to the node's resolver; the simulated cluster has none, so
 * those fail (SERVFAIL) as they do in a cluster without an upstream.
 */
import { isIP } from 'node:net';
import type { JsonObject } from '../../util/json.js';
import { metaOf, numAt, objAt, objsAt, strAt, strsAt } from '../json.js';
import { serviceNamed } from './network-view.js';
import type { NetworkView } from './network-view.js';

export type DnsType = 'A' | 'AAAA' | 'CNAME' | 'SRV' | 'PTR' | 'TXT' | 'NS' | 'SOA' | 'MX' | 'ANY';

export const dnsTypes: readonly DnsType[] = [
  'A',
  'AAAA',
  'CNAME',
  'SRV',
  'PTR',
  'TXT',
  'NS',
  'SOA',
  'MX',
  'ANY',
];

/** One resource record of an answer; `data` as a zone file writes it. */
export interface DnsRecord {
  /** The owner, absolute (ends with a dot). */
  readonly name: string;
  readonly ttl: number;
  readonly type: Exclude<DnsType, 'ANY'>;
  readonly data: string;
}

export interface DnsResponse {
  readonly rcode: 'NOERROR' | 'NXDOMAIN' | 'SERVFAIL';
  readonly answers: readonly DnsRecord[];
  /** Whether the server answered for its own zone (the AA flag). */
  readonly authoritative: boolean;
}

export const clusterZone = 'cluster.local';
const ttl = 30;

/** An address's owner name in in-addr.arpa or ip6.arpa (absolute). */
export function reverseName(ip: string): string {
  if (isIP(ip) === 4) return `${ip.split('.').reverse().join('.')}.in-addr.arpa.`;
  const groups = expandIPv6(ip);
  return `${(groups.join('').match(/[0-9a-f]/g) ?? []).reverse().join('.')}.ip6.arpa.`;
}

/** The eight groups of an IPv6 address, four hex digits each. */
function expandIPv6(ip: string): string[] {
  const [head, tail] = ip.split('::') as [string, string | undefined];
  const h = head === '' ? [] : head.split(':');
  const t = tail === undefined || tail === '' ? [] : tail.split(':');
  const fill = tail === undefined ? [] : Array<string>(8 - h.length - t.length).fill('0');
  return [...h, ...fill, ...t].map((g) => g.padStart(4, '0').toLowerCase());
}

/** The address a PTR owner names; undefined when it is not a whole address. */
function addressOfReverse(labels: readonly string[], zone: 'in-addr' | 'ip6'): string | undefined {
  if (zone === 'in-addr') {
    if (labels.length !== 4 || labels.some((l) => !/^\d{1,3}$/.test(l) || Number(l) > 255)) return undefined;
    return [...labels].reverse().map(Number).join('.');
  }
  if (labels.length !== 32 || labels.some((l) => !/^[0-9a-f]$/.test(l))) return undefined;
  const hex = [...labels].reverse().join('');
  const groups = hex.match(/.{4}/g) ?? [];
  return groups.map((g) => g.replace(/^0+(?=.)/, '')).join(':');
}

/** The same address written the way Go's net.IP String does (for comparisons). */
function canonicalIP(ip: string): string {
  return isIP(ip) === 6 ? expandIPv6(ip).join(':') : ip;
}

/** A dashed address (`10-244-1-5`, IPv6 `fd00--1`) as an address; undefined when it is not one. */
function dashedAddress(label: string): string | undefined {
  const v4 = label.replaceAll('-', '.');
  if (isIP(v4) === 4) return v4;
  const v6 = label.replaceAll('-', ':');
  return isIP(v6) === 6 ? v6 : undefined;
}

/** An address as an endpoint's DNS label: dots and colons become dashes. */
function dashed(ip: string): string {
  return ip.replaceAll('.', '-').replaceAll(':', '-');
}

interface Endpoint {
  readonly ip: string;
  readonly hostname: string | undefined;
}

export class ClusterDns {
  readonly #view: NetworkView;

  constructor(view: NetworkView) {
    this.#view = view;
  }

  /** The server's answer to one question (`name` absolute or not; case does not matter). */
  query(name: string, type: DnsType): DnsResponse {
    const fqdn = name.toLowerCase().replace(/\.$/, '');
    const labels = fqdn === '' ? [] : fqdn.split('.');
    const zoneLabels = clusterZone.split('.');
    if (fqdn === clusterZone || fqdn.endsWith(`.${clusterZone}`)) {
      return this.#cluster(labels.slice(0, labels.length - zoneLabels.length), type, `${fqdn}.`);
    }
    for (const [zone, suffix] of [
      ['in-addr', ['in-addr', 'arpa']],
      ['ip6', ['ip6', 'arpa']],
    ] as const) {
      if (labels.length > 2 && labels.at(-2) === suffix[0] && labels.at(-1) === suffix[1]) {
        const ip = addressOfReverse(labels.slice(0, -2), zone);
        const target = ip === undefined ? undefined : this.#reverse(ip);
        // fallthrough: what the cluster does not know goes upstream, which there is not.
        if (target === undefined) return { rcode: 'SERVFAIL', answers: [], authoritative: false };
        const records: DnsRecord[] = [{ name: `${fqdn}.`, ttl, type: 'PTR', data: target }];
        return answer(records, type);
      }
    }
    return { rcode: 'SERVFAIL', answers: [], authoritative: false };
  }

  /** A name in the cluster zone, as labels below it. */
  #cluster(labels: readonly string[], type: DnsType, owner: string): DnsResponse {
    const nx: DnsResponse = { rcode: 'NXDOMAIN', answers: [], authoritative: true };
    const n = labels.length;
    if (n === 0) return answer([], type);
    const kind = labels[n - 1];
    if (kind === 'pod') {
      if (n === 1 || (n === 2 && this.#namespaceExists(labels[0]!))) return answer([], type);
      if (n !== 3) return nx;
      const ip = dashedAddress(labels[0]!);
      if (ip === undefined) return nx;
      return answer([addressRecord(owner, ip)], type);
    }
    if (kind !== 'svc') return nx;
    if (n === 1) return answer([], type);
    const ns = labels[n - 2]!;
    if (n === 2) return this.#namespaceExists(ns) ? answer([], type) : nx;
    if (n === 3) return this.#service(ns, labels[0]!, type, owner);
    if (n === 4) {
      const service = this.#findService(ns, labels[1]!);
      if (service === undefined) return nx;
      const records = this.#endpoints(ns, labels[1]!, service)
        .filter((e) => endpointLabel(e) === labels[0])
        .map((e) => addressRecord(owner, e.ip));
      return records.length === 0 ? nx : answer(records, type);
    }
    if (n === 5 && labels[0]!.startsWith('_') && labels[1]!.startsWith('_')) {
      return this.#srv(ns, labels[2]!, labels[0]!.slice(1), labels[1]!.slice(1), type, owner);
    }
    return nx;
  }

  #service(ns: string, name: string, type: DnsType, owner: string): DnsResponse {
    const service = this.#findService(ns, name);
    if (service === undefined) return { rcode: 'NXDOMAIN', answers: [], authoritative: true };
    const spec = objAt(service, 'spec');
    if (strAt(spec, 'type') === 'ExternalName') {
      const target = `${(strAt(spec, 'externalName') ?? '').replace(/\.$/, '')}.`;
      const cname: DnsRecord = { name: owner, ttl, type: 'CNAME', data: target };
      if (type === 'CNAME' || type === 'ANY' || (type !== 'A' && type !== 'AAAA'))
        return answer([cname], type);
      // CoreDNS follows the alias for an address question (its own zone here; upstream otherwise).
      const next = this.query(target, type);
      return { rcode: 'NOERROR', answers: [cname, ...next.answers], authoritative: true };
    }
    const records = this.#serviceAddresses(ns, name, service).map((ip) => addressRecord(owner, ip));
    // SRV for the Service's name itself: every port.
    if (type === 'SRV') return this.#srv(ns, name, '*', '*', type, undefined);
    if (records.length === 0 && isHeadless(spec))
      return { rcode: 'NXDOMAIN', answers: [], authoritative: true };
    return answer(records, type);
  }

  /** SRV records of a Service's ports matching `port` and `proto` (`*` or `any`: all). */
  #srv(
    ns: string,
    name: string,
    port: string,
    proto: string,
    type: DnsType,
    owner: string | undefined,
  ): DnsResponse {
    const service = this.#findService(ns, name);
    if (service === undefined) return { rcode: 'NXDOMAIN', answers: [], authoritative: true };
    const spec = objAt(service, 'spec');
    const any = (s: string): boolean => s === '*' || s === 'any';
    const base = `${name}.${ns}.svc.${clusterZone}.`;
    const targets: { name: string; port: number; owner: string }[] = [];
    for (const p of objsAt(spec, 'ports')) {
      const pname = (strAt(p, 'name') ?? '').toLowerCase();
      const pproto = (strAt(p, 'protocol') ?? 'TCP').toLowerCase();
      if (!any(port) && pname !== port) continue;
      if (!any(proto) && pproto !== proto) continue;
      const rrOwner = owner ?? `_${pname}._${pproto}.${base}`;
      if (isHeadless(spec)) {
        for (const e of this.#endpointPorts(ns, name, strAt(p, 'name') ?? '')) {
          targets.push({ name: `${endpointLabel(e)}.${base}`, port: e.port, owner: rrOwner });
        }
      } else targets.push({ name: base, port: numAt(p, 'port') ?? 0, owner: rrOwner });
    }
    if (targets.length === 0) return { rcode: 'NXDOMAIN', answers: [], authoritative: true };
    const weight = Math.floor(100 / targets.length);
    const records = targets.map((t): DnsRecord => ({
      name: t.owner,
      ttl,
      type: 'SRV',
      data: `0 ${weight} ${t.port} ${t.name}`,
    }));
    return answer(records, type);
  }

  /** The Service or endpoint an address belongs to, as a PTR target. */
  #reverse(ip: string): string | undefined {
    const want = canonicalIP(ip);
    for (const s of this.#view.services()) {
      const spec = objAt(s, 'spec');
      const ips = strsAt(spec, 'clusterIPs');
      const all = ips.length > 0 ? ips : [strAt(spec, 'clusterIP') ?? ''];
      if (all.some((x) => x !== 'None' && x !== '' && canonicalIP(x) === want)) {
        const meta = metaOf(s);
        return `${strAt(meta, 'name') ?? ''}.${strAt(meta, 'namespace') ?? ''}.svc.${clusterZone}.`;
      }
    }
    for (const s of this.#view.services()) {
      const meta = metaOf(s);
      const ns = strAt(meta, 'namespace') ?? '';
      const name = strAt(meta, 'name') ?? '';
      if (!isHeadless(objAt(s, 'spec'))) continue;
      const e = this.#endpoints(ns, name, s).find((x) => canonicalIP(x.ip) === want);
      if (e !== undefined) return `${endpointLabel(e)}.${name}.${ns}.svc.${clusterZone}.`;
    }
    return undefined;
  }

  #serviceAddresses(ns: string, name: string, service: JsonObject): string[] {
    const spec = objAt(service, 'spec');
    if (!isHeadless(spec)) {
      const ips = strsAt(spec, 'clusterIPs');
      return ips.length > 0 ? ips : [strAt(spec, 'clusterIP') ?? ''].filter((x) => x !== '');
    }
    return [...new Set(this.#endpoints(ns, name, service).map((e) => e.ip))];
  }

  /** A headless Service's endpoints that DNS publishes: ready ones, or all when it says so. */
  #endpoints(ns: string, name: string, service: JsonObject): Endpoint[] {
    const all = objAt(service, 'spec')?.['publishNotReadyAddresses'] === true;
    const out: Endpoint[] = [];
    for (const slice of this.#view.slicesOf(ns, name)) {
      for (const e of objsAt(slice, 'endpoints')) {
        if (!all && objAt(e, 'conditions')?.['ready'] === false) continue;
        const ip = strsAt(e, 'addresses')[0];
        if (ip === undefined || out.some((x) => x.ip === ip)) continue;
        out.push({ ip, hostname: strAt(e, 'hostname') });
      }
    }
    return out;
  }

  #endpointPorts(ns: string, name: string, portName: string): (Endpoint & { port: number })[] {
    const service = this.#findService(ns, name);
    const ready = new Set(service === undefined ? [] : this.#endpoints(ns, name, service).map((e) => e.ip));
    const out: (Endpoint & { port: number })[] = [];
    for (const slice of this.#view.slicesOf(ns, name)) {
      const port = numAt(
        objsAt(slice, 'ports').find((p) => (strAt(p, 'name') ?? '') === portName),
        'port',
      );
      if (port === undefined) continue;
      for (const e of objsAt(slice, 'endpoints')) {
        const ip = strsAt(e, 'addresses')[0];
        if (ip === undefined || !ready.has(ip) || out.some((x) => x.ip === ip && x.port === port)) continue;
        out.push({ ip, hostname: strAt(e, 'hostname'), port });
      }
    }
    return out;
  }

  #findService(ns: string, name: string): JsonObject | undefined {
    return serviceNamed(this.#view, ns, name);
  }

  /** CoreDNS answers NODATA for `<ns>.svc.cluster.local` of a namespace with Services. */
  #namespaceExists(ns: string): boolean {
    for (const s of this.#view.services()) if (strAt(metaOf(s), 'namespace') === ns) return true;
    return false;
  }
}

function isHeadless(spec: JsonObject | undefined): boolean {
  return strAt(spec, 'clusterIP') === 'None';
}

function endpointLabel(e: Endpoint): string {
  return e.hostname ?? dashed(e.ip);
}

function addressRecord(owner: string, ip: string): DnsRecord {
  return { name: owner, ttl, type: isIP(ip) === 6 ? 'AAAA' : 'A', data: ip };
}

/** The records of a name that answer `type` (none: NODATA). */
function answer(records: readonly DnsRecord[], type: DnsType): DnsResponse {
  return {
    rcode: 'NOERROR',
    answers: type === 'ANY' ? records : records.filter((r) => r.type === type),
    authoritative: true,
  };
}
