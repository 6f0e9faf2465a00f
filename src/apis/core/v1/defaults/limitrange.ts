/** LimitRange defaults (upstream SetDefaults_LimitRangeItem), in place. */
import type { JsonObject } from '../../../../util/json.js';
import { obj, objArr, str } from '../access.js';

/** `target` gains every key of `source` it lacks; an empty result stays absent (omitempty). */
function fillFrom(item: JsonObject, target: string, source: JsonObject | undefined): void {
  const out: JsonObject = { ...(obj(item, target) ?? {}) };
  for (const [k, v] of Object.entries(source ?? {})) if (out[k] === undefined) out[k] = v;
  if (Object.keys(out).length > 0) item[target] = out;
}

/**
 * Container items only: a missing default limit comes from max, a missing default request from
 * the default limit, then from min.
 */
export function defaultLimitRange(o: JsonObject): void {
  for (const item of objArr(obj(o, 'spec'), 'limits')) {
    if (str(item, 'type') !== 'Container') continue;
    fillFrom(item, 'default', obj(item, 'max'));
    fillFrom(item, 'defaultRequest', obj(item, 'default'));
    fillFrom(item, 'defaultRequest', obj(item, 'min'));
  }
}
