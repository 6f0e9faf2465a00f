/**
 * The items of a stored v1 LimitRange (`spec.limits[]`), their quantities parsed once per
 * stored object: the cache hands back the same object until the LimitRange changes.
 */
import type { KubeObject } from '../../machinery/object.js';
import { isJsonObject } from '../../util/json.js';
import { resourceListOf } from '../../apis/core/v1/quota/resource-list.js';
import type { ResourceList } from '../../apis/core/v1/quota/resource-list.js';

/** `Container`, `Pod` or `PersistentVolumeClaim` (other types are kept and ignored). */
export interface LimitRangeItem {
  readonly type: string;
  readonly max: ResourceList;
  readonly min: ResourceList;
  readonly default: ResourceList;
  readonly defaultRequest: ResourceList;
  readonly maxLimitRequestRatio: ResourceList;
}

const parsed = new WeakMap<KubeObject, readonly LimitRangeItem[]>();

export function limitRangeItems(limitRange: KubeObject): readonly LimitRangeItem[] {
  const cached = parsed.get(limitRange);
  if (cached !== undefined) return cached;
  const spec = limitRange['spec'];
  const limits = isJsonObject(spec) && Array.isArray(spec['limits']) ? spec['limits'] : [];
  const items: LimitRangeItem[] = [];
  for (const item of limits) {
    if (!isJsonObject(item)) continue;
    items.push({
      type: typeof item['type'] === 'string' ? item['type'] : '',
      max: resourceListOf(item['max']),
      min: resourceListOf(item['min']),
      default: resourceListOf(item['default']),
      defaultRequest: resourceListOf(item['defaultRequest']),
      maxLimitRequestRatio: resourceListOf(item['maxLimitRequestRatio']),
    });
  }
  parsed.set(limitRange, items);
  return items;
}
