/**
 * The rules kube-proxy v1.27's iptables mode writes (pkg/proxy/iptables/proxier.go
 * syncProxyRules), as the text given to `iptables-restore --noflush`: pure, state in → text out.
 *
 * filter: KUBE-SERVICES, KUBE-EXTERNAL-SERVICES, KUBE-FORWARD, KUBE-NODEPORTS, KUBE-PROXY-FIREWALL
 * (and KUBE-FIREWALL for IPv4 with localhost node ports) are declared, so flushed and rewritten,
 * on every sync: REJECT for ports without endpoints, DROP for Local traffic policies without local
 * endpoints or load balancer traffic from outside loadBalancerSourceRanges, health check ports.
 * nat: KUBE-SERVICES, KUBE-NODEPORTS, KUBE-POSTROUTING, KUBE-MARK-MASQ (the proxy's own, NW-12)
 * likewise, with every service port's entry rules; a port's own chains (KUBE-SVC/SVL/EXT/FW/SEP)
 * are written on a full sync, and on a partial one (MinimizeIPTablesRestore, NW-06) only for
 * Services that changed since the last sync; chains that exist and are no longer used are
 * flushed and deleted (`-X`).
 *
 * Upstream walks its service map in Go's random order; this walks service ports by name, one
 * of those orders, so the output is stable.
 */
import { isServiceChain } from '../chain-names.js';
import type { EndpointWithChain } from '../endpoints.js';
import { portKey } from '../endpoints.js';
import { externallyAccessible, usesClusterEndpoints, usesLocalEndpoints } from '../service-port.js';
import type { IpFamily, ServicePort } from '../service-port.js';
import { categorizeEndpoints } from '../topology.js';
import { containsIP } from './cidr-match.js';

export interface RulesOptions {
  readonly family: IpFamily;
  /** `--iptables-masquerade-bit` as kube-proxy formats it: `0x00004000` for bit 14. */
  readonly masqueradeMark: string;
  /** SNAT all traffic to cluster IPs (`--masquerade-all`). */
  readonly masqueradeAll: boolean;
  /** Pod traffic is from this range (`--cluster-cidr`); without it no cluster-IP masquerade rule. */
  readonly clusterCIDR?: string;
  /** Node ports answer on 127.0.0.1 too (`--iptables-localhost-nodeports`, IPv4 only). */
  readonly localhostNodePorts: boolean;
  /** The node's IP (a load balancer source range holding it lets the node reach the LB IP). */
  readonly nodeIP: string;
  /**
   * `--nodeport-addresses` as the node's addresses they select; undefined: every local address
   * (one rule matching `--dst-type LOCAL`).
   */
  readonly nodePortIPs?: readonly string[];
  /** MASQUERADE with `--random-fully` (iptables 1.6.2 and later). */
  readonly randomFully: boolean;
  /** The node's labels (its zone decides topology hints). */
  readonly nodeLabels: Readonly<Record<string, string>>;
}

export interface ProxyState {
  /** Every service port the proxy programs, in any order. */
  readonly ports: readonly ServicePort[];
  /** Endpoints by portKey(port.name, port.protocol). */
  readonly endpoints: ReadonlyMap<string, readonly EndpointWithChain[]>;
}

export interface SyncPlan {
  /** Undefined: a full sync. Otherwise the Services (`ns/name`) whose chains are rewritten. */
  readonly changedServices?: ReadonlySet<string>;
  /** The nat chains that exist now (from iptables-save); unused service chains among them go. */
  readonly existingNatChains?: ReadonlySet<string>;
  /**
   * The rules of the proxy's fixed chains (KUBE-SERVICES, KUBE-NODEPORTS, KUBE-FORWARD...) as the
   * last successful restore wrote them (RulesResult.fixedChains). A partial sync leaves out a
   * fixed chain whose rules are the same (--noflush keeps it as it is), so a change to one
   * Service's endpoints writes only that Service's chains (NW-06: only the chains that changed).
   * Without it a partial sync rewrites every fixed chain, as upstream v1.27 does.
   */
  readonly written?: ReadonlyMap<string, string>;
}

