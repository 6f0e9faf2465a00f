/**
 * `kubectl get pods`: NAME, READY, STATUS, RESTARTS, AGE; wide: IP, NODE, NOMINATED NODE,
 * READINESS GATES.
 */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { podStatusCells } from './pod-status.js';
import { arrayAt, stringAt } from './read.js';

const wide = { priority: 1 } as const;

function orNone(s: string): string {
  return s === '' ? '<none>' : s;
}

/** `true/total` readiness gates whose condition is True, or "<none>" without gates. */
function readinessGates(pod: unknown): string {
  const gates = arrayAt(pod, 'spec', 'readinessGates');
  if (gates.length === 0) return '<none>';
  const conditions = arrayAt(pod, 'status', 'conditions');
  let satisfied = 0;
  for (const gate of gates) {
    const type = stringAt(gate, 'conditionType');
    const condition = conditions.find((c) => stringAt(c, 'type') === type);
    if (condition !== undefined && stringAt(condition, 'status') === 'True') satisfied++;
  }
  return `${satisfied}/${gates.length}`;
}

/** status.podIP wins over podIPs[0], as in the v1 to internal conversion. */
function primaryPodIP(pod: unknown): string {
  const podIP = stringAt(pod, 'status', 'podIP');
  if (podIP !== '') return podIP;
  const podIPs = arrayAt(pod, 'status', 'podIPs');
  return podIPs.length > 0 ? stringAt(podIPs[0], 'ip') : '';
}

export const podTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Ready', 'string', 'Ready containers out of all containers in the pod.'),
    column('Status', 'string', 'Summary of the pod phase and its containers’ states.'),
    column('Restarts', 'string', 'Container restarts in the pod, and how long ago the latest one happened.'),
    ageColumn,
    column('IP', 'string', 'Primary IP address assigned to the pod.', wide),
    column('Node', 'string', 'Node the pod is bound to.', wide),
    column('Nominated Node', 'string', 'Node the scheduler nominated for the pod after preemption.', wide),
    column('Readiness Gates', 'string', 'Readiness gates whose condition is True, out of all gates.', wide),
  ],
  cells(obj, now) {
    const { ready, status, restarts } = podStatusCells(obj, now);
    return [
      stringAt(obj, 'metadata', 'name'),
      ready,
      status,
      restarts,
      translateTimestampSince(obj.metadata.creationTimestamp, now),
      orNone(primaryPodIP(obj)),
      orNone(stringAt(obj, 'spec', 'nodeName')),
      orNone(stringAt(obj, 'status', 'nominatedNodeName')),
      readinessGates(obj),
    ];
  },
};
