/**
 * admissionregistration.k8s.io/v1alpha1 defaults as v1.27 (upstream
 * pkg/apis/admissionregistration/v1alpha1/defaults.go and its generated walk, which also applies
 * v1's rule default), in place. A binding's validationActions has no default in v1.27.
 */
import type { JsonObject } from '../../../util/json.js';
import { ensureObj, obj, objArr, setDefault } from '../../core/v1/access.js';
import { defaultRule } from '../v1/defaults.js';

/** SetDefaults_MatchResources, then each (excluded) resource rule's scope. */
function defaultMatchResources(mr: JsonObject | undefined): void {
  if (mr === undefined) return;
  setDefault(mr, 'matchPolicy', 'Equivalent');
  setDefault(mr, 'namespaceSelector', {});
  setDefault(mr, 'objectSelector', {});
  for (const rule of [...objArr(mr, 'resourceRules'), ...objArr(mr, 'excludeResourceRules')])
    defaultRule(rule);
}

export function defaultValidatingAdmissionPolicy(o: JsonObject): void {
  // The spec is a struct upstream: its defaults apply even when none was sent.
  const spec = ensureObj(o, 'spec');
  setDefault(spec, 'failurePolicy', 'Fail');
  defaultMatchResources(obj(spec, 'matchConstraints'));
}

export function defaultValidatingAdmissionPolicyBinding(o: JsonObject): void {
  defaultMatchResources(obj(obj(o, 'spec'), 'matchResources'));
}
