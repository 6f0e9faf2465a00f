/** resource.k8s.io/v1alpha2 defaults (upstream pkg/apis/resource/v1alpha2/defaults.go), in place. */
import type { JsonObject } from '../../../util/json.js';
import { ensureObj, obj, setDefaultStr } from '../../core/v1/access.js';

/** SetDefaults_ResourceClaimSpec: an unset allocationMode is WaitForFirstConsumer. */
function defaultClaimSpec(spec: JsonObject): void {
  setDefaultStr(spec, 'allocationMode', 'WaitForFirstConsumer');
}

export function defaultResourceClaim(o: JsonObject): void {
  defaultClaimSpec(ensureObj(o, 'spec'));
}

/** The template's claim spec (spec.spec) is defaulted as a claim's. */
export function defaultResourceClaimTemplate(o: JsonObject): void {
  const spec = obj(o, 'spec');
  if (spec !== undefined) defaultClaimSpec(ensureObj(spec, 'spec'));
}
