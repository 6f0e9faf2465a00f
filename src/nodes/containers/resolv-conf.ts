/**
 * /etc/resolv.conf as a pod's containers see it, and agnhost's readers of it.
 *
 * The kubelet (v1.27 pkg/kubelet/network/dns GetPodDNS) hands the runtime a DNS config and
 * containerd writes it as `search …`, `nameserver …` lines and `options …`. `dnsPolicy: None`
 * takes the pod's `dnsConfig` alone. ClusterFirst (ClusterFirstWithHostNet on the host network)
 * names the cluster DNS server the kubelet is configured with, the cluster's search domains and
 * `ndots:5`; the simulated nodes' own resolv.conf has no search domains to append. Without a
 * cluster DNS server, and for `Default` (ClusterFirst on the host network), the file is the
 * node's, whose name server the simulator does not know: unknowable.
 */
import type { JsonObject } from '../../util/json.js';
import { metaOf, objAt, objsAt, strAt, strsAt } from '../json.js';

const clusterDomain = 'cluster.local';

/** Go's omitDuplicates: the first of each, in order. */
function unique(xs: readonly string[]): string[] {
  return [...new Set(xs)];
}

/** The file the pod's containers get; undefined when it is the node's (unknowable). */
export function podResolvConf(pod: JsonObject, clusterDNS: readonly string[] = []): string | undefined {
  const spec = objAt(pod, 'spec');
  const policy = strAt(spec, 'dnsPolicy') ?? 'ClusterFirst';
  const hostNetwork = spec?.['hostNetwork'] === true;
  let servers: string[] = [];
  let searches: string[] = [];
  let options: string[] = [];
  if (policy === 'ClusterFirstWithHostNet' || (policy === 'ClusterFirst' && !hostNetwork)) {
    if (clusterDNS.length === 0) return undefined;
    const ns = strAt(metaOf(pod), 'namespace') ?? 'default';
    servers = [...clusterDNS];
    searches = [`${ns}.svc.${clusterDomain}`, `svc.${clusterDomain}`, clusterDomain];
    options = ['ndots:5'];
  } else if (policy !== 'None') return undefined;
  const config = objAt(spec, 'dnsConfig');
  if (config !== undefined) {
    servers = unique([...servers, ...strsAt(config, 'nameservers')]);
    searches = unique([...searches, ...strsAt(config, 'searches')]);
    // mergeDNSOptions: by name, the pod's value winning (Go's map order: insertion order here).
    const merged = new Map<string, string>();
    for (const o of options) {
      const i = o.indexOf(':');
      merged.set(i < 0 ? o : o.slice(0, i), i < 0 ? '' : o.slice(i + 1));
    }
    for (const o of objsAt(config, 'options')) merged.set(strAt(o, 'name') ?? '', strAt(o, 'value') ?? '');
    options = [...merged].map(([k, v]) => (v === '' ? k : `${k}:${v}`));
  }
  // formDNSConfigFitsLimits: at most three name servers (and 32 search domains).
  servers = servers.slice(0, 3);
  searches = searches.slice(0, 32);
  let out = '';
  if (searches.length > 0) out += `search ${searches.join(' ')}\n`;
  if (servers.length > 0) out += `nameserver ${servers.join('\nnameserver ')}\n`;
  if (options.length > 0) out += `options ${options.join(' ')}\n`;
  return out;
}

/**
 * agnhost `dns-suffix` and `dns-server-list`: the fields after the first `search` (or
 * `nameserver`) line of /etc/resolv.conf, joined with commas; a panic (exit 2) when there is none.
 */
export function agnhostResolvReader(
  resolvConf: string,
  field: 'search' | 'nameserver',
): { readonly code: number; readonly stdout: string; readonly stderr: string } {
  for (const line of resolvConf.split('\n')) {
    if (line.startsWith(field))
      return { code: 0, stdout: `${line.split(' ').slice(1).join(',')}\n`, stderr: '' };
  }
  return { code: 2, stdout: '', stderr: 'panic: Could not find DNS search list!\n' };
}
