/** intstr.GetScaledValueFromIntOrPercent (apimachinery v0.27) over a decoded JSON value. */
import type { JsonValue } from '../../util/json.js';

/**
 * An integer as is; "N%" scaled against `total` (rounded up or down). Throws upstream's errors
 * for strings that are not percentages and for other types.
 */
export function scaledValueFromIntOrPercent(
  v: JsonValue | undefined,
  total: number,
  roundUp: boolean,
): number {
  if (typeof v === 'number') return Math.trunc(v);
  if (typeof v === 'string') {
    if (!v.endsWith('%'))
      throw new Error('invalid value for IntOrString: invalid type: string is not a percentage');
    const digits = v.slice(0, -1);
    if (!/^[+-]?\d+$/.test(digits)) {
      throw new Error(`invalid value "${v}": strconv.Atoi: parsing "${digits}": invalid syntax`);
    }
    const pct = Number(digits);
    return roundUp ? Math.ceil((pct * total) / 100) : Math.floor((pct * total) / 100);
  }
  throw new Error('invalid value for IntOrString: invalid type');
}
