/** `kubectl get services`: NAME, TYPE, CLUSTER-IP, EXTERNAL-IP, PORT(S), AGE; wide: SELECTOR. */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn, selectorColumn } from './columns.js';
import { arrayAt, compareStrings, numberAt, stringAt, valueAt } from './read.js';
import { formatLabels } from './selectors.js';

function strings(list: readonly unknown[]): string[] {
  return list.filter((x): x is string => typeof x === 'string');
}

/**
 * Sorted, de-duplicated ingress IPs (or hostnames when no IP), comma-joined. The server always
 * renders the wide form, so the value is never clipped.
 */
function loadBalancerIngress(svc: unknown): string {
  const seen = new Set<string>();
  for (const ing of arrayAt(svc, 'status', 'loadBalancer', 'ingress')) {
    const ip = stringAt(ing, 'ip');
    const hostname = stringAt(ing, 'hostname');
    if (ip !== '') seen.add(ip);
    else if (hostname !== '') seen.add(hostname);
  }
  return [...seen].sort(compareStrings).join(',');
}

export function serviceExternalIP(svc: unknown): string {
  const externalIPs = strings(arrayAt(svc, 'spec', 'externalIPs'));
  switch (stringAt(svc, 'spec', 'type')) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerIngress(svc);
      if (externalIPs.length > 0) return [...(lb === '' ? [] : lb.split(',')), ...externalIPs].join(',');
      return lb === '' ? '<pending>' : lb;
    }
    case 'ExternalName':
      return stringAt(svc, 'spec', 'externalName');
    default:
      return '<unknown>';
  }
}

/** `port/proto` or `port:nodePort/proto` per port, comma-joined; "<none>" without ports. */
export function servicePorts(svc: unknown): string {
  const pieces = arrayAt(svc, 'spec', 'ports').map((p) => {
    const port = numberAt(p, 'port');
    const nodePort = numberAt(p, 'nodePort');
    const protocol = stringAt(p, 'protocol');
    return nodePort > 0 ? `${port}:${nodePort}/${protocol}` : `${port}/${protocol}`;
  });
  return pieces.length === 0 ? '<none>' : pieces.join(',');
}

/** spec.clusterIPs[0], falling back to spec.clusterIP; "<none>" when neither is set. */
function clusterIP(svc: unknown): string {
  const ips = strings(arrayAt(svc, 'spec', 'clusterIPs'));
  if (ips.length > 0) return ips[0]!;
  const ip = valueAt(svc, 'spec', 'clusterIP');
  return typeof ip === 'string' && ip !== '' ? ip : '<none>';
}

export const serviceTable: TableConvertor = {
  columns: [
    nameColumn,
    column(
      'Type',
      'string',
      'How the service is exposed: ClusterIP, NodePort, LoadBalancer or ExternalName.',
    ),
    column('Cluster-IP', 'string', 'Virtual IP address of the service inside the cluster.'),
    column('External-IP', 'string', 'Addresses the service is reachable at from outside the cluster.'),
    column('Port(s)', 'string', 'Ports the service exposes, with node ports where allocated.'),
    ageColumn,
    selectorColumn('Labels of the pods the service routes traffic to.'),
  ],
  cells(obj, now) {
    return [
      stringAt(obj, 'metadata', 'name'),
      stringAt(obj, 'spec', 'type'),
      clusterIP(obj),
      serviceExternalIP(obj),
      servicePorts(obj),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
      formatLabels(valueAt(obj, 'spec', 'selector')),
    ];
  },
};
