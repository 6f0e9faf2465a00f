/**
 * CRD-time checks of x-kubernetes-validations, as apiextensions-apiserver v0.27
 * pkg/apis/apiextensions/validation/validation.go (the CEL part of
 * ValidateCustomResourceDefinitionOpenAPISchema and of validateCustomResourceDefinitionValidation)
 * with cel_validation.go (CELSchemaContext, TotalCost): every rule of the schema is compiled
 * against its node's type ("compilation failed: ...", messageExpression errors), its estimated cost
 * times how often it may run must stay within StaticEstimatedCostLimit, all of them together
 * within StaticEstimatedCRDCostLimit, and rules using `oldSelf` may not sit where old values
 * cannot be correlated (below lists other than map-lists, or maps that are not granular/atomic).
 *
 * The schema must already be structurally valid (the caller's seam only calls us then); the
 * per-rule text checks (rule/message/messageExpression present, line breaks) are the schema
 * validation's. Children are visited before their parent's rules, as upstream.
 */
import type { FieldError, FieldPath } from '../../machinery/field/errors.js';
import { fieldErrors, type FieldErrorList } from '../../machinery/field/errors.js';
import { MAX_UINT64 } from '../cost/estimate.js';
import { schemaDeclType } from '../schema/schema-decl-type.js';
import {
  isEmbeddedResource,
  schemaAdditionalProperties,
  schemaItems,
  schemaListType,
  schemaMaxItems,
  schemaMaxProperties,
  schemaProperties,
  schemaType,
  type JsonSchema,
} from '../schema/structural.js';
import { compileRules, type CompiledRule } from './compile-rules.js';
import { PER_CALL_LIMIT, STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT } from './limits.js';
import { mapIsCorrelatable } from './rule-validator.js';
import { goValidationRule, schemaRules } from './rules.js';
import { toJsonSchema, type SchemaInput } from './schema-input.js';

/** multiplyWithOverflowGuard: the product, saturating at MaxUint64. */
export function multiplyWithOverflowGuard(base: bigint, cardinality: bigint): bigint {
  if (base === 0n) return 0n;
  if (MAX_UINT64 / base < cardinality) return MAX_UINT64;
  return base * cardinality;
}

