/**
 * flowcontrol.apiserver.k8s.io v1beta2 ⇄ v1beta3, the storage version (v1.27 converts through its
 * internal types; pkg/apis/flowcontrol/v1beta2/conversion.go). FlowSchemas are the same in both:
 * only apiVersion changes. A limited priority level's concurrency shares are
 * `assuredConcurrencyShares` in v1beta2 and `nominalConcurrencyShares` in v1beta3; nothing else
 * differs. Both directions return new objects and leave their input alone.
 */
import type { KubeObject } from '../../machinery/object.js';
import { cloneJson, isJsonObject } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';
import { flowcontrolGroup } from './constants.js';

function withVersion(o: KubeObject, version: string): KubeObject {
  const out = cloneJson(o);
  out.apiVersion = `${flowcontrolGroup}/${version}`;
  return out;
}

/** The FlowSchema as the given version (v1beta2 or v1beta3). */
export function flowSchemaAs(version: string): (o: KubeObject) => KubeObject {
  return (o) => withVersion(o, version);
}

/** `limited` with its shares under `to` (first, where Go's struct has it), `from` dropped. */
function renameShares(o: KubeObject, from: string, to: string): void {
  const spec = o['spec'];
  const limited = isJsonObject(spec) ? spec['limited'] : undefined;
  if (!isJsonObject(spec) || !isJsonObject(limited)) return;
  const renamed: JsonObject = {};
  const shares = limited[from] ?? limited[to];
  if (shares !== undefined) renamed[to] = shares;
  for (const [k, v] of Object.entries(limited)) if (k !== from && k !== to) renamed[k] = v;
  spec['limited'] = renamed;
}

export function priorityLevelConfigurationToV1beta3(o: KubeObject): KubeObject {
  const out = withVersion(o, 'v1beta3');
  renameShares(out, 'assuredConcurrencyShares', 'nominalConcurrencyShares');
  return out;
}

export function priorityLevelConfigurationToV1beta2(o: KubeObject): KubeObject {
  const out = withVersion(o, 'v1beta2');
  renameShares(out, 'nominalConcurrencyShares', 'assuredConcurrencyShares');
  return out;
}
