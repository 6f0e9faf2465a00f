/** The value a resourceFieldRef names, shared by a container's environment and downward API volumes. */
import type { JsonObject } from '../../util/json.js';
import { objAt, objsAt, strAt } from '../json.js';
import { amountOf } from '../resources.js';
import type { ResourceList } from '../resources.js';

/** A resourceFieldRef's value (upstream ExtractContainerResourceValue), or undefined if unknown. */
export function resourceField(
  pod: JsonObject,
  container: JsonObject,
  ref: JsonObject,
  allocatable: ResourceList | undefined,
): string | undefined {
  const spec = objAt(pod, 'spec');
  const named = strAt(ref, 'containerName');
  const target =
    named === undefined || named === ''
      ? container
      : [...objsAt(spec, 'containers'), ...objsAt(spec, 'initContainers')].find(
          (c) => strAt(c, 'name') === named,
        );
  const m = /^(limits|requests)\.(.+)$/.exec(strAt(ref, 'resource') ?? '');
  if (target === undefined || m === null) return undefined;
  const [, kind, resource] = m as unknown as [string, 'limits' | 'requests', string];
  const set = objAt(objAt(target, 'resources'), kind)?.[resource];
  let amount: number | undefined = set === undefined ? undefined : amountOf(resource, set);
  // Limits not set are the node's allocatable (the kubelet merges them); requests not set are 0.
  if (amount === undefined) amount = kind === 'limits' ? allocatable?.get(resource) : 0;
  if (amount === undefined) return undefined;
  const divisor = amountOf(resource, ref['divisor'] ?? '1') || (resource === 'cpu' ? 1000 : 1);
  return String(Math.ceil(amount / divisor));
}
