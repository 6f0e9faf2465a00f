/**
 * /etc/resolv.conf as a pod's containers see it, and agnhost's readers of it.
 *
 * The kubelet (v1.27 pkg/kubelet/network/dns) hands the runtime a DNS config and containerd writes
 * it as `search …`, `nameserver …` lines and `options …`. With `dnsPolicy: None` the config is
 * the pod's `dnsConfig` alone, so the file is known. Every other policy starts from a file the
 * simulator does not know: the node's own, or (ClusterFirst) the cluster DNS server's address, which
 * a simulated kubelet is not configured with, so it falls back to the node's file as the kubelet
 * does.
 */
import type { JsonObject } from '../../util/json.js';
import { objAt, objsAt, strAt, strsAt } from '../json.js';

/** The file for a pod whose spec decides it (`dnsPolicy: None`); undefined otherwise. */
export function podResolvConf(pod: JsonObject): string | undefined {
  const spec = objAt(pod, 'spec');
  if (strAt(spec, 'dnsPolicy') !== 'None') return undefined;
  const config = objAt(spec, 'dnsConfig');
  const servers = strsAt(config, 'nameservers');
  const searches = strsAt(config, 'searches');
  const options = objsAt(config, 'options').map((o) => {
    const value = strAt(o, 'value');
    return value === undefined ? (strAt(o, 'name') ?? '') : `${strAt(o, 'name') ?? ''}:${value}`;
  });
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
