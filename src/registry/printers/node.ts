/**
 * `kubectl get nodes`: NAME, STATUS, ROLES, AGE, VERSION; wide: INTERNAL-IP, EXTERNAL-IP,
 * OS-IMAGE, KERNEL-VERSION, CONTAINER-RUNTIME.
 */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { arrayAt, booleanAt, compareStrings, stringAt, stringMapAt } from './read.js';

const wide = { priority: 1 } as const;
const ROLE_LABEL_PREFIX = 'node-role.kubernetes.io/';
const LEGACY_ROLE_LABEL = 'kubernetes.io/role';

/** "Ready", "NotReady" or "Unknown", plus ",SchedulingDisabled" when cordoned. */
export function nodeStatus(node: unknown): string {
  let ready: unknown;
  for (const c of arrayAt(node, 'status', 'conditions')) if (stringAt(c, 'type') === 'Ready') ready = c;
  const parts: string[] = [];
  if (ready === undefined) parts.push('Unknown');
  else parts.push(stringAt(ready, 'status') === 'True' ? 'Ready' : 'NotReady');
  if (booleanAt(node, 'spec', 'unschedulable')) parts.push('SchedulingDisabled');
  return parts.join(',');
}

/** Sorted roles from node-role.kubernetes.io/<role> and kubernetes.io/role=<role> labels. */
export function nodeRoles(node: unknown): string {
  const roles = new Set<string>();
  for (const [k, v] of stringMapAt(node, 'metadata', 'labels')) {
    if (k.startsWith(ROLE_LABEL_PREFIX)) {
      const role = k.slice(ROLE_LABEL_PREFIX.length);
      if (role !== '') roles.add(role);
    } else if (k === LEGACY_ROLE_LABEL && v !== '') {
      roles.add(v);
    }
  }
  return roles.size === 0 ? '<none>' : [...roles].sort(compareStrings).join(',');
}

function firstAddress(node: unknown, type: string): string {
  const found = arrayAt(node, 'status', 'addresses').find((a) => stringAt(a, 'type') === type);
  return found === undefined ? '<none>' : stringAt(found, 'address');
}

function orUnknown(s: string): string {
  return s === '' ? '<unknown>' : s;
}

export const nodeTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Status', 'string', 'Readiness of the node, and whether scheduling is disabled.'),
    column('Roles', 'string', 'Roles taken from the node-role labels.'),
    ageColumn,
    column('Version', 'string', 'Kubelet version reported by the node.'),
    column('Internal-IP', 'string', 'First InternalIP address of the node.', wide),
    column('External-IP', 'string', 'First ExternalIP address of the node.', wide),
    column('OS-Image', 'string', 'Operating system image reported by the node.', wide),
    column('Kernel-Version', 'string', 'Kernel version reported by the node.', wide),
    column('Container-Runtime', 'string', 'Container runtime name and version reported by the node.', wide),
  ],
  cells(obj, now) {
    return [
      stringAt(obj, 'metadata', 'name'),
      nodeStatus(obj),
      nodeRoles(obj),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
      stringAt(obj, 'status', 'nodeInfo', 'kubeletVersion'),
      firstAddress(obj, 'InternalIP'),
      firstAddress(obj, 'ExternalIP'),
      orUnknown(stringAt(obj, 'status', 'nodeInfo', 'osImage')),
      orUnknown(stringAt(obj, 'status', 'nodeInfo', 'kernelVersion')),
      orUnknown(stringAt(obj, 'status', 'nodeInfo', 'containerRuntimeVersion')),
    ];
  },
};
