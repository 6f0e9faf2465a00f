/**
 * The Node and Lease objects a kubelet (v1.27) writes for itself: labels and annotations set at
 * registration, capacity/allocatable, nodeInfo, addresses (InternalIP per family, Hostname),
 * daemon endpoints, the four conditions with the kubelet's reasons and messages, and the
 * `kube-node-lease` Lease it renews. podCIDR(s) are what the node IPAM controller would assign.
 */
import { createHash } from 'node:crypto';
import type { JsonObject } from '../util/json.js';
import { rfc3339, rfc3339Micro } from './json.js';

export interface NodeTemplate {
  /** Quantities by resource name (defaults: cpu 32, memory 256Gi, pods 110, ephemeral-storage 1Ti). */
  readonly capacity?: Readonly<Record<string, string>>;
  /** Defaults to capacity. */
  readonly allocatable?: Readonly<Record<string, string>>;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly taints?: readonly JsonObject[];
}

export const defaultCapacity: Readonly<Record<string, string>> = {
  cpu: '32',
  memory: '256Gi',
  pods: '110',
  'ephemeral-storage': '1Ti',
};

export const kubeletVersion = 'v1.27.16';
export const leaseNamespace = 'kube-node-lease';
export const simulatedAnnotation = 'nanokube.dev/simulated-node';

export interface NodeIdentity {
  readonly name: string;
  /** InternalIP addresses, one per family (the first is the primary). */
  readonly addresses: readonly string[];
  readonly podCIDRs: readonly string[];
}

function hex(seed: string, len: number): string {
  return createHash('sha256').update(seed).digest('hex').slice(0, len);
}

function uuidOf(seed: string): string {
  const h = hex(seed, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The four conditions as the kubelet's setters write them for a healthy node. */
export function nodeConditions(heartbeat: number, transition: number): JsonObject[] {
  const c = (type: string, status: string, reason: string, message: string): JsonObject => ({
    type,
    status,
    lastHeartbeatTime: rfc3339(heartbeat),
    lastTransitionTime: rfc3339(transition),
    reason,
    message,
  });
  return [
    c('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
    c('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
    c('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
    c('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
  ];
}

export function nodeStatus(id: NodeIdentity, template: NodeTemplate, now: number): JsonObject {
  const capacity = { ...defaultCapacity, ...(template.capacity ?? {}) };
  const allocatable = { ...capacity, ...(template.allocatable ?? {}) };
  return {
    capacity,
    allocatable,
    conditions: nodeConditions(now, now),
    addresses: [
      ...id.addresses.map((address) => ({ type: 'InternalIP', address })),
      { type: 'Hostname', address: id.name },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    nodeInfo: {
      machineID: hex(`machine/${id.name}`, 32),
      systemUUID: uuidOf(`system/${id.name}`),
      bootID: uuidOf(`boot/${id.name}`),
      kernelVersion: '6.1.0-nanokube',
      osImage: 'nanokube simulated node',
      containerRuntimeVersion: 'containerd://1.7.1',
      kubeletVersion,
      kubeProxyVersion: kubeletVersion,
      operatingSystem: 'linux',
      architecture: 'amd64',
    },
  };
}

export function nodeObject(id: NodeIdentity, template: NodeTemplate, now: number): JsonObject {
  const spec: JsonObject = { podCIDR: id.podCIDRs[0] ?? '', podCIDRs: [...id.podCIDRs] };
  if (id.podCIDRs.length === 0) {
    delete spec['podCIDR'];
    delete spec['podCIDRs'];
  }
  if (template.taints !== undefined && template.taints.length > 0) spec['taints'] = [...template.taints];
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: id.name,
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': id.name,
        'kubernetes.io/os': 'linux',
        ...(template.labels ?? {}),
      },
      annotations: {
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
        [simulatedAnnotation]: 'true',
        ...(template.annotations ?? {}),
      },
    },
    spec,
    status: nodeStatus(id, template, now),
  };
}

export function leaseObject(
  nodeName: string,
  nodeUid: string,
  renewTime: number,
  leaseDurationSeconds: number,
): JsonObject {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name: nodeName,
      namespace: leaseNamespace,
      ...(nodeUid !== ''
        ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: nodeName, uid: nodeUid }] }
        : {}),
    },
    spec: { holderIdentity: nodeName, leaseDurationSeconds, renewTime: rfc3339Micro(renewTime) },
  };
}
