/**
 * The node IPAM controller with the range allocator (upstream v1.27
 * pkg/controller/nodeipam/ipam/range_allocator.go): gives every Node without spec.podCIDRs one
 * subnet of each cluster CIDR (--cluster-cidr, one per IP family, dual-stack), sized by
 * --node-cidr-mask-size(-ipv4/-ipv6) (24 / 64), written with a patch of spec.podCIDR and
 * spec.podCIDRs. Subnets already on nodes — the simulated nodes choose their own — and the part of
 * the Service CIDRs inside a cluster CIDR are marked used, so they are never handed out; a deleted
 * node's subnets are released. Allocation runs only with --allocate-node-cidrs, as upstream.
 *
 * Divergence: upstream records CIDRNotAvailable events on the Node and retries the patch three
 * times in place; here failures are reported through `onError` and the node key is retried by the
 * work queue. The `CloudAllocator` and the alpha MultiCIDRRangeAllocator are not implemented.
 */
import { ApiError } from '../../client/api-error.js';
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import type { RestClient } from '../../client/rest-client.js';
import type { SharedInformer } from '../../client/shared-informer.js';
import type { WorkQueue } from '../../client/workqueue.js';
import type { JsonObject } from '../../util/json.js';
import { realClock } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { arr, deleting, name, obj, str } from '../util/objects.js';
import { controllerQueue, informersSynced, runWorkers } from '../util/workers.js';
import { CidrSet, CidrSetError, parseNet } from './cidr-set.js';

export interface NodeIpamOptions {
  readonly client: RestClient;
  readonly informers: SharedInformerFactory;
  readonly onError?: (err: unknown) => void;
  readonly clock?: Clock;
  /** --cluster-cidr, split at commas: one CIDR, or one per IP family. */
  readonly clusterCIDRs: readonly string[];
  /** --node-cidr-mask-size (single stack; default 24 for IPv4, 64 for IPv6). */
  readonly nodeCIDRMaskSize?: number;
  /** --node-cidr-mask-size-ipv4 (24) and --node-cidr-mask-size-ipv6 (64), for dual-stack. */
  readonly nodeCIDRMaskSizeIPv4?: number;
  readonly nodeCIDRMaskSizeIPv6?: number;
  /** --service-cluster-ip-range, split at commas: kept out of the node subnets. */
  readonly serviceCIDRs?: readonly string[];
  /** Nodes synced in parallel (upstream cidrUpdateWorkers, 30). */
  readonly workers?: number;
}

const nodesPath = '/api/v1/nodes';

function podCIDRsOf(node: JsonObject): string[] {
  const spec = obj(node['spec']);
  const list = arr(spec['podCIDRs'])
    .map((c) => str(c))
    .filter((c) => c !== '');
  if (list.length > 0) return list;
  const one = str(spec['podCIDR']);
  return one === '' ? [] : [one];
}

/**
 * The CIDR sets for the options (upstream's checks of --cluster-cidr and the mask sizes);
 * throws CidrSetError on a bad configuration.
 */
export function cidrSetsFor(o: Omit<NodeIpamOptions, 'client' | 'informers'>): CidrSet[] {
  const cidrs = o.clusterCIDRs.map((c) => c.trim()).filter((c) => c !== '');
  if (cidrs.length === 0) throw new CidrSetError('--cluster-cidr is required with --allocate-node-cidrs');
  if (cidrs.length > 2)
    throw new CidrSetError(
      'len of clusters cidrs is:' + String(cidrs.length) + ', > more than max allowed of 2',
    );
  const nets = cidrs.map(parseNet);
  const dual = nets.length === 2;
  if (dual && nets[0]?.v6 === nets[1]?.v6) {
    throw new CidrSetError('--cluster-cidr: dual-stack needs one IPv4 and one IPv6 CIDR');
  }
  return cidrs.map((c, i) => {
    const v6 = nets[i]?.v6 === true;
    const mask = dual
      ? v6
        ? (o.nodeCIDRMaskSizeIPv6 ?? 64)
        : (o.nodeCIDRMaskSizeIPv4 ?? 24)
      : (o.nodeCIDRMaskSize ?? (v6 ? (o.nodeCIDRMaskSizeIPv6 ?? 64) : (o.nodeCIDRMaskSizeIPv4 ?? 24)));
    return new CidrSet(c, mask);
  });
}

export class NodeIpamController {
  readonly #o: NodeIpamOptions;
  readonly #queue: WorkQueue;
  readonly #sets: CidrSet[];
  /** Nodes patched by this controller whose informer copy may not show it yet. */
  readonly #assigned = new Map<string, string[]>();
  /** `node cidr` pairs already reported as impossible to occupy (nodes are updated often). */
  readonly #reported = new Set<string>();
  #nodes: SharedInformer | undefined;

