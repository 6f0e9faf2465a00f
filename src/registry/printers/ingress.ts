/** `kubectl get ingresses`: NAME, CLASS, HOSTS, ADDRESS, PORTS, AGE (upstream printIngress). */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { arrayAt, compareStrings, optionalStringAt, stringAt } from './read.js';

/**
 * Up to three rule hosts, comma-joined, then `+ N more...` counted over all rules past the third
 * (upstream formatHosts, quirks included); `*` when no rule names a host.
 */
export function formatIngressHosts(rules: readonly unknown[]): string {
  const max = 3;
  const list: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (list.length === max) more = true;
    const host = stringAt(rule, 'host');
    if (!more && host !== '') list.push(host);
  }
  if (list.length === 0) return '*';
  const joined = list.join(',');
  return more ? `${joined} + ${rules.length - max} more...` : joined;
}

/**
 * The load balancer's IPs (or hostnames where an entry has no IP), de-duplicated, sorted and
 * comma-joined. The server prints the wide form, so the value is never clipped.
 */
export function ingressAddress(obj: unknown): string {
  const seen = new Set<string>();
  for (const entry of arrayAt(obj, 'status', 'loadBalancer', 'ingress')) {
    const ip = stringAt(entry, 'ip');
    const hostname = stringAt(entry, 'hostname');
    if (ip !== '') seen.add(ip);
    else if (hostname !== '') seen.add(hostname);
  }
  return [...seen].sort(compareStrings).join(',');
}

export const ingressTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Class', 'string', 'Name of the IngressClass that handles this ingress.'),
    column('Hosts', 'string', 'Host names the rules of the ingress match.'),
    column('Address', 'string', 'Addresses the load balancer of the ingress is reachable at.'),
    column('Ports', 'string', 'Ports the ingress serves: 80, and 443 when TLS is configured.'),
    ageColumn,
  ],
  cells(obj, now) {
    return [
      stringAt(obj, 'metadata', 'name'),
      optionalStringAt(obj, 'spec', 'ingressClassName') ?? '<none>',
      formatIngressHosts(arrayAt(obj, 'spec', 'rules')),
      ingressAddress(obj),
      arrayAt(obj, 'spec', 'tls').length > 0 ? '80, 443' : '80',
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
