/** discovery.k8s.io/v1 defaults (upstream pkg/apis/discovery/v1/defaults.go), in place. */
import type { JsonObject } from '../../../util/json.js';
import { objArr, setDefault } from '../../core/v1/access.js';

/** SetDefaults_EndpointPort: a port without a name gets "" and one without a protocol TCP. */
function defaultEndpointPort(port: JsonObject): void {
  setDefault(port, 'name', '');
  setDefault(port, 'protocol', 'TCP');
}

export function defaultEndpointSlice(o: JsonObject): void {
  for (const port of objArr(o, 'ports')) defaultEndpointPort(port);
}
