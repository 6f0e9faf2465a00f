/** Endpoints defaults (upstream SetDefaults_Endpoints): port protocol TCP. */
import type { JsonObject } from '../../../../util/json.js';
import { objArr, setDefaultStr } from '../access.js';

export function defaultEndpoints(ep: JsonObject): void {
  for (const subset of objArr(ep, 'subsets')) {
    for (const port of objArr(subset, 'ports')) setDefaultStr(port, 'protocol', 'TCP');
  }
}
