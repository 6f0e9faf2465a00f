/**
 * Label selectors as k8s.io/apimachinery/pkg/labels (v0.27): parsing `?labelSelector=`, matching,
 * printing, and the metav1.LabelSelector form objects carry (with its validation).
 */
import { fieldErrors } from '../field/errors.js';
import type { FieldError, FieldPath } from '../field/errors.js';
import { isQualifiedName, isValidLabelValue } from '../validation/names.js';
import { validateLabels } from '../validation/objectmeta.js';
import { parseRequirements } from './parser.js';
import { SelectorParseError, newRequirement, requirementMatches, requirementString } from './requirement.js';
import type { LabelRequirement, SelectorOperator } from './requirement.js';

export { SelectorParseError, newRequirement, requirementMatches, requirementString };
export type { LabelRequirement, SelectorOperator };

/** A conjunction of requirements; `nothing` matches no object (upstream labels.Nothing()). */
export class LabelSelector {
  readonly #reqs: readonly LabelRequirement[];
  readonly #nothing: boolean;

  constructor(reqs: readonly LabelRequirement[], options: { nothing?: boolean } = {}) {
    this.#reqs = [...reqs].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    this.#nothing = options.nothing ?? false;
  }

  static everything(): LabelSelector {
    return new LabelSelector([]);
  }

  static nothing(): LabelSelector {
    return new LabelSelector([], { nothing: true });
  }

  requirements(): readonly LabelRequirement[] {
    return this.#reqs;
  }

  matches(labels: Record<string, string> | undefined): boolean {
    if (this.#nothing) return false;
    return this.#reqs.every((r) => requirementMatches(r, labels));
  }

  /** True when it selects everything (the Nothing selector is not empty, as upstream). */
  empty(): boolean {
    return !this.#nothing && this.#reqs.length === 0;
  }

  isNothing(): boolean {
    return this.#nothing;
  }

  /** The value `label` must have to match, when the selector pins it (RequiresExactMatch). */
  requiresExactMatch(label: string): string | undefined {
    const r = this.#reqs.find((x) => x.key === label);
    if (r === undefined) return undefined;
    if ((r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1) {
      return r.values[0];
    }
    return undefined;
  }

  toString(): string {
    return this.#nothing ? '' : this.#reqs.map(requirementString).join(',');
  }
}

/** Upstream labels.Parse; throws SelectorParseError with upstream's message. */
export function parseLabelSelector(s: string): LabelSelector {
  return new LabelSelector(parseRequirements(s));
}

/** Upstream SelectorFromSet: `k=v` for each entry (not validated). */
export function labelSelectorFromSet(set: Record<string, string> | undefined): LabelSelector {
  return new LabelSelector(
    Object.entries(set ?? {}).map(([key, v]) => ({ key, operator: '=', values: [v] })),
  );
}

/** metav1.LabelSelector as stored in objects (Deployment.spec.selector...). */
export interface Metav1LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}
export interface Metav1LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Metav1LabelSelectorRequirement[];
}

const metav1Operators: Record<string, SelectorOperator> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/**
 * Upstream metav1.LabelSelectorAsSelector: undefined selects nothing, `{}` everything; throws
 * SelectorParseError for an unknown operator or invalid requirement.
 */
export function labelSelectorFromMetav1(sel: Metav1LabelSelector | null | undefined): LabelSelector {
  if (sel === undefined || sel === null) return LabelSelector.nothing();
  const reqs: LabelRequirement[] = [];
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) reqs.push(newRequirement(k, '=', [v]));
  for (const expr of sel.matchExpressions ?? []) {
    const op = Object.hasOwn(metav1Operators, expr.operator) ? metav1Operators[expr.operator] : undefined;
    if (op === undefined) {
      throw new SelectorParseError(`${JSON.stringify(expr.operator)} is not a valid label selector operator`);
    }
    reqs.push(newRequirement(expr.key, op, expr.values ?? []));
  }
  return new LabelSelector(reqs);
}

export interface LabelSelectorValidationOptions {
  /** Tolerate invalid values in matchExpressions (only for already-stored data). */
  readonly allowInvalidLabelValueInSelector?: boolean;
}

/** Upstream metav1 validation.ValidateLabelSelector. */
export function validateLabelSelector(
  sel: Metav1LabelSelector | null | undefined,
  path: FieldPath,
  options: LabelSelectorValidationOptions = {},
): FieldError[] {
  if (sel === undefined || sel === null) return [];
  const errs = validateLabels(sel.matchLabels, path.child('matchLabels'));
  (sel.matchExpressions ?? []).forEach((expr, i) => {
    const p = path.child('matchExpressions').index(i);
    const values = expr.values ?? [];
    switch (expr.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) {
          errs.push(
            fieldErrors.required(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"),
          );
        }
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) {
          errs.push(
            fieldErrors.forbidden(
              p.child('values'),
              "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            ),
          );
        }
        break;
      default:
        errs.push(fieldErrors.invalid(p.child('operator'), expr.operator, 'not a valid selector operator'));
    }
    for (const msg of isQualifiedName(expr.key))
      errs.push(fieldErrors.invalid(p.child('key'), expr.key, msg));
    if (options.allowInvalidLabelValueInSelector !== true) {
      values.forEach((v, j) => {
        for (const msg of isValidLabelValue(v))
          errs.push(fieldErrors.invalid(p.child('values').index(j), v, msg));
      });
    }
  });
  return errs;
}
