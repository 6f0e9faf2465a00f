/**
 * The /etc/hosts the kubelet writes into a pod's containers (managedHostsFileContent): localhost
 * entries, the pod's addresses with its hostname (and its FQDN under a subdomain), then the
 * pod's hostAliases. A pod on the host network gets the node's file: a simulated node's is
 * {@link nodeEtcHosts}.
 */
import type { JsonObject } from '../../util/json.js';
import { metaOf, objAt, objsAt, strAt, strsAt } from '../json.js';

const clusterDomain = 'cluster.local';

/** The hostname the kubelet gives a pod's containers: spec.hostname, else its name, at most 63 characters. */
export function podHostname(pod: JsonObject): string {
  const spec = objAt(pod, 'spec');
  return (strAt(spec, 'hostname') ?? strAt(metaOf(pod), 'name') ?? '').slice(0, 63).replace(/[-.]+$/, '');
}

export function managedEtcHosts(pod: JsonObject, podIPs: readonly string[]): string | undefined {
  const spec = objAt(pod, 'spec');
  if (spec?.['hostNetwork'] === true || podIPs.length === 0) return undefined;
  const meta = metaOf(pod);
  const hostname = podHostname(pod);
  const subdomain = strAt(spec, 'subdomain') ?? '';
  let out =
    '# Kubernetes-managed hosts file.\n' +
    '127.0.0.1\tlocalhost\n' +
    '::1\tlocalhost ip6-localhost ip6-loopback\n' +
    'fe00::0\tip6-localnet\n' +
    'fe00::0\tip6-mcastprefix\n' +
    'fe00::1\tip6-allnodes\n' +
    'fe00::2\tip6-allrouters\n';
  const domain =
    subdomain === '' ? '' : `${subdomain}.${strAt(meta, 'namespace') ?? ''}.svc.${clusterDomain}`;
  for (const ip of podIPs)
    out += domain === '' ? `${ip}\t${hostname}\n` : `${ip}\t${hostname}.${domain}\t${hostname}\n`;
  const aliases = objsAt(spec, 'hostAliases');
  if (aliases.length > 0) {
    out += '\n# Entries added by HostAliases.\n';
    for (const a of aliases) out += `${strAt(a, 'ip') ?? ''}\t${strsAt(a, 'hostnames').join('\t')}\n`;
  }
  return out;
}

/** A simulated node's own /etc/hosts, as a Debian host has it: localhost, then the node's addresses. */
export function nodeEtcHosts(name: string, addresses: readonly string[]): string {
  return (
    '127.0.0.1\tlocalhost\n' +
    '::1\tlocalhost ip6-localhost ip6-loopback\n' +
    addresses.map((a) => `${a}\t${name}\n`).join('')
  );
}