export interface RulesResult {
  /** The iptables-restore input. */
  readonly text: string;
  /** The nat chains the rules use (a later sync deletes the others). */
  readonly activeNatChains: ReadonlySet<string>;
  /** Rule lines written per table (chain declarations not counted; `-X` lines counted, as v1.27). */
  readonly filterRules: number;
  readonly natRules: number;
  /** Chains deleted by this text. */
  readonly deletedChains: readonly string[];
  /** Service ports with a Local policy and no local endpoints, per traffic kind. */
  readonly noLocalEndpoints: { readonly internal: number; readonly external: number };
  /** Endpoints in all (more than 1000: rule comments on endpoint rules are left out, as upstream). */
  readonly totalEndpoints: number;
  /** The rules of each fixed chain (`table/chain` → lines) this sync's tables hold (see SyncPlan.written). */
  readonly fixedChains: ReadonlyMap<string, string>;
}

const fixedChains: Readonly<Record<string, readonly string[]>> = {
  filter: [
    'KUBE-SERVICES',
    'KUBE-EXTERNAL-SERVICES',
    'KUBE-FORWARD',
    'KUBE-NODEPORTS',
    'KUBE-PROXY-FIREWALL',
    'KUBE-FIREWALL',
  ],
  nat: ['KUBE-SERVICES', 'KUBE-NODEPORTS', 'KUBE-POSTROUTING', 'KUBE-MARK-MASQ'],
};

/** The chain a `-A CHAIN ...` line appends to. */
function chainOfRule(line: string): string | undefined {
  if (!line.startsWith('-A ')) return undefined;
  const end = line.indexOf(' ', 3);
  return end < 0 ? line.slice(3) : line.slice(3, end);
}

const declaredName = (chainDecl: string): string => chainDecl.slice(1, chainDecl.indexOf(' '));

/**
 * The table's section: its chain declarations and rules, less the fixed chains whose rules are
 * those already written (`skip`); records every fixed chain's rules in `contents`.
 */
function section(
  table: string,
  chains: readonly string[],
  rules: readonly string[],
  contents: Map<string, string>,
  skip: ((key: string, rules: string) => boolean) | undefined,
): string[] {
  const fixed = new Set(fixedChains[table]);
  const byChain = new Map<string, string[]>();
  for (const c of chains) if (fixed.has(declaredName(c))) byChain.set(declaredName(c), []);
  for (const r of rules) {
    const c = chainOfRule(r);
    if (c !== undefined) byChain.get(c)?.push(r);
  }
  const left = new Set<string>();
  for (const [c, lines] of byChain) {
    const text = lines.join('\n');
    contents.set(`${table}/${c}`, text);
    if (skip?.(`${table}/${c}`, text) === true) left.add(c);
  }
  if (left.size === 0) return [`*${table}`, ...chains, ...rules, 'COMMIT'];
  return [
    `*${table}`,
    ...chains.filter((c) => !left.has(declaredName(c))),
    ...rules.filter((r) => {
      const c = chainOfRule(r);
      return c === undefined || !left.has(c);
    }),
    'COMMIT',
  ];
}

const maxEndpointsWithComments = 1000;

/** `%0.10f` of 1/n as Go prints it (round half to even on exact ties, which toFixed rounds up). */
export function probability(n: number): string {
  const scale = 10n ** 11n;
  const k = BigInt(n);
  if (scale % k === 0n && (scale / k) % 10n === 5n) {
    const down = scale / k / 10n;
    const even = down % 2n === 0n ? down : down + 1n;
    return `0.${even.toString().padStart(10, '0')}`;
  }
  return (1 / n).toFixed(10);
}

const chainLine = (chain: string): string => `:${chain} - [0:0]`;

