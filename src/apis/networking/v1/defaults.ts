/**
 * networking.k8s.io/v1 defaults (upstream pkg/apis/networking/v1/defaults.go), in place. Ingress has
 * none: unlike v1beta1, v1 leaves `pathType` unset (validation then requires it).
 */
import type { JsonObject } from '../../../util/json.js';
import { ensureObj, obj, objArr, setDefault } from '../../core/v1/access.js';

/** SetDefaults_NetworkPolicyPort: a port without a protocol is TCP. */
function defaultNetworkPolicyPort(port: JsonObject): void {
  setDefault(port, 'protocol', 'TCP');
}

/**
 * SetDefaults_NetworkPolicy: no policyTypes means Ingress, plus Egress when egress rules are given;
 * then each ingress and egress port gets its protocol.
 */
export function defaultNetworkPolicy(o: JsonObject): void {
  const spec = ensureObj(o, 'spec');
  const types = spec['policyTypes'];
  if (!Array.isArray(types) || types.length === 0) {
    const egress = spec['egress'];
    spec['policyTypes'] = Array.isArray(egress) && egress.length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
  }
  for (const rule of [...objArr(spec, 'ingress'), ...objArr(spec, 'egress')]) {
    for (const port of objArr(rule, 'ports')) defaultNetworkPolicyPort(port);
  }
}

/** SetDefaults_IngressClass: parameters without a scope refer to a cluster-scoped resource. */
export function defaultIngressClass(o: JsonObject): void {
  const params = obj(obj(o, 'spec'), 'parameters');
  if (params !== undefined) setDefault(params, 'scope', 'Cluster');
}
