/**
 * The scheduler's view of one node (upstream framework.NodeInfo): what the node offers
 * (allocatable, labels, taints, schedulability) and what its pods use, kept current
 * incrementally as pods are added, assumed and removed.
 */
import type { JsonObject } from '../../util/json.js';
import { metaOf, objAt, objsAt, strAt, stringMap } from '../json.js';
import { resourceList } from '../resources.js';
import type { ResourceList } from '../resources.js';
import { parseTaint } from './pod-info.js';
import type { PodInfo, Taint } from './pod-info.js';

export const notReadyTaintKey = 'node.kubernetes.io/not-ready';
export const unreachableTaintKey = 'node.kubernetes.io/unreachable';
export const unschedulableTaintKey = 'node.kubernetes.io/unschedulable';

export interface NodeSpecView {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  /** The node's taints plus, when Ready is not True, the taint the node lifecycle controller adds. */
  readonly taints: readonly Taint[];
  readonly unschedulable: boolean;
  readonly allocatable: ResourceList;
}

/**
 * The node as the scheduler sees it. A node whose Ready condition is False carries
 * `node.kubernetes.io/not-ready:NoSchedule`, Unknown or missing `node.kubernetes.io/unreachable`
 * or not-ready, as upstream's node lifecycle controller (TaintNodesByCondition) would add: the
 * scheduler itself filters on taints only.
 */
export function nodeView(node: JsonObject): NodeSpecView {
  const meta = metaOf(node);
  const spec = objAt(node, 'spec');
  const status = objAt(node, 'status');
  const taints = objsAt(spec, 'taints').map(parseTaint);
  const ready = objsAt(status, 'conditions').find((c) => strAt(c, 'type') === 'Ready');
  const readyStatus = strAt(ready, 'status');
  if (readyStatus !== 'True') {
    const key = readyStatus === 'Unknown' ? unreachableTaintKey : notReadyTaintKey;
    if (!taints.some((t) => t.key === key && t.effect === 'NoSchedule')) {
      taints.push({ key, value: '', effect: 'NoSchedule' });
    }
  }
  return {
    name: strAt(meta, 'name') ?? '',
    labels: stringMap(meta, 'labels'),
    taints,
    unschedulable: spec?.['unschedulable'] === true,
    allocatable: resourceList(objAt(status, 'allocatable')),
  };
}

/** Whether two views differ in anything a filter or score reads. */
export function nodeViewChanged(a: NodeSpecView, b: NodeSpecView): boolean {
  if (a.unschedulable !== b.unschedulable) return true;
  if (JSON.stringify(a.labels) !== JSON.stringify(b.labels)) return true;
  if (JSON.stringify(a.taints) !== JSON.stringify(b.taints)) return true;
  if (a.allocatable.size !== b.allocatable.size) return true;
  for (const [k, v] of a.allocatable) if (b.allocatable.get(k) !== v) return true;
  return false;
}

export class NodeInfo {
  readonly name: string;
  /** Undefined while pods name a node the informer has not shown yet. */
  node: NodeSpecView | undefined;
  readonly pods = new Map<string, PodInfo>();
  readonly requested: ResourceList = new Map();
  nonZeroMilliCPU = 0;
  nonZeroMemory = 0;
  readonly usedPorts = new Map<string, number>();

  constructor(name: string) {
    this.name = name;
  }

  addPod(p: PodInfo): void {
    this.removePod(p.key);
    this.pods.set(p.key, p);
    this.#account(p, 1);
  }

  removePod(key: string): PodInfo | undefined {
    const old = this.pods.get(key);
    if (old === undefined) return undefined;
    this.pods.delete(key);
    this.#account(old, -1);
    return old;
  }

  #account(p: PodInfo, sign: 1 | -1): void {
    for (const [k, v] of p.resources.requests) this.requested.set(k, (this.requested.get(k) ?? 0) + sign * v);
    this.nonZeroMilliCPU += sign * p.resources.nonZeroMilliCPU;
    this.nonZeroMemory += sign * p.resources.nonZeroMemory;
    for (const port of p.hostPorts) {
      const n = (this.usedPorts.get(port) ?? 0) + sign;
      if (n <= 0) this.usedPorts.delete(port);
      else this.usedPorts.set(port, n);
    }
  }
}
