/** apiregistration.k8s.io/v1 defaults (upstream kube-aggregator pkg/apis/apiregistration/v1/defaults.go). */
import type { JsonObject } from '../../../util/json.js';
import { obj, setDefault } from '../../core/v1/access.js';

/** SetDefaults_ServiceReference: a service without a port is reached on 443. */
export function defaultAPIService(o: JsonObject): void {
  const service = obj(obj(o, 'spec'), 'service');
  if (service !== undefined) setDefault(service, 'port', 443);
}