export function buildRules(state: ProxyState, o: RulesOptions, plan: SyncPlan = {}): RulesResult {
  const mark = o.masqueradeMark;
  const ipv6 = o.family === 'IPv6';
  const localhostNodePorts = o.localhostNodePorts && !ipv6;
  const filterChains = [
    'KUBE-SERVICES',
    'KUBE-EXTERNAL-SERVICES',
    'KUBE-FORWARD',
    'KUBE-NODEPORTS',
    'KUBE-PROXY-FIREWALL',
  ].map(chainLine);
  const filterRules: string[] = [];
  const natChains = ['KUBE-SERVICES', 'KUBE-NODEPORTS', 'KUBE-POSTROUTING', 'KUBE-MARK-MASQ'].map(chainLine);
  const natRules: string[] = [
    `-A KUBE-POSTROUTING -m mark ! --mark ${mark}/${mark} -j RETURN`,
    `-A KUBE-POSTROUTING -j MARK --xor-mark ${mark}`,
    `-A KUBE-POSTROUTING -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE${o.randomFully ? ' --random-fully' : ''}`,
    `-A KUBE-MARK-MASQ -j MARK --or-mark ${mark}`,
  ];
  if (localhostNodePorts) {
    filterChains.push(chainLine('KUBE-FIREWALL'));
    filterRules.push(
      '-A KUBE-FIREWALL -m comment --comment "block incoming localnet connections" -d 127.0.0.0/8 ! -s 127.0.0.0/8 -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP',
    );
  }
  const ifLocal = o.clusterCIDR === undefined ? undefined : `-s ${o.clusterCIDR}`;
  const ifNotLocal = o.clusterCIDR === undefined ? undefined : `! -s ${o.clusterCIDR}`;

  const ports = [...state.ports].sort((a, b) =>
    a.name < b.name
      ? -1
      : a.name > b.name
        ? 1
        : a.protocol < b.protocol
          ? -1
          : a.protocol > b.protocol
            ? 1
            : 0,
  );
  let totalEndpoints = 0;
  for (const p of ports) totalEndpoints += state.endpoints.get(portKey(p.name, p.protocol))?.length ?? 0;
  const comments = totalEndpoints <= maxEndpointsWithComments;
  const active = new Set<string>();
  let noLocalInternal = 0;
  let noLocalExternal = 0;

  for (const p of ports) {
    const S = p.name;
    const proto = p.protocol;
    const match = `-m ${proto} -p ${proto}`;
    const eps = state.endpoints.get(portKey(p.name, p.protocol)) ?? [];
    const cat = categorizeEndpoints(eps, p, o.nodeLabels);
    for (const e of cat.allReachable) active.add(e.chain);
    const { svc, svl, ext, fw } = p.chains;
    const usesCluster = cat.cluster.length > 0 && usesClusterEndpoints(p);
    if (usesCluster) active.add(svc);
    const usesLocal = cat.local.length > 0 && usesLocalEndpoints(p);
    if (usesLocal) active.add(svl);
    const hasEndpoints = cat.hasAny;
    const internalChain = p.internalPolicyLocal ? svl : svc;
    const hasInternal = hasEndpoints && !(p.internalPolicyLocal && cat.local.length === 0);
    const externalPolicyChain = p.externalPolicyLocal ? svl : svc;
    const hasExternal = hasEndpoints && !(p.externalPolicyLocal && cat.local.length === 0);
    const usesExt = hasEndpoints && externallyAccessible(p);
    if (usesExt) active.add(ext);
    const usesFW = hasEndpoints && p.loadBalancerIPs.length > 0 && p.loadBalancerSourceRanges.length > 0;
    if (usesFW) active.add(fw);
    const lbChain = usesFW ? fw : ext;

    let internalTarget = '';
    let internalComment = '';
    let externalTarget = '';
    let externalComment = '';
    if (!hasEndpoints) {
      internalTarget = externalTarget = 'REJECT';
      internalComment = externalComment = `"${S} has no endpoints"`;
    } else {
      if (!hasInternal) {
        internalTarget = 'DROP';
        internalComment = `"${S} has no local endpoints"`;
        noLocalInternal++;
      }
      if (!hasExternal) {
        externalTarget = 'DROP';
        externalComment = `"${S} has no local endpoints"`;
        noLocalExternal++;
      }
    }

    // The cluster IP.
    if (hasInternal) {
      natRules.push(
        `-A KUBE-SERVICES -m comment --comment "${S} cluster IP" ${match} -d ${p.clusterIP} --dport ${p.port} -j ${internalChain}`,
      );
    } else {
      filterRules.push(
        `-A KUBE-SERVICES -m comment --comment ${internalComment} ${match} -d ${p.clusterIP} --dport ${p.port} -j ${internalTarget}`,
      );
    }
    // External IPs.
    for (const ip of p.externalIPs) {
      if (hasEndpoints) {
        natRules.push(
          `-A KUBE-SERVICES -m comment --comment "${S} external IP" ${match} -d ${ip} --dport ${p.port} -j ${ext}`,
        );
      }
      if (!hasExternal) {
        filterRules.push(
          `-A KUBE-EXTERNAL-SERVICES -m comment --comment ${externalComment} ${match} -d ${ip} --dport ${p.port} -j ${externalTarget}`,
        );
      }
    }
    // Load balancer ingress IPs.
    for (const ip of p.loadBalancerIPs) {
      if (hasEndpoints) {
        natRules.push(
          `-A KUBE-SERVICES -m comment --comment "${S} loadbalancer IP" ${match} -d ${ip} --dport ${p.port} -j ${lbChain}`,
        );
      }
      if (usesFW) {
        filterRules.push(
          `-A KUBE-PROXY-FIREWALL -m comment --comment "${S} traffic not accepted by ${fw}" ${match} -d ${ip} --dport ${p.port} -j DROP`,
        );
      }
    }
    if (!hasExternal) {
      for (const ip of p.loadBalancerIPs) {
        filterRules.push(
          `-A KUBE-EXTERNAL-SERVICES -m comment --comment ${externalComment} ${match} -d ${ip} --dport ${p.port} -j ${externalTarget}`,
        );
      }
    }
    // The node port.
    if (p.nodePort !== 0) {
      if (hasEndpoints) {
        natRules.push(`-A KUBE-NODEPORTS -m comment --comment ${S} ${match} --dport ${p.nodePort} -j ${ext}`);
      }
      if (!hasExternal) {
        filterRules.push(
          `-A KUBE-EXTERNAL-SERVICES -m comment --comment ${externalComment} -m addrtype --dst-type LOCAL ${match} --dport ${p.nodePort} -j ${externalTarget}`,
        );
      }
    }
    // The health check node port (ETP Local load balancers) is open whatever the endpoints.
    if (p.healthCheckNodePort !== 0) {
      filterRules.push(
        `-A KUBE-NODEPORTS -m comment --comment "${S} health check node port" -m tcp -p tcp --dport ${p.healthCheckNodePort} -j ACCEPT`,
      );
    }

    // A partial sync leaves the chains of unchanged Services as they are.
    if (plan.changedServices !== undefined && !plan.changedServices.has(p.service)) continue;

    if (hasInternal) {
      const args = `-m comment --comment "${S} cluster IP" ${match} -d ${p.clusterIP} --dport ${p.port}`;
      if (o.masqueradeAll) natRules.push(`-A ${internalChain} ${args} -j KUBE-MARK-MASQ`);
      else if (ifNotLocal !== undefined)
        natRules.push(`-A ${internalChain} ${args} ${ifNotLocal} -j KUBE-MARK-MASQ`);
    }
    if (usesExt) {
      natChains.push(chainLine(ext));
      if (!p.externalPolicyLocal) {
        natRules.push(
          `-A ${ext} -m comment --comment "masquerade traffic for ${S} external destinations" -j KUBE-MARK-MASQ`,
        );
      } else {
        if (ifLocal !== undefined) {
          natRules.push(
            `-A ${ext} -m comment --comment "pod traffic for ${S} external destinations" ${ifLocal} -j ${svc}`,
          );
        }
        natRules.push(
          `-A ${ext} -m comment --comment "masquerade LOCAL traffic for ${S} external destinations" -m addrtype --src-type LOCAL -j KUBE-MARK-MASQ`,
          `-A ${ext} -m comment --comment "route LOCAL traffic for ${S} external destinations" -m addrtype --src-type LOCAL -j ${svc}`,
        );
      }
      if (hasExternal) natRules.push(`-A ${ext} -j ${externalPolicyChain}`);
    }
    if (usesFW) {
      natChains.push(chainLine(fw));
      const head = `-A ${fw} -m comment --comment "${S} loadbalancer IP"`;
      let allowFromNode = false;
      for (const src of p.loadBalancerSourceRanges) {
        natRules.push(`${head} -s ${src} -j ${ext}`);
        if (containsIP(src, o.nodeIP)) allowFromNode = true;
      }
      if (allowFromNode) for (const ip of p.loadBalancerIPs) natRules.push(`${head} -s ${ip} -j ${ext}`);
      natRules.push(
        `-A ${fw} -m comment --comment "other traffic to ${S} will be dropped by KUBE-PROXY-FIREWALL"`,
      );
    }
    if (usesCluster) {
      natChains.push(chainLine(svc));
      natRules.push(...toEndpoints(p, svc, cat.cluster, comments));
    }
    if (usesLocal) {
      natChains.push(chainLine(svl));
      natRules.push(...toEndpoints(p, svl, cat.local, comments));
    }
    for (const e of cat.allReachable) {
      natChains.push(chainLine(e.chain));
      const head = comments ? `-A ${e.chain} -m comment --comment ${S}` : `-A ${e.chain}`;
      natRules.push(`${head} -s ${e.ip} -j KUBE-MARK-MASQ`);
      const affinity = p.stickySeconds > 0 ? ` -m recent --name ${e.chain} --set` : '';
      natRules.push(`${head}${affinity} ${match} -j DNAT --to-destination ${e.endpoint}`);
    }
  }

  // Chains that exist and nothing uses any more: flushed (declared) and deleted.
  const deleted: string[] = [];
  for (const chain of [...(plan.existingNatChains ?? [])].sort()) {
    if (active.has(chain) || !isServiceChain(chain)) continue;
    natChains.push(chainLine(chain));
    natRules.push(`-X ${chain}`);
    deleted.push(chain);
  }
  // Node ports: the last rule of KUBE-SERVICES.
  const nodePortsComment =
    '-m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain"';
  if (o.nodePortIPs === undefined) {
    const notLoopback = ipv6 ? ' ! -d ::1/128' : localhostNodePorts ? '' : ' ! -d 127.0.0.0/8';
    natRules.push(
      `-A KUBE-SERVICES ${nodePortsComment} -m addrtype --dst-type LOCAL${notLoopback} -j KUBE-NODEPORTS`,
    );
  } else {
    for (const ip of o.nodePortIPs) {
      if (ip === '::1' || (!localhostNodePorts && ip.startsWith('127.'))) continue;
      natRules.push(`-A KUBE-SERVICES ${nodePortsComment} -d ${ip} -j KUBE-NODEPORTS`);
    }
  }
  filterRules.push(
    '-A KUBE-FORWARD -m conntrack --ctstate INVALID -j DROP',
    `-A KUBE-FORWARD -m comment --comment "kubernetes forwarding rules" -m mark --mark ${mark}/${mark} -j ACCEPT`,
    '-A KUBE-FORWARD -m comment --comment "kubernetes forwarding conntrack rule" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT',
  );

  const contents = new Map<string, string>();
  const written = plan.written;
  const skip =
    plan.changedServices === undefined || written === undefined
      ? undefined
      : (key: string, rules: string): boolean => written.get(key) === rules;
  const text =
    [
      ...section('filter', filterChains, filterRules, contents, skip),
      ...section('nat', natChains, natRules, contents, skip),
    ].join('\n') + '\n';
  return {
    text,
    activeNatChains: active,
    filterRules: filterRules.length,
    natRules: natRules.length,
    deletedChains: deleted,
    noLocalEndpoints: { internal: noLocalInternal, external: noLocalExternal },
    totalEndpoints,
    fixedChains: contents,
  };
}

/** A policy chain's rules: ClientIP affinity checks first, then the probability ladder. */
function toEndpoints(
  p: ServicePort,
  chain: string,
  endpoints: readonly EndpointWithChain[],
  comments: boolean,
): string[] {
  const out: string[] = [];
  const head = (e: EndpointWithChain): string =>
    comments ? `-A ${chain} -m comment --comment "${p.name} -> ${e.endpoint}"` : `-A ${chain}`;
  if (p.stickySeconds > 0) {
    for (const e of endpoints) {
      out.push(
        `${head(e)} -m recent --name ${e.chain} --rcheck --seconds ${p.stickySeconds} --reap -j ${e.chain}`,
      );
    }
  }
  const n = endpoints.length;
  endpoints.forEach((e, i) => {
    const statistic = i < n - 1 ? ` -m statistic --mode random --probability ${probability(n - i)}` : '';
    out.push(`${head(e)}${statistic} -j ${e.chain}`);
  });
  return out;
}
