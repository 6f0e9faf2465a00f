/**
 * One label requirement (`key in (a,b)`, `!key`, `key>3`...) as k8s.io/apimachinery/pkg/labels
 * Requirement (v0.27): construction with upstream's validation errors, matching and printing.
 */
import { FieldPath, fieldErrors } from '../field/errors.js';
import type { FieldError } from '../field/errors.js';
import { isQualifiedName, isValidLabelValue } from '../validation/names.js';
import { goStringSlice, invalidRendered } from '../validation/gosyntax.js';

/** Upstream selection.Operator values. */
export type SelectorOperator = '=' | '==' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

export const validRequirementOperators: readonly SelectorOperator[] = [
  'in',
  'notin',
  '=',
  '==',
  '!=',
  'gt',
  'lt',
  'exists',
  '!',
];

export interface LabelRequirement {
  readonly key: string;
  readonly operator: SelectorOperator;
  /** Sorted and de-duplicated when parsed from a string (upstream uses a string set). */
  readonly values: readonly string[];
}

/** A selector that does not parse or validate; `message` is upstream's error text. */
export class SelectorParseError extends Error {
  override readonly name = 'SelectorParseError';
}

/** Upstream utilerrors aggregate rendering: one message alone, several as `[a, b]` (deduplicated). */
export function aggregateMessage(messages: readonly string[]): string {
  const seen = [...new Set(messages)];
  if (seen.length === 1) return seen[0]!;
  return `[${seen.join(', ')}]`;
}

/** `<path>: Invalid value: "k": msg1; msg2` for a bad key, or undefined. */
export function labelKeyError(key: string, path: FieldPath | string): FieldError | undefined {
  const errs = isQualifiedName(key);
  return errs.length > 0 ? fieldErrors.invalid(path, key, errs.join('; ')) : undefined;
}

const int64Pattern = /^[+-]?[0-9]+$/;
const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/** strconv.ParseInt(s, 10, 64), or undefined when it fails. */
export function parseInt64(s: string): bigint | undefined {
  if (!int64Pattern.test(s)) return undefined;
  const n = BigInt(s);
  return n < int64Min || n > int64Max ? undefined : n;
}

/** Upstream NewRequirement: validates and throws SelectorParseError with the aggregated message. */
export function newRequirement(
  key: string,
  operator: SelectorOperator,
  values: readonly string[],
): LabelRequirement {
  const errs: FieldError[] = [];
  const keyErr = labelKeyError(key, FieldPath.root('key'));
  if (keyErr !== undefined) errs.push(keyErr);
  const valuePath = FieldPath.root('values');
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0) {
        errs.push(
          invalidRendered(
            valuePath,
            goStringSlice(values),
            "for 'in', 'notin' operators, values set can't be empty",
          ),
        );
      }
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1) {
        errs.push(
          invalidRendered(
            valuePath,
            goStringSlice(values),
            'exact-match compatibility requires one single value',
          ),
        );
      }
      break;
    case 'exists':
    case '!':
      if (values.length !== 0) {
        errs.push(
          invalidRendered(
            valuePath,
            goStringSlice(values),
            'values set must be empty for exists and does not exist',
          ),
        );
      }
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1) {
        errs.push(
          invalidRendered(
            valuePath,
            goStringSlice(values),
            "for 'Gt', 'Lt' operators, exactly one value is required",
          ),
        );
      }
      values.forEach((v, i) => {
        if (parseInt64(v) === undefined) {
          errs.push(
            fieldErrors.invalid(
              valuePath.index(i),
              v,
              "for 'Gt', 'Lt' operators, the value must be an integer",
            ),
          );
        }
      });
      break;
    default:
      errs.push(fieldErrors.notSupported(FieldPath.root('operator'), operator, validRequirementOperators));
  }
  values.forEach((v, i) => {
    const msgs = isValidLabelValue(v);
    if (msgs.length > 0) errs.push(fieldErrors.invalid(valuePath.index(i).key(key), v, msgs.join('; ')));
  });
  if (errs.length > 0) throw new SelectorParseError(aggregateMessage(errs.map((e) => e.toString())));
  return { key, operator, values: [...values] };
}

export function requirementMatches(r: LabelRequirement, labels: Record<string, string> | undefined): boolean {
  const has = labels !== undefined && Object.hasOwn(labels, r.key);
  const value = has ? labels[r.key]! : '';
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has && r.values.includes(value);
    case 'notin':
    case '!=':
      return !has || !r.values.includes(value);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (!has || r.values.length !== 1) return false;
      const actual = parseInt64(value);
      const bound = parseInt64(r.values[0]!);
      if (actual === undefined || bound === undefined) return false;
      return r.operator === 'gt' ? actual > bound : actual < bound;
    }
    default:
      return false;
  }
}

const operatorText: Record<SelectorOperator, string> = {
  '=': '=',
  '==': '==',
  '!=': '!=',
  in: ' in ',
  notin: ' notin ',
  gt: '>',
  lt: '<',
  exists: '',
  '!': '',
};

/** Upstream Requirement.String(): `!k`, `k`, `k=v`, `k in (a,b)` (values sorted). */
export function requirementString(r: LabelRequirement): string {
  let s = r.operator === '!' ? `!${r.key}` : r.key;
  if (r.operator === 'exists' || r.operator === '!') return s;
  s += operatorText[r.operator];
  const values = r.values.length === 1 ? r.values[0]! : [...r.values].sort().join(',');
  return r.operator === 'in' || r.operator === 'notin' ? `${s}(${values})` : s + values;
}