  /** Throws CidrSetError when the CIDR options are invalid. */
  constructor(o: NodeIpamOptions) {
    this.#o = o;
    this.#sets = cidrSetsFor(o);
    for (const svc of o.serviceCIDRs ?? []) this.#filterOutServiceRange(svc.trim());
    this.#queue = controllerQueue('nodeipam', o.onError, o.clock ?? realClock);
  }

  /** The CIDR sets (one per cluster CIDR), for inspection. */
  get cidrSets(): readonly CidrSet[] {
    return this.#sets;
  }

  /** filterOutServiceRange: the Service range inside a cluster CIDR is never given to nodes. */
  #filterOutServiceRange(serviceCIDR: string): void {
    if (serviceCIDR === '') return;
    for (const set of this.#sets) {
      try {
        set.occupy(serviceCIDR);
      } catch (err) {
        if (!(err instanceof CidrSetError)) throw err; // Outside this cluster CIDR: nothing to do.
      }
    }
  }

  /** Runs until `signal` aborts (the informer factory is started by the caller). */
  async run(signal: AbortSignal): Promise<void> {
    const nodes = this.#o.informers.informerFor(nodesPath);
    this.#nodes = nodes;
    const changed = (n: JsonObject): void => {
      if (podCIDRsOf(n).length > 0) this.#occupy(n);
      else this.#queue.add(name(n));
    };
    const reg = nodes.addEventHandler({
      onAdd: changed,
      onUpdate: (_old, n) => changed(n),
      onDelete: (n) => this.#release(n),
    });
    try {
      if (!(await informersSynced([nodes], signal))) return;
      await runWorkers(this.#queue, this.#o.workers ?? 5, (key) => this.#sync(key, signal), signal);
    } finally {
      reg.remove();
    }
  }

  /** occupyCIDRs: a node's own subnets are marked used (errors reported, not retried). */
  #occupy(node: JsonObject): void {
    this.#assigned.delete(name(node));
    for (const cidr of podCIDRsOf(node)) {
      const set = this.#sets.find((s) => s.isIPv6 === cidr.includes(':'));
      try {
        if (set === undefined) throw new CidrSetError(`no cluster CIDR of the family of ${cidr}`);
        set.occupy(cidr);
      } catch (err) {
        const id = `${name(node)} ${cidr}`;
        if (this.#reported.has(id)) continue;
        this.#reported.add(id);
        this.#o.onError?.(
          new Error(
            `nodeipam: failed to mark cidr ${cidr} of node ${name(node)} as occupied: ${String(err)}`,
          ),
        );
      }
    }
  }

  #release(node: JsonObject): void {
    this.#assigned.delete(name(node));
    for (const cidr of podCIDRsOf(node)) {
      const set = this.#sets.find((s) => s.isIPv6 === cidr.includes(':'));
      try {
        set?.release(cidr);
      } catch {
        // Not one of ours (outside the cluster CIDR).
      }
    }
  }

  /** AllocateOrOccupyCIDR then updateCIDRsAllocation for node `key`. */
  async #sync(key: string, signal: AbortSignal): Promise<undefined> {
    const node = this.#nodes?.store.get(key);
    if (node === undefined || deleting(node)) return undefined;
    if (podCIDRsOf(node).length > 0) {
      this.#occupy(node);
      return undefined;
    }
    if (this.#assigned.has(key)) return undefined; // Patched; the informer has not caught up.
    const allocated: string[] = [];
    try {
      for (const set of this.#sets) allocated.push(set.allocateNext());
    } catch (err) {
      this.#releaseAll(allocated);
      throw new Error(`CIDRNotAvailable: failed to allocate cidr for node ${key}: ${String(err)}`, {
        cause: err,
      });
    }
    try {
      await this.#o.client.request('PATCH', `${nodesPath}/${encodeURIComponent(key)}`, {
        body: { spec: { podCIDR: allocated[0] ?? '', podCIDRs: allocated } },
        contentType: 'application/strategic-merge-patch+json',
        signal,
      });
    } catch (err) {
      // Not given to the node: free them (upstream keeps them only on a server timeout).
      if (!(err instanceof ApiError && err.code === 504)) this.#releaseAll(allocated);
      if (err instanceof ApiError && err.code === 404) return undefined;
      throw err;
    }
    this.#assigned.set(key, allocated);
    return undefined;
  }

  #releaseAll(cidrs: readonly string[]): void {
    for (const c of cidrs) this.#sets.find((s) => s.isIPv6 === c.includes(':'))?.release(c);
  }
}
