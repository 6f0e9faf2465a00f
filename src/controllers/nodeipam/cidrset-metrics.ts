/**
 * The node IPAM CIDR set metrics (upstream v1.27 pkg/controller/nodeipam/ipam/cidrset/metrics.go,
 * NW-11), subsystem `node_ipam_controller`, labelled by cluster CIDR, in the process registry
 * (util/metrics.ts): `nanokube serve` shows them on the API server's /metrics, as the controller
 * manager runs in-process there; a separate `nanokube controller-manager` process holds them in its
 * own registry (it serves no /metrics endpoint yet).
 */
import { CounterFamily, GaugeFamily, HistogramFamily, metricsRegistry } from '../../util/metrics.js';
import type { CounterCell, GaugeCell, HistogramCell } from '../../util/metrics.js';

const allocations = new CounterFamily({
  name: 'node_ipam_controller_cidrset_cidrs_allocations_total',
  help: 'Counter measuring total number of CIDR allocations.',
  labelNames: ['clusterCIDR'],
  registry: metricsRegistry,
});
const releases = new CounterFamily({
  name: 'node_ipam_controller_cidrset_cidrs_releases_total',
  help: 'Counter measuring total number of CIDR releases.',
  labelNames: ['clusterCIDR'],
  registry: metricsRegistry,
});
const maxCidrs = new GaugeFamily({
  name: 'node_ipam_controller_cidrset_cidrs_max_total',
  help: 'Maximum number of CIDRs that can be allocated.',
  labelNames: ['clusterCIDR'],
  registry: metricsRegistry,
});
const usage = new GaugeFamily({
  name: 'node_ipam_controller_cidrset_usage_cidrs',
  help: 'Gauge measuring percentage of allocated CIDRs.',
  labelNames: ['clusterCIDR'],
  registry: metricsRegistry,
});
const tries = new HistogramFamily({
  // Upstream's help text, copied from another metric, as it is.
  name: 'node_ipam_controller_cidrset_allocation_tries_per_request',
  help: 'Number of endpoints added on each Service sync',
  labelNames: ['clusterCIDR'],
  registry: metricsRegistry,
  buckets: [1, 5, 25, 125, 625],
});

/** The metric cells of one cluster CIDR. */
export interface CidrSetMetrics {
  readonly allocations: CounterCell;
  readonly releases: CounterCell;
  readonly maxCidrs: GaugeCell;
  readonly usage: GaugeCell;
  readonly triesPerRequest: HistogramCell;
}

export function cidrSetMetrics(clusterCIDR: string): CidrSetMetrics {
  return {
    allocations: allocations.cell(clusterCIDR),
    releases: releases.cell(clusterCIDR),
    maxCidrs: maxCidrs.cell(clusterCIDR),
    usage: usage.cell(clusterCIDR),
    triesPerRequest: tries.cell(clusterCIDR),
  };
}
