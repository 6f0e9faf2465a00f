/**
 * kube-controller-manager's node IPAM flags (NW-11), shared by `nanokube controller-manager` and
 * `nanokube serve`: `--allocate-node-cidrs` (default false, as upstream) with `--cluster-cidr`,
 * `--node-cidr-mask-size[-ipv4|-ipv6]` and the Service range kept out of the node subnets.
 */
import type { NodeIpamOptions } from '../controllers/nodeipam/range-allocator.js';
import { FlagError } from './serve/flags.js';

export type NodeIpamFlags = Omit<NodeIpamOptions, 'client' | 'informers' | 'onError' | 'clock'>;

export interface NodeIpamFlagValues {
  readonly allocateNodeCIDRs?: string;
  readonly clusterCIDR?: string;
  readonly nodeCIDRMaskSize?: string;
  readonly nodeCIDRMaskSizeIPv4?: string;
  readonly nodeCIDRMaskSizeIPv6?: string;
  readonly serviceClusterIPRange?: string;
}

export const nodeIpamFlagNames = [
  'allocate-node-cidrs',
  'cluster-cidr',
  'node-cidr-mask-size',
  'node-cidr-mask-size-ipv4',
  'node-cidr-mask-size-ipv6',
  'service-cluster-ip-range',
] as const;

export const nodeIpamUsage = `  --allocate-node-cidrs[=BOOL] nodeipam assigns spec.podCIDR(s) from --cluster-cidr (default false)
  --cluster-cidr CIDR[,CIDR]  the pods' range, one per IP family
  --node-cidr-mask-size N, --node-cidr-mask-size-ipv4 N (24), --node-cidr-mask-size-ipv6 N (64)
  --service-cluster-ip-range CIDR[,CIDR]  kept out of the node subnets
`;

function size(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 128) {
    throw new FlagError(
      `invalid argument "${v}" for "--${name}" flag: strconv.ParseInt: parsing "${v}": invalid syntax`,
    );
  }
  return n;
}

const split = (s: string): string[] =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');

/** The node IPAM options, or undefined when --allocate-node-cidrs is off. */
export function nodeIpamOf(v: NodeIpamFlagValues): NodeIpamFlags | undefined {
  const allocate = v.allocateNodeCIDRs;
  if (allocate === undefined || allocate === 'false') return undefined;
  if (allocate !== '' && allocate !== 'true') {
    throw new FlagError(
      `invalid argument "${allocate}" for "--allocate-node-cidrs" flag: strconv.ParseBool: parsing "${allocate}": invalid syntax`,
    );
  }
  if (v.clusterCIDR === undefined || split(v.clusterCIDR).length === 0) {
    throw new FlagError('--cluster-cidr is required when --allocate-node-cidrs is true');
  }
  const mask = size('node-cidr-mask-size', v.nodeCIDRMaskSize);
  const mask4 = size('node-cidr-mask-size-ipv4', v.nodeCIDRMaskSizeIPv4);
  const mask6 = size('node-cidr-mask-size-ipv6', v.nodeCIDRMaskSizeIPv6);
  return {
    clusterCIDRs: split(v.clusterCIDR),
    ...(mask !== undefined ? { nodeCIDRMaskSize: mask } : {}),
    ...(mask4 !== undefined ? { nodeCIDRMaskSizeIPv4: mask4 } : {}),
    ...(mask6 !== undefined ? { nodeCIDRMaskSizeIPv6: mask6 } : {}),
    ...(v.serviceClusterIPRange !== undefined ? { serviceCIDRs: split(v.serviceClusterIPRange) } : {}),
  };
}
