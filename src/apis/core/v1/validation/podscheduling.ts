/**
 * Pod affinity and topology spread constraints (upstream validateAffinity and
 * validateTopologySpreadConstraints, release-1.27), on core/v1 JSON.
 */
import { fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError, FieldPath } from '../../../../machinery/field/errors.js';
import { toMetav1Selector } from '../../../../machinery/labels/metav1.js';
import { validateLabelSelector } from '../../../../machinery/labels/selector.js';
import { isDNS1123Label, isQualifiedName } from '../../../../machinery/validation/names.js';
import type { JsonObject } from '../../../../util/json.js';
import { indexedObjs, num, obj, str, strArr } from '../access.js';
import { invalidEach } from './common.js';
import { validateNodeSelector, validateNodeSelectorTerm } from './nodeselector.js';

function validateWeight(term: JsonObject, path: FieldPath): FieldError[] {
  const weight = num(term, 'weight') ?? 0;
  return weight <= 0 || weight > 100
    ? [fieldErrors.invalid(path.child('weight'), weight, 'must be in the range 1-100')]
    : [];
}

function validatePodAffinityTerm(term: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(
    ...validateLabelSelector(toMetav1Selector(obj(term, 'labelSelector')), path.child('labelSelector')),
  );
  errs.push(
    ...validateLabelSelector(
      toMetav1Selector(obj(term, 'namespaceSelector')),
      path.child('namespaceSelector'),
    ),
  );
  for (const name of strArr(term, 'namespaces')) {
    // ValidateNamespaceName reports on "namespace" (singular), as upstream does.
    errs.push(...invalidEach(path.child('namespace'), name, isDNS1123Label(name)));
  }
  const key = str(term, 'topologyKey') ?? '';
  if (key === '') errs.push(fieldErrors.required(path.child('topologyKey'), 'can not be empty'));
  errs.push(...invalidEach(path.child('topologyKey'), key, isQualifiedName(key)));
  return errs;
}

function validatePodAffinityKind(affinity: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const requiredPath = path.child('requiredDuringSchedulingIgnoredDuringExecution');
  for (const [i, term] of indexedObjs(affinity, 'requiredDuringSchedulingIgnoredDuringExecution')) {
    errs.push(...validatePodAffinityTerm(term, requiredPath.index(i)));
  }
  const preferredPath = path.child('preferredDuringSchedulingIgnoredDuringExecution');
  for (const [i, weighted] of indexedObjs(affinity, 'preferredDuringSchedulingIgnoredDuringExecution')) {
    errs.push(...validateWeight(weighted, preferredPath.index(i)));
    errs.push(
      ...validatePodAffinityTerm(
        obj(weighted, 'podAffinityTerm') ?? {},
        preferredPath.index(i).child('podAffinityTerm'),
      ),
    );
  }
  return errs;
}

/** Upstream validateAffinity: node affinity, pod affinity and pod anti-affinity. */
export function validateAffinity(spec: JsonObject, path: FieldPath): FieldError[] {
  const affinity = obj(spec, 'affinity');
  if (affinity === undefined) return [];
  const errs: FieldError[] = [];
  const node = obj(affinity, 'nodeAffinity');
  if (node !== undefined) {
    const nodePath = path.child('nodeAffinity');
    const required = obj(node, 'requiredDuringSchedulingIgnoredDuringExecution');
    if (required !== undefined) {
      errs.push(
        ...validateNodeSelector(required, nodePath.child('requiredDuringSchedulingIgnoredDuringExecution')),
      );
    }
    const preferredPath = nodePath.child('preferredDuringSchedulingIgnoredDuringExecution');
    for (const [i, term] of indexedObjs(node, 'preferredDuringSchedulingIgnoredDuringExecution')) {
      errs.push(...validateWeight(term, preferredPath.index(i)));
      errs.push(
        ...validateNodeSelectorTerm(
          obj(term, 'preference') ?? {},
          preferredPath.index(i).child('preference'),
        ),
      );
    }
  }
  const pod = obj(affinity, 'podAffinity');
  if (pod !== undefined) errs.push(...validatePodAffinityKind(pod, path.child('podAffinity')));
  const anti = obj(affinity, 'podAntiAffinity');
  if (anti !== undefined) errs.push(...validatePodAffinityKind(anti, path.child('podAntiAffinity')));
  return errs;
}

const scheduleActions = ['DoNotSchedule', 'ScheduleAnyway'];
const nodeInclusionPolicies = ['Honor', 'Ignore'];

/** Upstream validateTopologySpreadConstraints (v1.27: matchLabelKeys is alpha and dropped). */
export function validateTopologySpreadConstraints(spec: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const constraints = indexedObjs(spec, 'topologySpreadConstraints');
  for (const [i, c] of constraints) {
    const p = path.index(i);
    const maxSkew = num(c, 'maxSkew') ?? 0;
    if (maxSkew <= 0)
      errs.push(fieldErrors.invalid(p.child('maxSkew'), maxSkew, 'must be greater than zero'));
    const key = str(c, 'topologyKey') ?? '';
    if (key === '') errs.push(fieldErrors.required(p.child('topologyKey'), 'can not be empty'));
    const action = str(c, 'whenUnsatisfiable') ?? '';
    if (!scheduleActions.includes(action)) {
      errs.push(fieldErrors.notSupported(p.child('whenUnsatisfiable'), action, scheduleActions));
    }
    const repeated = constraints
      .slice(i + 1)
      .some(
        ([, o]) => (str(o, 'topologyKey') ?? '') === key && (str(o, 'whenUnsatisfiable') ?? '') === action,
      );
    if (repeated) {
      errs.push(fieldErrors.duplicate(p.child('{topologyKey, whenUnsatisfiable}'), `{${key}, ${action}}`));
    }
    const minDomains = num(c, 'minDomains');
    if (minDomains !== undefined) {
      if (minDomains <= 0) {
        errs.push(fieldErrors.invalid(p.child('minDomains'), minDomains, 'must be greater than zero'));
      }
      if (action !== 'DoNotSchedule') {
        errs.push(
          fieldErrors.invalid(
            p.child('minDomains'),
            minDomains,
            `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${action}`,
          ),
        );
      }
    }
    for (const policyKey of ['nodeAffinityPolicy', 'nodeTaintsPolicy']) {
      const policy = str(c, policyKey);
      if (policy !== undefined && !nodeInclusionPolicies.includes(policy)) {
        errs.push(fieldErrors.notSupported(p.child(policyKey), policy, nodeInclusionPolicies));
      }
    }
    errs.push(...validateLabelSelector(toMetav1Selector(obj(c, 'labelSelector')), p.child('labelSelector')));
  }
  return errs;
}
