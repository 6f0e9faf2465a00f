/**
 * `kubectl get clustercidrs`: NAME, PERNODEHOSTBITS, IPV4, IPV6, AGE and, wide, NODESELECTOR
 * (upstream printClusterCIDR).
 */
import { goRequirementsV } from '../../apis/networking/v1alpha1/gosyntax.js';
import type { TableConvertor } from '../../machinery/table.js';
import type { JsonObject } from '../../util/json.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { arrayAt, objectAt, optionalNumberAt, stringAt } from './read.js';

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The node selector as `MatchExpressions: [...]`/`MatchFields: [...]` per term, "<none>" without one. */
export function clusterCIDRNodeSelector(obj: unknown): string {
  const sel = objectAt(obj, 'spec', 'nodeSelector');
  if (sel === undefined) return '<none>';
  const parts: string[] = [];
  for (const term of arrayAt(sel, 'nodeSelectorTerms')) {
    const exprs = arrayAt(term, 'matchExpressions').filter(isObject);
    if (exprs.length > 0) parts.push(`MatchExpressions: ${goRequirementsV(exprs)}`);
    const fields = arrayAt(term, 'matchFields').filter(isObject);
    if (fields.length > 0) parts.push(`MatchFields: ${goRequirementsV(fields)}`);
  }
  return parts.join(',');
}

const orNone = (s: string): string => (s === '' ? '<none>' : s);

export const clusterCIDRTable: TableConvertor = {
  columns: [
    nameColumn,
    column(
      'PerNodeHostBits',
      'string',
      'PerNodeHostBits defines the number of host bits to be configured per node.',
    ),
    column('IPv4', 'string', 'IPv4 defines an IPv4 IP block in CIDR notation(e.g. "10.0.0.0/8").'),
    column('IPv6', 'string', 'IPv6 defines an IPv6 IP block in CIDR notation(e.g. "2001:db8::/64").'),
    ageColumn,
    column('NodeSelector', 'string', 'NodeSelector defines which nodes the config is applicable to.', {
      priority: 1,
    }),
  ],
  cells(obj, now) {
    return [
      stringAt(obj, 'metadata', 'name'),
      String(optionalNumberAt(obj, 'spec', 'perNodeHostBits') ?? 0),
      orNone(stringAt(obj, 'spec', 'ipv4')),
      orNone(stringAt(obj, 'spec', 'ipv6')),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
      clusterCIDRNodeSelector(obj),
    ];
  },
};