/** getCostErrorMessage: how far over its limit a cost is, worded as upstream. */
export function costErrorMessage(costName: string, cost: bigint, limit: bigint): string {
  const factor = Number(cost) / Number(limit);
  let text: string;
  if (factor > 100) text = 'more than 100x';
  else if (factor < 1.5) text = `${factor.toFixed(6)}x`;
  else text = `${factor.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${text} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

interface RuleCost {
  readonly path: FieldPath;
  readonly cost: bigint;
}

/** TotalCost: the sum of all expression costs and the (at most 4) most expensive ones. */
class TotalCost {
  total = 0n;
  mostExpensive: RuleCost[] = [];

  observe(path: FieldPath, cost: bigint): void {
    this.total = MAX_UINT64 - this.total < cost ? MAX_UINT64 : this.total + cost;
    // Rules contributing less than 1% of the CRD limit are not named.
    if (cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100n) return;
    this.mostExpensive.push({ path, cost });
    this.mostExpensive.sort((a, b) => (a.cost > b.cost ? -1 : a.cost < b.cost ? 1 : 0));
    if (this.mostExpensive.length > 4) this.mostExpensive.length = 4;
  }
}

/** extractMaxElements: how many children a node may have; undefined when unbounded. */
function maxElements(s: JsonSchema): bigint | undefined {
  const nonNegative = (v: bigint): bigint => (v < 0n ? 0n : v);
  switch (schemaType(s)) {
    case 'object': {
      if (s['additionalProperties'] !== undefined && s['additionalProperties'] !== null) {
        const max = schemaMaxProperties(s);
        return max === undefined ? undefined : nonNegative(max);
      }
      return 1n;
    }
    case 'array': {
      const max = schemaMaxItems(s);
      return max === undefined ? undefined : nonNegative(max);
    }
    default:
      return 1n;
  }
}

interface Context {
  readonly path: FieldPath;
  readonly isRoot: boolean;
  /** How many times the node may occur in an object; undefined when unbounded. */
  readonly maxCardinality: bigint | undefined;
  /** The highest ancestor below which old values cannot be correlated. */
  readonly uncorrelatable: FieldPath | undefined;
  readonly total: TotalCost;
  readonly perCallLimit: number;
  /** Fields of schema errors found by the caller; rules at or above them are not compiled. */
  readonly schemaErrorFields: readonly string[];
}

/** Whether a schema error lies at this node or below it (upstream skips its rules then). */
function hasSchemaErrorsAtOrBelow(ctx: Context): boolean {
  const at = ctx.path.toString();
  return ctx.schemaErrorFields.some(
    (f) => f === at || (f.startsWith(at) && (f[at.length] === '.' || f[at.length] === '[')),
  );
}

function child(
  ctx: Context,
  parent: JsonSchema,
  path: FieldPath,
  uncorrelatable: FieldPath | undefined,
): Context {
  let maxCardinality: bigint | undefined;
  if (ctx.maxCardinality !== undefined) {
    const max = maxElements(parent);
    if (max !== undefined) maxCardinality = multiplyWithOverflowGuard(ctx.maxCardinality, max);
  }
  return { ...ctx, path, isRoot: false, maxCardinality, uncorrelatable };
}

function visit(schema: JsonSchema, ctx: Context, errs: FieldError[]): void {
  const path = ctx.path;
  const ap = schemaAdditionalProperties(schema);
  if (ap !== undefined)
    visit(ap, child(ctx, schema, path.child('additionalProperties'), ctx.uncorrelatable), errs);
  const props = schemaProperties(schema);
  if (props !== undefined) {
    const forbid =
      ctx.uncorrelatable ?? (mapIsCorrelatable(schema['x-kubernetes-map-type']) ? undefined : path);
    for (const [name, prop] of props) {
      visit(prop, child(ctx, schema, path.child('properties').key(name), forbid), errs);
    }
  }
  const items = schemaItems(schema);
  if (items !== undefined) {
    // Only map-lists correlate old items ("set" identity is not supported for rules).
    const forbid = ctx.uncorrelatable ?? (schemaListType(schema) === 'map' ? undefined : path);
    visit(items, child(ctx, schema, path.child('items'), forbid), errs);
  }
  checkRules(schema, ctx, errs);
}

function checkRules(schema: JsonSchema, ctx: Context, errs: FieldError[]): void {
  const rules = schemaRules(schema);
  if (rules.length === 0 || hasSchemaErrorsAtOrBelow(ctx)) return;
  const rulesPath = ctx.path.child('x-kubernetes-validations');
  const declType = schemaDeclType(schema, ctx.isRoot || isEmbeddedResource(schema));
  if (declType === undefined) {
    errs.push(
      fieldErrors.internal(
        rulesPath,
        new Error(
          'internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations',
        ),
      ),
    );
    return;
  }
  let results: CompiledRule[];
  try {
    results = compileRules(rules, declType, ctx.perCallLimit);
  } catch (err) {
    errs.push(fieldErrors.internal(rulesPath, err instanceof Error ? err : new Error(String(err))));
    return;
  }
  results.forEach((cr, i) => {
    const rulePath = rulesPath.index(i).child('rule');
    const messagePath = rulesPath.index(i).child('messageExpression');
    const cost = multiplyWithOverflowGuard(cr.maxCost, ctx.maxCardinality ?? cr.maxCardinality);
    if (cost > STATIC_ESTIMATED_COST_LIMIT) {
      errs.push(
        fieldErrors.forbidden(
          rulePath,
          costErrorMessage('estimated rule cost', cost, STATIC_ESTIMATED_COST_LIMIT),
        ),
      );
    }
    ctx.total.observe(rulePath, cost);
    if (cr.error !== undefined) {
      errs.push(fieldErrors.invalid(rulePath, goValidationRule(cr.rule), cr.error.detail));
    }
    if (cr.messageExpressionError !== undefined) {
      errs.push(
        fieldErrors.invalid(messagePath, goValidationRule(cr.rule), cr.messageExpressionError.detail),
      );
    } else if (cr.messageExpression !== undefined) {
      if (cr.messageExpressionMaxCost > STATIC_ESTIMATED_COST_LIMIT) {
        errs.push(
          fieldErrors.forbidden(
            messagePath,
            costErrorMessage(
              'estimated messageExpression cost',
              cr.messageExpressionMaxCost,
              STATIC_ESTIMATED_COST_LIMIT,
            ),
          ),
        );
      }
      ctx.total.observe(messagePath, cr.messageExpressionMaxCost);
    }
    if (cr.transitionRule && ctx.uncorrelatable !== undefined) {
      errs.push(
        fieldErrors.invalid(
          rulePath,
          cr.rule.rule,
          `oldSelf cannot be used on the uncorrelatable portion of the schema within ${ctx.uncorrelatable.toString()}`,
        ),
      );
    }
  });
}

export interface CompileSchemaRulesOptions {
  /** Per-evaluation cost limit the programs are built with (default PerCallLimit). */
  readonly perCallLimit?: number;
  /**
   * The schema (non-CEL) errors already found in this schema: as upstream, the rules of a node
   * with errors at or below it are not compiled (their types may not be meaningful).
   */
  readonly schemaErrors?: readonly FieldError[];
}

/**
 * Every CRD-time error of the x-kubernetes-validations of one version's `openAPIV3Schema`
 * (JSON or structural) at `path` (…`.openAPIV3Schema`), including the schema-wide cost total.
 * Never throws (AM-09).
 */
export function compileSchemaRules(
  schema: SchemaInput,
  path: FieldPath,
  options: CompileSchemaRulesOptions = {},
): FieldErrorList {
  const errs: FieldError[] = [];
  const total = new TotalCost();
  try {
    visit(
      toJsonSchema(schema),
      {
        path,
        isRoot: true,
        maxCardinality: 1n,
        uncorrelatable: undefined,
        total,
        perCallLimit: options.perCallLimit ?? PER_CALL_LIMIT,
        schemaErrorFields: (options.schemaErrors ?? []).map((e) => e.field),
      },
      errs,
    );
  } catch (err) {
    errs.push(
      fieldErrors.internal(
        path.child('x-kubernetes-validations'),
        err instanceof Error ? err : new Error(String(err)),
      ),
    );
    return errs;
  }
  if (total.total > STATIC_ESTIMATED_CRD_COST_LIMIT) {
    for (const expensive of total.mostExpensive) {
      errs.push(
        fieldErrors.forbidden(
          expensive.path,
          'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema',
        ),
      );
    }
    errs.push(
      fieldErrors.forbidden(
        path,
        costErrorMessage(
          'x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema',
          total.total,
          STATIC_ESTIMATED_CRD_COST_LIMIT,
        ),
      ),
    );
  }
  return errs;
}
