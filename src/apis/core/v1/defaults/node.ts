/** Node defaults (upstream SetDefaults_NodeStatus): allocatable defaults to capacity. */
import type { JsonObject } from '../../../../util/json.js';
import { cloneJson } from '../../../../util/json.js';
import { obj } from '../access.js';

export function defaultNode(node: JsonObject): void {
  const status = obj(node, 'status');
  const capacity = obj(status, 'capacity');
  if (status === undefined || capacity === undefined) return;
  if (status['allocatable'] === undefined || status['allocatable'] === null) {
    status['allocatable'] = cloneJson(capacity);
  }
}
