/** Service defaults (upstream SetDefaults_Service). */
import type { JsonObject } from '../../../../util/json.js';
import { ensureObj, obj, objArr, setDefault, setDefaultStr, str } from '../access.js';

/** Default ClientIP session affinity timeout: three hours. */
const defaultClientIPTimeoutSeconds = 10800;

export function defaultService(svc: JsonObject): void {
  const spec = ensureObj(svc, 'spec');
  setDefaultStr(spec, 'sessionAffinity', 'None');
  // Without affinity there is no affinity config: switching a Service back to None drops it.
  if (str(spec, 'sessionAffinity') === 'None') delete spec['sessionAffinityConfig'];
  setDefaultStr(spec, 'type', 'ClusterIP');
  for (const port of objArr(spec, 'ports')) {
    setDefaultStr(port, 'protocol', 'TCP');
    const target = port['targetPort'];
    if (target === undefined || target === null || target === 0 || target === '') {
      const p = port['port'];
      if (typeof p === 'number') port['targetPort'] = p;
    }
  }
  const type = str(spec, 'type');
  if (type === 'NodePort' || type === 'LoadBalancer') setDefaultStr(spec, 'externalTrafficPolicy', 'Cluster');
  if (type === 'NodePort' || type === 'LoadBalancer' || type === 'ClusterIP') {
    setDefault(spec, 'internalTrafficPolicy', 'Cluster');
  }
  if (type === 'LoadBalancer') setDefault(spec, 'allocateLoadBalancerNodePorts', true);
  if (str(spec, 'sessionAffinity') === 'ClientIP') {
    const clientIP = obj(obj(spec, 'sessionAffinityConfig'), 'clientIP');
    if (clientIP?.['timeoutSeconds'] === undefined || clientIP['timeoutSeconds'] === null) {
      spec['sessionAffinityConfig'] = { clientIP: { timeoutSeconds: defaultClientIPTimeoutSeconds } };
    }
  }
}
