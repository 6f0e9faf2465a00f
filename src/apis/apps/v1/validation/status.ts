/** Status validation of the apps workloads (upstream Validate*StatusUpdate), on apps/v1 JSON. */
import { FieldPath, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import type { KubeObject } from '../../../../machinery/object.js';
import type { JsonObject } from '../../../../util/json.js';
import { num, obj } from '../../../core/v1/access.js';
import { nonNegative } from './common.js';

interface StatusRules {
  /** Counters that must be >= 0 (absent counts as 0, as Go's zero value). */
  readonly counters: readonly string[];
  /** [field, bound, message]: `field` may not exceed `bound`. */
  readonly bounds: readonly (readonly [string, string, string])[];
  readonly collisionCount: boolean;
}

const overReplicas = 'cannot be greater than status.replicas';

const rules: Record<'Deployment' | 'ReplicaSet' | 'StatefulSet' | 'DaemonSet', StatusRules> = {
  Deployment: {
    counters: [
      'observedGeneration',
      'replicas',
      'updatedReplicas',
      'readyReplicas',
      'availableReplicas',
      'unavailableReplicas',
    ],
    bounds: [
      ['updatedReplicas', 'replicas', overReplicas],
      ['readyReplicas', 'replicas', overReplicas],
      ['availableReplicas', 'replicas', overReplicas],
      ['availableReplicas', 'readyReplicas', 'cannot be greater than readyReplicas'],
    ],
    collisionCount: true,
  },
  ReplicaSet: {
    counters: [
      'replicas',
      'fullyLabeledReplicas',
      'readyReplicas',
      'availableReplicas',
      'observedGeneration',
    ],
    bounds: [
      ['fullyLabeledReplicas', 'replicas', overReplicas],
      ['readyReplicas', 'replicas', overReplicas],
      ['availableReplicas', 'replicas', overReplicas],
      ['availableReplicas', 'readyReplicas', 'cannot be greater than readyReplicas'],
    ],
    collisionCount: false,
  },
  StatefulSet: {
    counters: [
      'replicas',
      'readyReplicas',
      'currentReplicas',
      'updatedReplicas',
      'availableReplicas',
      'observedGeneration',
    ],
    bounds: [
      ['readyReplicas', 'replicas', overReplicas],
      ['currentReplicas', 'replicas', overReplicas],
      ['updatedReplicas', 'replicas', overReplicas],
      ['availableReplicas', 'replicas', overReplicas],
      ['availableReplicas', 'readyReplicas', 'cannot be greater than status.readyReplicas'],
    ],
    collisionCount: true,
  },
  DaemonSet: {
    counters: [
      'currentNumberScheduled',
      'numberMisscheduled',
      'desiredNumberScheduled',
      'numberReady',
      'observedGeneration',
      'updatedNumberScheduled',
      'numberAvailable',
      'numberUnavailable',
    ],
    bounds: [],
    collisionCount: true,
  },
};

export type AppsKind = keyof typeof rules;

function validateStatus(status: JsonObject, r: StatusRules, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const c of r.counters) errs.push(...nonNegative(num(status, c) ?? 0, path.child(c)));
  if (r.collisionCount)
    errs.push(...nonNegative(num(status, 'collisionCount'), path.child('collisionCount')));
  for (const [field, bound, msg] of r.bounds) {
    const v = num(status, field) ?? 0;
    if (v > (num(status, bound) ?? 0)) errs.push(fieldErrors.invalid(path.child(field), v, msg));
  }
  return errs;
}

/** Status update validation of an apps workload kind, including collisionCount not decreasing. */
export function validateAppsStatusUpdate(kind: AppsKind, o: KubeObject, old: KubeObject): FieldError[] {
  const path = FieldPath.root('status');
  const status = obj(o, 'status') ?? {};
  const r = rules[kind];
  const errs = validateStatus(status, r, path);
  if (r.collisionCount) {
    const oldCount = num(obj(old, 'status'), 'collisionCount');
    const newCount = num(status, 'collisionCount');
    if (oldCount !== undefined && (newCount === undefined || newCount < oldCount)) {
      errs.push(fieldErrors.invalid(path.child('collisionCount'), newCount ?? 0, 'cannot be decremented'));
    }
  }
  return errs;
}
