/**
 * How a taken Service address is recorded in the store: by default one key per address under
 * /registry/ranges/serviceips/ holding the owning Service; with MultiCIDRServiceAllocator (NW-03,
 * KEP-1880) an IPAddress object named by the canonical address with spec.parentRef to the
 * Service, as upstream's ipallocator.go creates them (labels ipaddress.kubernetes.io/ip-family and
 * managed-by ipallocator.k8s.io). Either way the record is created only if absent, in the
 * Service's transaction.
 */
import { randomUUID } from 'node:crypto';
import { str } from '../../apis/core/v1/access.js';
import { ipAddressInfo } from '../../apis/networking/v1alpha1/resources.js';
import type { KubeObject } from '../../machinery/object.js';
import { encodeObject } from '../../storage/codec.js';
import { isJsonObject } from '../../util/json.js';
import { objectKey, resourcePrefix } from '../generic/keys.js';
import type { AllocationOwner } from './owner.js';
import { decodeOwner, encodeOwner } from './owner.js';

export interface IPRecords {
  /** Key prefix of all records. */
  readonly prefix: string;
  key(ip: string): string;
  ipOf(key: string): string;
  value(ip: string, owner: AllocationOwner): Uint8Array;
  ownerOf(value: Uint8Array): AllocationOwner | undefined;
}

export const serviceIPsPrefix = '/registry/ranges/serviceips/';

export const rangeKeyRecords: IPRecords = {
  prefix: serviceIPsPrefix,
  key: (ip) => serviceIPsPrefix + ip,
  ipOf: (key) => key.slice(serviceIPsPrefix.length),
  value: (_ip, owner) => encodeOwner(owner),
  ownerOf: decodeOwner,
};

export const ipAddressLabels = {
  family: 'ipaddress.kubernetes.io/ip-family',
  managedBy: 'ipaddress.kubernetes.io/managed-by',
} as const;
export const ipAllocatorManager = 'ipallocator.k8s.io';

/** The IPAddress object recording `ip` for `owner`. */
export function ipAddressObject(ip: string, owner: AllocationOwner, now: Date = new Date()): KubeObject {
  return {
    apiVersion: 'networking.k8s.io/v1alpha1',
    kind: 'IPAddress',
    metadata: {
      name: ip,
      uid: randomUUID(),
      creationTimestamp: now.toISOString().replace(/\.\d+Z$/, 'Z'),
      labels: {
        [ipAddressLabels.family]: ip.includes(':') ? 'IPv6' : 'IPv4',
        [ipAddressLabels.managedBy]: ipAllocatorManager,
      },
    },
    spec: { parentRef: { group: '', resource: 'services', namespace: owner.namespace, name: owner.name } },
  };
}

const decoder = new TextDecoder();

export const ipAddressRecords: IPRecords = {
  prefix: resourcePrefix(ipAddressInfo),
  key: (ip) => objectKey(ipAddressInfo, '', ip),
  ipOf: (key) => key.slice(resourcePrefix(ipAddressInfo).length),
  value: (ip, owner) => {
    const key = objectKey(ipAddressInfo, '', ip);
    return encodeObject(key, ipAddressObject(ip, owner));
  },
  ownerOf: (value) => {
    try {
      const o: unknown = JSON.parse(decoder.decode(value));
      if (!isJsonObject(o) || !isJsonObject(o['spec'])) return undefined;
      const ref = o['spec']['parentRef'];
      if (!isJsonObject(ref) || str(ref, 'resource') !== 'services') return undefined;
      const namespace = str(ref, 'namespace');
      const name = str(ref, 'name');
      return namespace !== undefined && name !== undefined ? { namespace, name } : undefined;
    } catch {
      return undefined;
    }
  },
};
